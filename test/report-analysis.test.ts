import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { analyzeRuns, formatAnalysis, METRIC_ROWS, turnRanges } from '../report/analysis/analyze.ts';
import { buildLeaderboard } from '../report/analysis/leaderboard.ts';
import { FAILURE_LABELS } from '../report/analysis/taxonomy.ts';
import { parseCsv, writeTables } from '../report/tables.ts';
import { analysisTables, comparisonTables, leaderboardTable } from '../report/analysis/tables.ts';
import { compareRuns } from '../report/compare.ts';
import { wilson } from '../core/statistics.ts';
import {
  cam,
  CLEAN_SOLVE,
  COLLISION_LOOP,
  commit,
  move,
  OBSERVATION_LOOP,
  RULE_LOOP,
  STALL,
  VIOLATION_LOOP,
  writeAnalysisRun,
  type EpisodeSpec,
} from './support/analysis-logs.ts';

const exec = promisify(execFile);
/** Whether a pdflatex is on PATH (LaTeX output is compiled only then). */
function hasPdflatex(): boolean {
  try {
    execFileSync('pdflatex', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const spaceact = (args: string[]): Promise<{ stdout: string; stderr: string }> => exec(process.execPath, ['bin/spaceact.mjs', ...args], { maxBuffer: 1 << 24 });

describe('behaviour analysis and leaderboard', () => {
  let tmp: string;
  before(() => {
    tmp = mkdtempSync(join(tmpdir(), 'spaceact-analysis-'));
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('labels a collision loop, an observation loop and a stall, with the turns that earned them, and leaves a clean solve unlabelled', () => {
    const dir = join(tmp, 'four');
    writeAnalysisRun(dir, [CLEAN_SOLVE, COLLISION_LOOP, OBSERVATION_LOOP, STALL]);
    const a = analyzeRuns([dir]);
    const byId = new Map(a.failures.episodes.map((v) => [v.instance, v]));
    expect([...byId.keys()]).to.deep.equal(['M1-L5-s1', 'A1-L5-s1', 'T1-L5-s1']);
    expect(byId.get('M1-L5-s1')).to.include({ label: 'collision loop' });
    expect(byId.get('M1-L5-s1')!.turns).to.deep.equal([2, 3, 4, 5, 7, 8]);
    expect(byId.get('A1-L5-s1')).to.include({ label: 'observation loop' });
    expect(byId.get('A1-L5-s1')!.turns).to.deep.equal([2, 3, 4, 5, 6]);
    expect(byId.get('T1-L5-s1')).to.include({ label: 'stall' });
    expect(byId.get('T1-L5-s1')!.turns).to.deep.equal([2, 3, 4, 5, 6]);
    expect(a.failures.overall.counts).to.deep.equal({ abandoned: 0, 'premature commit': 0, 'budget exhaustion': 0, 'violation loop': 0, 'collision loop': 1, 'observation loop': 1, stall: 1 });
    expect(a.failures.overall.loopShare).to.be.closeTo(2 / 3, 1e-12);
    expect(a.runs[0].progressRecorded).to.equal(true);
  });

  it('labels a violation loop: the same refused call again and again, or one rule broken whatever the arguments', () => {
    const dir = join(tmp, 'violation-loops');
    writeAnalysisRun(dir, [VIOLATION_LOOP, RULE_LOOP, COLLISION_LOOP]);
    const byId = new Map(analyzeRuns([dir]).failures.episodes.map((v) => [v.instance, v]));
    expect(byId.get('P6-L3-s1')).to.include({ label: 'violation loop' });
    expect(byId.get('P6-L3-s1')!.turns).to.deep.equal([2, 3, 5, 6]);
    expect(byId.get('P6-L3-s1')!.reason).to.equal('the same refused call (move {"from":"C","to":"A"}) recurred on 4 of the last 5 turns without progress, 2 in a row');
    expect(byId.get('P2-L7-s1')).to.include({ label: 'violation loop' });
    expect(byId.get('P2-L7-s1')!.turns).to.deep.equal([2, 3, 4, 5, 6]);
    expect(byId.get('P2-L7-s1')!.reason).to.equal('the rule "along its length only" recurred on 5 of the last 5 turns without progress, 5 in a row');
    // Collisions of ever other moves stay a collision loop.
    expect(byId.get('M1-L5-s1')).to.include({ label: 'collision loop' });
  });

  it('computes the behaviour figures of those four episodes as counted by hand', () => {
    const dir = join(tmp, 'figures');
    writeAnalysisRun(dir, [CLEAN_SOLVE, COLLISION_LOOP, OBSERVATION_LOOP, STALL]);
    const m = analyzeRuns([dir]).behaviour.overall;
    // Responses 3 + 8 + 6 + 6; calls sent 6 + 13 + 11 + 11; calls that ran 6 + 8 + 11 + 11.
    expect(m).to.include({ episodes: 4, solved: 1, responses: 23, callsSent: 41, callsRan: 36, collisionTurns: 6, collisionTurnsWithNext: 5 });
    expect(m.actionsPerResponse).to.be.closeTo(41 / 23, 1e-12);
    expect(m.callsSavedByBatching).to.be.closeTo(1 - 23 / 36, 1e-12);
    expect(m.cameraPerEpisodeSolved).to.equal(1);
    expect(m.cameraPerEpisodeUnsolved).to.be.closeTo(11 / 3, 1e-12);
    expect(m.cameraShareSolved).to.be.closeTo(1 / 6, 1e-12);
    expect(m.cameraShareUnsolved).to.be.closeTo(11 / 30, 1e-12);
    // Collision turns 2, 3, 4, 5, 7, 8: the next turn collides after 2, 3, 4 and 7; turn 6 looks.
    expect(m.repeatCollisionRate).to.equal(4 / 5);
    expect(m.cameraAfterCollisionRate).to.equal(1 / 5);
    expect(m.batchBeforeCollision).to.be.closeTo(11 / 6, 1e-12);
    expect(m.batchAfterCollision).to.be.closeTo(9 / 5, 1e-12);
    // Notes change on solve turns 1 and 3, loop turns 1, 3 and 5, and observation turn 1.
    expect(m.noteUpdatesPerResponse).to.be.closeTo(6 / 23, 1e-12);
    expect(m.violationsPerEpisode).to.equal(1.5);
    expect(m.collisionsPerEpisode).to.equal(1.5);
    expect(m.violationsByKind).to.deep.equal({ collision: 1.5 });
  });

  it('labels premature commits, budget exhaustion and abandoned episodes, and falls back to state changes without logged progress', () => {
    const dir = join(tmp, 'others');
    const steady: EpisodeSpec = {
      instance: 'P6-L7-s1',
      solved: false,
      endReason: 'turn-budget',
      turns: Array.from({ length: 8 }, (_, i) => ({ calls: [move()], progress: [i / 10, (i + 1) / 10] as [number, number] })),
    };
    const wrongAnswer: EpisodeSpec = { instance: 'V1-L5-s1', solved: false, endReason: 'commit', turns: [{ calls: [cam()], progress: [0, 0] }, { calls: [commit()], progress: [0, 0] }] };
    const abandoned: EpisodeSpec = { instance: 'M1-L7-s1', solved: false, abandoned: true, endReason: 'abandoned', turns: [{ calls: [], progress: null, abandoned: 'API down' }] };
    // An older log without progress: the same two states visited over and over.
    const oldLog: EpisodeSpec = {
      instance: 'A6-L5-s1',
      solved: false,
      endReason: 'turn-budget',
      turns: [
        { calls: [move()], progress: null, stateHash: 'a' },
        ...Array.from({ length: 5 }, (_, i) => ({ calls: [move()], progress: null, stateHash: i % 2 ? 'a' : 'b' })),
      ],
    };
    writeAnalysisRun(dir, [steady, wrongAnswer, abandoned, oldLog]);
    const a = analyzeRuns([dir]);
    const label = (id: string) => a.failures.episodes.find((v) => v.instance === id)!;
    expect(label('P6-L7-s1')).to.deep.include({ label: 'budget exhaustion', turns: [8] });
    expect(label('V1-L5-s1')).to.deep.include({ label: 'premature commit', turns: [2] });
    expect(label('M1-L7-s1')).to.deep.include({ label: 'abandoned', turns: [1] });
    // Turns 1 and 2 reach new states (a, b); 3–6 only revisit them.
    expect(label('A6-L5-s1')).to.deep.include({ label: 'stall', turns: [3, 4, 5, 6] });
    expect(a.runs[0].progressRecorded).to.equal(false);
    expect(a.failures.episodes).to.have.length(4);
    // Every label is one of the six, once per unsolved episode.
    for (const v of a.failures.episodes) expect(FAILURE_LABELS).to.include(v.label);
  });

  it('measures +plan and +state against default (gap closed, collisions) and each L7 lever against L5', () => {
    const base = join(tmp, 'delta-default');
    const plan = join(tmp, 'delta-plan');
    const loopy = (instance: string, score: number): EpisodeSpec => ({ ...COLLISION_LOOP, instance, score });
    writeAnalysisRun(base, [
      { ...CLEAN_SOLVE, instance: 'P2-L5-s1', score: 40 },
      { ...STALL, instance: 'P2-L7-s1', score: 20 },
      loopy('M1-L5-s1', 10),
      { ...STALL, instance: 'M1-L7-s1', score: 4 },
      { ...STALL, instance: 'A1-L5-s1', abandoned: true, endReason: 'abandoned', score: 0 },
    ]);
    writeAnalysisRun(
      plan,
      [
        { ...CLEAN_SOLVE, instance: 'P2-L5-s1', score: 70 },
        { ...CLEAN_SOLVE, instance: 'M1-L5-s1', score: 55 },
        { ...CLEAN_SOLVE, instance: 'A1-L5-s1', score: 90 },
      ],
      { mode: 'plan' },
    );
    const a = analyzeRuns([base, plan]);
    expect(a.deltas.modes).to.have.length(1);
    const d = a.deltas.modes[0];
    expect(d).to.include({ agent: 'handmade', mode: 'plan', pairs: 2, meanDefault: 25, meanMode: 62.5, abandonedDropped: 1 });
    expect(d.gapClosed).to.be.closeTo((62.5 - 25) / 75, 1e-12);
    expect(d.collisionsDefault).to.equal(3); // 0 and 6 collisions
    expect(d.collisionsMode).to.equal(0);
    const levers = a.deltas.levers.filter((l) => l.mode === 'default');
    const byLever = new Map(levers.map((l) => [l.lever, l]));
    // P2's L7 lever hides vehicles, M1's is a rotated working frame (from the registry).
    expect([...byLever.keys()].sort()).to.deep.equal(['+occ', '+rot']);
    expect(byLever.get('+occ')).to.deep.include({ families: ['P2'], pairs: 1, meanL5: 40, meanL7: 20, drop: 20 });
    expect(byLever.get('+rot')).to.deep.include({ families: ['M1'], pairs: 1, drop: 6 });
  });

  it('prints every metric and label from the command line, and the same figures as JSON', async () => {
    const dir = join(tmp, 'cli');
    writeAnalysisRun(dir, [CLEAN_SOLVE, COLLISION_LOOP, OBSERVATION_LOOP, STALL]);
    const text = (await spaceact(['analyze', dir])).stdout;
    for (const m of METRIC_ROWS) expect(text).to.include(m.label);
    for (const l of FAILURE_LABELS) expect(text).to.include(l);
    expect(text).to.match(/M1-L5-s1\s+collision loop .* 2–5, 7–8/);
    const out = join(tmp, 'analysis.json');
    const json = JSON.parse((await spaceact(['analyze', dir, '--json', '--out', out])).stdout);
    expect(json.behaviour.overall.repeatCollisionRate).to.equal(0.8);
    expect(JSON.parse(readFileSync(out, 'utf8'))).to.deep.equal(json);
    const bad = await spaceact(['analyze', join(tmp, 'nothing-here')]).then(
      () => null,
      (err: { code: number; stderr: string }) => err,
    );
    expect(bad?.code).to.equal(2);
    expect(bad?.stderr).to.match(/is not a folder/);
    expect(turnRanges([1, 2, 3, 5, 7, 8])).to.equal('1–3, 5, 7–8');
    expect(formatAnalysis(analyzeRuns([dir]))).to.equal(text);
  });

  /** Two runs for the leaderboard: a model's over four categories (one abandoned, one pass/fail) and a random agent's. */
  function leaderboardRuns(): [string, string] {
    const a = join(tmp, 'lb-a');
    const b = join(tmp, 'lb-b');
    rmSync(a, { recursive: true, force: true });
    rmSync(b, { recursive: true, force: true });
    writeAnalysisRun(
      a,
      [
        { ...CLEAN_SOLVE, inputTokens: 1000, outputTokens: 200, cost: 0.5 },
        { ...STALL, cost: 0.25 },
        { ...COLLISION_LOOP, instance: 'M1-L7-s1', abandoned: true, endReason: 'abandoned', score: 0, cost: 0.25 },
        { ...CLEAN_SOLVE, instance: 'B1-L7-s1', graded: false, cost: 0 },
      ],
      { agent: 'openai:<b>m</b>', model: '<b>m</b>' },
    );
    // Over the same four instances: a leaderboard ranks rows over one instance set.
    writeAnalysisRun(b, ['P6-L5-s1', 'T1-L5-s1', 'M1-L7-s1', 'B1-L7-s1'].map((instance) => ({ ...STALL, instance })), { agent: 'random' });
    return [a, b];
  }

  it('ranks agents and modes in a leaderboard with Wilson intervals, abandoned apart and tokens per solved episode', async () => {
    const [a, b] = leaderboardRuns();
    const lb = buildLeaderboard([a, b]);
    expect(lb.rows.map((r) => r.agent)).to.deep.equal(['openai:<b>m</b>', 'random']);
    const top = lb.rows[0];
    expect(top).to.include({ rank: 1, model: '<b>m</b>', episodes: 4, graded: 3, ungraded: 1, abandoned: 1, solved: 2 });
    expect(top.meanScore).to.be.closeTo((100 + 3.5 + 0) / 3, 1e-9);
    expect(top.meanScoreNotAbandoned).to.be.closeTo((100 + 3.5) / 2, 1e-9);
    expect(top.success.wilson95).to.deep.equal(wilson(2, 4));
    expect(top.categories.map((c) => c.category)).to.deep.equal(['B', 'P', 'M', 'T']);
    expect(top.tokensPerSolved).to.equal((1200 + 660 + 880 + 330) / 2);
    expect(top.costPerSolved).to.equal(0.5);
    const page = join(tmp, 'lb.html');
    const res = await spaceact(['leaderboard', a, b, '--out', page]);
    expect(res.stdout).to.match(/^#\s+agent/);
    const html = readFileSync(page, 'utf8');
    expect(html).to.include('openai:&lt;b&gt;m&lt;/b&gt;');
    expect(html).not.to.include('<b>m</b>');
    expect(html).to.include('Content-Security-Policy');
    const json = JSON.parse((await spaceact(['leaderboard', a, b, '--json'])).stdout);
    expect(json.rows[1]).to.include({ agent: 'random', solved: 0, tokensPerSolved: null });
  });

  it('ranks only rows over the same instances: a run over another set is refused in one line, or its own row with --allow-mixed', async () => {
    const [a, b] = leaderboardRuns();
    const p6 = join(tmp, 'lb-p6');
    writeAnalysisRun(p6, [{ ...CLEAN_SOLVE, instance: 'P6-L3-s1' }, { ...CLEAN_SOLVE, instance: 'P6-L7-s1' }], { agent: 'random', mode: 'cap1' });
    expect(() => buildLeaderboard([a, b, p6])).to.throw(/the runs cover different instance sets, so their rows would not be comparable — .*random \(cap1\): 2 instances.*; give runs over the same instances, or --allow-mixed/);
    const refused = await exec(process.execPath, ['bin/spaceact.mjs', 'leaderboard', a, b, p6]).then(() => null, (e: { stderr: string; code: number }) => e);
    expect(refused?.code).to.equal(2);
    expect(refused?.stderr.trim().split('\n')).to.have.length(1);
    const mixed = buildLeaderboard([a, b, p6], { allowMixed: true });
    expect(mixed.rows.map((r) => [r.agent, r.mode, r.instanceSet.name, r.episodes])).to.deep.equal([
      ['random', 'cap1', '2 instances', 2],
      ['openai:<b>m</b>', 'default', '4 instances', 4],
      ['random', 'default', '4 instances', 4],
    ]);
    // The same agent's runs over two sets make one row over their union, named as such.
    const merged = buildLeaderboard([b, join(tmp, 'lb-p6')], { allowMixed: true });
    expect(merged.rows.find((r) => r.mode === 'default')!.instanceSet.n).to.equal(4);
  });

  it('exports the leaderboard and the analysis as CSV, Markdown, LaTeX and JSON with the same numbers (round trip)', async () => {
    const [a, b] = leaderboardRuns();
    const lb = buildLeaderboard([a, b]);
    // In this process for most formats (the command line is exercised for CSV, a file and a bad format).
    const json = JSON.parse(writeTables([leaderboardTable(lb)], 'json')) as Array<{ name: string; columns: string[]; rows: Array<Record<string, number | string | null>> }>;
    expect(json).to.have.length(1);
    const table = json[0];
    expect(table.rows.map((r) => r.agent)).to.deep.equal(lb.rows.map((r) => r.agent));
    expect(table.rows[0]['success low']).to.equal(lb.rows[0].success.wilson95!.lo);
    expect(table.rows[0]['mean score']).to.be.closeTo(lb.rows[0].meanScore!, 1e-12);
    // CSV parsed back is the JSON, cell for cell (numbers to the digits written, null as empty).
    const csv = parseCsv((await spaceact(['leaderboard', a, b, '--format', 'csv'])).stdout);
    expect(csv[0]).to.deep.equal(table.columns);
    expect(csv.slice(1)).to.have.length(table.rows.length);
    csv.slice(1).forEach((row, i) =>
      row.forEach((cell, j) => {
        const want = table.rows[i][table.columns[j]];
        if (want === null) expect(cell, table.columns[j]).to.equal('');
        else if (typeof want === 'number') expect(Number(cell), table.columns[j]).to.be.closeTo(want, Math.abs(want) * 1e-5 + 1e-12);
        else expect(cell, table.columns[j]).to.equal(want);
      }),
    );
    // The model's name with markup comes through as text in every format.
    expect(csv[1][table.columns.indexOf('model')]).to.equal('<b>m</b>');
    const md = writeTables([leaderboardTable(lb)], 'md');
    const mdRows = md.split('\n').filter((l) => l.startsWith('|'));
    expect(mdRows).to.have.length(2 + table.rows.length);
    expect(mdRows[0].split(' | ').length).to.equal(table.columns.length);
    const tex = writeTables([leaderboardTable(lb)], 'tex');
    expect(tex).to.match(/\\begin\{tabular\}\{[lr]+\}/);
    expect(tex.match(/\\\\$/gm)).to.have.length(1 + table.rows.length);
    expect(tex).to.include('openai:<b>m</b>');
    const texFile = join(tmp, 'lb.tex');
    await spaceact(['leaderboard', a, b, '--format', 'tex', '--out', texFile]);
    expect(readFileSync(texFile, 'utf8')).to.equal(tex);
    // LaTeX compiles when pdflatex is here; the structure above is checked either way.
    if (hasPdflatex()) {
      const doc = join(tmp, 'doc.tex');
      writeFileSync(doc, `\\documentclass{article}\\usepackage{booktabs}\\usepackage[utf8]{inputenc}\\begin{document}\n${tex}\n\\end{document}\n`);
      await exec('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', '-output-directory', tmp, doc]);
      expect(existsSync(join(tmp, 'doc.pdf'))).to.equal(true);
    }
    // The analysis: its failure table's counts are the analysis's.
    const an = analyzeRuns([a]);
    const tables = JSON.parse(writeTables(analysisTables(an), 'json')) as typeof json;
    expect(tables.map((t) => t.name)).to.deep.equal(['behaviour', 'failures']);
    const overall = tables[1].rows[0];
    for (const l of FAILURE_LABELS) expect(overall[l], l).to.equal(an.failures.overall.counts[l]);
    const acsv = writeTables(analysisTables(an), 'csv');
    expect(acsv.startsWith('# behaviour\r\n')).to.equal(true);
    const bad = await exec(process.execPath, ['bin/spaceact.mjs', 'analyze', a, '--format', 'xlsx']).then(() => null, (e: { stderr: string; code: number }) => e);
    expect(bad?.stderr).to.match(/--format must be one of csv, md, tex, json/);
  });

  it('lets compare add both runs\' behaviour and labels over the paired instances', async () => {
    const a = join(tmp, 'cmp-a');
    const b = join(tmp, 'cmp-b');
    writeAnalysisRun(a, [CLEAN_SOLVE, COLLISION_LOOP, OBSERVATION_LOOP, { ...STALL, instance: 'T1-L7-s1' }]);
    writeAnalysisRun(b, [CLEAN_SOLVE, { ...CLEAN_SOLVE, instance: 'M1-L5-s1' }, STALL], { mode: 'plan' });
    const json = JSON.parse((await spaceact(['compare', a, b, '--analysis', '--json'])).stdout);
    expect(json.behaviour.instances).to.deep.equal(['P6-L5-s1', 'M1-L5-s1']);
    expect(json.behaviour.a.failures.overall.counts['collision loop']).to.equal(1);
    expect(json.behaviour.b.failures.overall.unsolved).to.equal(0);
    expect(json.behaviour.a.behaviour.overall.collisionsPerEpisode).to.equal(3);
    const text = (await spaceact(['compare', a, b, '--analysis'])).stdout;
    expect(text).to.match(/collisions per episode\s+3\.00\s+0\.00\s+-3\.00/);
    expect(text).to.match(/unsolved: collision loop\s+1\s+0\s+-1/);
    // The comparison as tables: the overall row is the comparison's numbers, CSV round-trips.
    const c = compareRuns(a, b, { seed: 0, resamples: 1000 });
    const [scopes, pairs] = JSON.parse(writeTables(comparisonTables(c), 'json')) as Array<{ rows: Array<Record<string, number | string | null>> }>;
    expect(scopes.rows[0]).to.include({ scope: 'all', pairs: c.overall.pairs, 'success A': c.overall.success.a.rate, 'success B': c.overall.success.b.rate });
    expect(scopes.rows[0]['success B − A']).to.equal(c.overall.success.diff!.diff);
    expect(pairs.rows.map((r) => r.instance)).to.deep.equal(c.pairs.map((p) => p.instance));
    const csv = parseCsv(writeTables([comparisonTables(c)[1]], 'csv'));
    expect(csv.slice(1).map((r) => r[0])).to.deep.equal(c.pairs.map((p) => p.instance));
    const tex = writeTables(comparisonTables(c), 'tex');
    expect(tex.match(/\\begin\{tabular\}/g)).to.have.length(2);
  });
});
