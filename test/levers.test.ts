import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseMode } from '../agents/modes.ts';
import { runInstances } from '../agents/runner.ts';
import { INSTANCE_ID_SCHEMA_PATTERN, instanceId, parseInstanceId } from '../core/catalog.ts';
import { SpaceActError } from '../core/errors.ts';
import { analyzeRuns, formatAnalysis } from '../report/analysis/analyze.ts';
import { leverStudyDeltas } from '../report/analysis/deltas.ts';
import { buildLeaderboard } from '../report/analysis/leaderboard.ts';
import { analysisTables } from '../report/analysis/tables.ts';
import { writeTables } from '../report/tables.ts';
import { assertInstance } from '../tasks/instance-schema.ts';
import { checkInstanceId, families, getFamily, familyAndInstanceFromId, leversOf } from '../tasks/registry.ts';
import { selectInstances, suiteInstances } from '../tasks/suites.ts';
import { Renderer } from '../render/renderer.ts';
import { TaskEnv } from '../tasks/env.ts';
import { checkFirstView } from '../tasks/view-rule.ts';

/** The paths at which two JSON values differ. */
function differences(a: unknown, b: unknown, path = ''): string[] {
  if (JSON.stringify(a) === JSON.stringify(b)) return [];
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a as object), ...Object.keys(b as object)]);
    return [...keys].flatMap((k) => differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`));
  }
  return [path];
}

function refusal(f: () => unknown): SpaceActError {
  try {
    f();
  } catch (e) {
    expect(e).to.be.instanceOf(SpaceActError);
    return e as SpaceActError;
  }
  throw new Error('expected a refusal');
}

/** The seed the every-family study test generates (the released seed). */
const SEED = 100;

describe('single-factor lever studies (L5 plus one lever)', function () {
  this.timeout(600000);

  it('ids round-trip, with and without a lever, and the schema pattern takes both', () => {
    for (const [id, parts] of [
      ['M5-L5+tool-s100', { family: 'M5', tier: 'L5', seed: 100, lever: '+tool' }],
      ['P6-L3-s7', { family: 'P6', tier: 'L3', seed: 7 }],
      ['M1-L5+rot-s0', { family: 'M1', tier: 'L5', seed: 0, lever: '+rot' }],
    ] as const) {
      const p = parseInstanceId(id);
      expect(p).to.deep.equal(parts);
      expect(instanceId(p.family, p.tier, p.seed, p.lever)).to.equal(id);
      expect(new RegExp(INSTANCE_ID_SCHEMA_PATTERN).test(id), id).to.equal(true);
    }
    // A plain id has no lever key at all (ids that existed keep their exact parse).
    expect(Object.keys(parseInstanceId('M5-L5-s100'))).to.deep.equal(['family', 'tier', 'seed']);
    // A lever rides on L5 only; other spellings get a structured refusal naming the one meant.
    expect(refusal(() => parseInstanceId('M5-L7+tool-s1')).message).to.include('M5-L5+tool-s1');
    expect(refusal(() => parseInstanceId('m5-l5+TOOL-s1')).message).to.include('did you mean M5-L5+tool-s1?');
    expect(new RegExp(INSTANCE_ID_SCHEMA_PATTERN).test('M5-L3+tool-s1x')).to.equal(false);
  });

  it('a family refuses a lever it does not support, naming the ones it does, and changes nothing', () => {
    const e = refusal(() => familyAndInstanceFromId('M1-L5+tool-s100'));
    expect(e.code).to.equal('unknown-instance');
    expect(e.details).to.include({ family: 'M1', lever: '+tool' });
    expect(e.details.supported).to.deep.equal(leversOf(getFamily('M1')));
    expect(e.message).to.include('M1 has no lever +tool; M1 supports L5+rot');
    const none = families().find((f) => leversOf(f).length === 0)!;
    const n = refusal(() => checkInstanceId(`${none.id}-L5+rot-s1`));
    expect(n.details.supported).to.deep.equal([]);
    expect(n.message).to.include(`${none.id} supports no lever study`);
    // Selection refuses it before anything runs.
    expect(() => selectInstances({ instance: 'M5-L5-s100,P6-L5+tool-s100' })).to.throw(SpaceActError, /P6 has no lever \+tool/);
  });

  it("M6's +tool study is the seed's L5 instance with the lever on, nothing else; pure and schema-valid", () => {
    const plain = familyAndInstanceFromId('M6-L5-s100').instance;
    const { family, instance } = familyAndInstanceFromId('M6-L5+tool-s100');
    assertInstance(instance);
    expect(instance).to.include({ id: 'M6-L5+tool-s100', tier: 'L5', seed: 100 });
    expect(instance.levers).to.deep.equal(['+tool']);
    expect(differences(plain, instance).sort()).to.deep.equal(['.id', '.levers.0', '.rules', '.scene.toolFrame', '.tools.1.description'].sort());
    expect((instance.scene as { toolFrame: boolean }).toolFrame).to.equal(true);
    // The family handed back regenerates other seeds of the lever study (what verify and the battery use).
    expect(family.generate(3, 'L5').id).to.equal('M6-L5+tool-s3');
    expect(family.generate(3, 'L5')).to.deep.equal(getFamily('M6').generate(3, 'L5', '+tool'));
    // The L7 tier, which uses the same flag, keeps its own stream and meaning.
    expect(familyAndInstanceFromId('M6-L7-s100').instance.id).to.equal('M6-L7-s100');
  });

  it('every lever study of every family generates, is pure, and differs from the seed\'s L5 instance only where a lever acts', () => {
    // Where a lever may act: the world (scene, light), how it is shown (camera, rulers), what is
    // said of it (title, rules, tool text, the plan) and, for a world drawn again, the action
    // budget. Never what the instance is (family, version, tier, seed), how it is scored, or
    // which tools it has. Generation only (no rendering), at one seed.
    const mayDiffer = new Set(['.id', '.levers', '.title', '.rules', '.tools', '.camera', '.rulers', '.light', '.scene', '.reveal', '.budgets']);
    const withLevers = families().filter((f) => leversOf(f).length > 0);
    expect(withLevers.length).to.be.at.least(30);
    for (const f of withLevers) {
      for (const lever of leversOf(f)) {
        const what = `${f.id} ${lever}`;
        const study = f.generate(SEED, 'L5', lever);
        assertInstance(study);
        expect(f.generate(SEED, 'L5', lever), `${what} is pure`).to.deep.equal(study);
        expect(study, what).to.include({ id: instanceId(f.id, 'L5', SEED, lever), tier: 'L5', seed: SEED, family: f.id });
        expect(study.levers, what).to.deep.equal([lever]);
        const plain = f.generate(SEED, 'L5');
        const paths = differences(plain, study);
        const top = [...new Set(paths.map((p) => `.${p.split('.')[1]}`))];
        expect(top.filter((k) => !mayDiffer.has(k)), `${what} differs from L5 in ${top.join(' ')}`).to.deep.equal([]);
        // The lever acts: the world, its view or its text differ, not only the id.
        expect(top.filter((k) => k !== '.id' && k !== '.levers'), `${what} is the L5 instance under another id`).to.not.be.empty;
        expect(study.tools.map((t) => [t.name, t.kind]), `${what} tools`).to.deep.equal(plain.tools.map((t) => [t.name, t.kind]));
        expect([study.budgets.turns, study.budgets.actionsPerTurn], `${what} turns`).to.deep.equal([plain.budgets.turns, plain.budgets.actionsPerTurn]);
      }
    }
  });

  it("a puzzle family's study is its L7 world of the same seed under the study's id (P3 +occ), and its filters judge it as L7's", () => {
    const l7 = familyAndInstanceFromId('P3-L7-s100').instance;
    const { family, instance } = familyAndInstanceFromId('P3-L5+occ-s100');
    assertInstance(instance);
    expect(instance).to.include({ id: 'P3-L5+occ-s100', tier: 'L5', seed: 100 });
    expect(differences(l7, instance).sort()).to.deep.equal(['.id', '.tier']);
    expect(instance.levers).to.deep.equal(['+occ']);
    // The shortcut filters pass it as they pass L7 (the tall walls hide exactly one crate or cell).
    for (const f of family.shortcutFilters ?? []) expect(f.check(instance), f.name).to.equal(null);
    expect(refusal(() => getFamily('P3').generate(100, 'L5', '+rot')).message).to.match(/P3 has no lever \+rot; P3 supports L5\+occ/);
  });

  it('a tier drawn from another (drawsFrom) names two tiers of its family, the source first', () => {
    const declared = families().filter((f) => f.drawsFrom);
    expect(declared.map((f) => f.id)).to.include.members(['P1', 'P2']);
    for (const f of declared) {
      const tiers = Object.keys(f.tiers);
      for (const [tier, from] of Object.entries(f.drawsFrom!)) {
        expect(tiers, `${f.id} ${tier}`).to.include(tier);
        expect(tiers, `${f.id} ${tier} from ${from}`).to.include(from);
        expect(tiers.indexOf(from), `${f.id} ${tier} from ${from}`).to.be.below(tiers.indexOf(tier));
      }
    }
  });

  it("suite 'levers' pairs every released L5 instance of a family with levers with each lever at the same seed", () => {
    const ids = suiteInstances('levers');
    expect(ids).to.include.members(['M5-L5-s100', 'M5-L5+tool-s100', 'M1-L5-s100', 'M1-L5+rot-s100']);
    for (const id of ids) {
      const p = checkInstanceId(id);
      if (p.lever) expect(ids, id).to.include(instanceId(p.family, p.tier, p.seed));
    }
    for (const f of families()) for (const lever of leversOf(f)) expect(ids.some((id) => id.startsWith(`${f.id}-L5${lever}-`)), `${f.id} ${lever}`).to.equal(true);
  });

  it("analyze and the leaderboard give a lever table from a real random-agent run over an L5 instance and its lever study", async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'spaceact-levers-'));
    try {
      const out = join(tmp, 'random');
      // M6 is graded (a score); B2 is pass/fail, so its pair counts only in the success columns.
      const ids = ['M6-L5-s100', 'M6-L5+tool-s100', 'B2-L5-s100', 'B2-L5+rot-s100'];
      const summary = await runInstances({ instances: ids, agent: { name: 'random', options: { seed: 5 } }, mode: parseMode('default'), out, render: 'never' });
      const score = (id: string): number => summary.episodes.find((e) => e.instance === id)!.score!;
      const solved = (id: string): number => (summary.episodes.find((e) => e.instance === id)!.solved ? 1 : 0);
      const a = analyzeRuns([out]);
      expect(a.deltas.leverStudies.map((x) => x.lever)).to.deep.equal(['+rot', '+tool']);
      const rot = a.deltas.leverStudies[0];
      expect(rot).to.include({ pairs: 0, delta: null, successPairs: 1, solvedL5: solved('B2-L5-s100'), solvedLever: solved('B2-L5+rot-s100') });
      expect(rot.successFamilies).to.deep.equal(['B2']);
      const d = a.deltas.leverStudies[1];
      expect(d).to.include({ agent: 'random', mode: 'default', lever: '+tool', pairs: 1, successPairs: 1, solvedL5: solved('M6-L5-s100'), solvedLever: solved('M6-L5+tool-s100') });
      expect(d.families).to.deep.equal(['M6']);
      expect(d.delta).to.be.closeTo(score('M6-L5+tool-s100') - score('M6-L5-s100'), 1e-9);
      // One pair: the bootstrap interval is the one difference.
      expect(d.interval!.lo).to.be.closeTo(d.delta!, 1e-9);
      expect(d.interval!.hi).to.be.closeTo(d.delta!, 1e-9);
      const md = writeTables(analysisTables(a), 'md');
      expect(md).to.match(/\| *agent *\| *mode *\| *lever *\|/);
      expect(md).to.match(/\| *random *\| *default *\| *\+tool *\| *M6 *\| *1 *\|/);
      expect(md).to.match(/\| *random *\| *default *\| *\+rot *\| *\| *0 *\|.*\| *1 *\| *B2 *\| *[01] *\| *[01] *\|$/m);
      expect(formatAnalysis(a)).to.include('Lever studies vs the same family');
      const lb = buildLeaderboard([out]);
      expect(lb.rows[0].leverDeltas.map((x) => [x.lever, x.pairs, x.delta, x.successPairs])).to.deep.equal([['+rot', 0, null, 1], ['+tool', 1, d.delta, 1]]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('lever rows count every non-abandoned pair and its solved sides, pass/fail families included (hand-built episodes)', () => {
    const ep = (instance: string, solved: boolean, score: number | null, abandoned = false) => ({ instance, family: instance.slice(0, 2), score, graded: score !== null, abandoned, solved });
    const rows = leverStudyDeltas(
      [
        ep('B2-L5-s1', true, null), ep('B2-L5+rot-s1', false, null),
        ep('B2-L5-s2', true, null), ep('B2-L5+rot-s2', true, null),
        ep('P1-L5-s1', false, 40), ep('P1-L5+rot-s1', true, 100),
        ep('B1-L5-s3', true, null), ep('B1-L5+rot-s3', true, null, true),
        ep('B6-L5+rot-s4', true, null),
      ],
      'hand-built',
    );
    expect(rows).to.have.length(1);
    const rot = rows[0];
    // Three pairs count (B2 twice, P1); B1's is dropped as abandoned; B6 has no L5 side.
    expect(rot).to.include({ lever: '+rot', pairs: 1, delta: 60, successPairs: 3, solvedL5: 2, solvedLever: 2, abandonedDropped: 1 });
    expect(rot.families).to.deep.equal(['P1']);
    expect(rot.successFamilies).to.deep.equal(['B2', 'P1']);
  });

  it("a study's first view is held to the study's own promise: A1 and A3 +occ hide the lever's count, M5 +tool shows each of the block's arrows", async () => {
    // Before: A1-L5+occ and A3-L5+occ declared L5's bound (2 and 0 hidden) while hiding 4 and 2;
    // M5-L5+tool-s100's +y arrow lay behind its +z arrow (found by `verify --suite levers`).
    const renderer = new Renderer({ frameCache: 0 });
    try {
      for (const id of ['A1-L5+occ-s100', 'A3-L5+occ-s100', 'M5-L5+tool-s100']) {
        const { family, instance } = familyAndInstanceFromId(id);
        const env = await TaskEnv.create(family, instance);
        try {
          const v = await checkFirstView(env, renderer);
          expect(v.problems, id).to.deep.equal([]);
        } finally {
          env.free();
        }
      }
    } finally {
      await renderer.close();
    }
  });
});
