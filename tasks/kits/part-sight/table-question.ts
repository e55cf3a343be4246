/**
 * What the lettered-part questions (V2, V3) share at run time: the answer tool, the episode
 * (static table scene, one committed letter, right or wrong), the reference's camera moves (a
 * cover of every cube by the views the camera tools reach), and where the answer letter goes.
 */
import type { CameraSpec } from '../../../render/camera-spec.ts';
import { SpaceActError } from '../../../core/errors.ts';
import type { World } from '../../../sim/world.ts';
import { balancedOption } from '../../../core/balance.ts';
import { makeInstance } from '../../instance.ts';
import type { FamilyDescriptor, FamilyEnv, Instance, InstanceFilter, Tier, ToolCall, ToolSpec } from '../../types.ts';
import { standsOnTable } from '../polycube-pieces/statics.ts';
import type { PartsSight } from './parts.ts';
import {
  buildTableScene,
  checkedViews,
  coverViews,
  orbitCall,
  sceneInFrame,
  sceneSight,
  tableUnder,
  unseenCells,
  wallClear,
  type TableLayout,
  type TableScene,
} from './table-scene.ts';
import { firstViewProblem } from './walls.ts';

/** The answer tool of a lettered question: one option letter, no default (a commit naming none is refused). */
export function letterAnswerTool(letters: readonly string[], what: string): ToolSpec {
  return {
    name: 'answer',
    kind: 'final',
    description: `Commit the letter of ${what} (${letters.join(', ')}). Ends the episode; only this answer is scored.`,
    parameters: {
      type: 'object',
      properties: { option: { enum: [...letters] } },
      required: ['option'],
      additionalProperties: false,
    },
  };
}

/** Where the answer goes among `count` options: the shared balanced position (core/balance.ts). */
export function answerPosition(family: string, seed: number, tier: Tier, count: number): number {
  return balancedOption(family, seed, tier, count);
}

/** Builds the table scene and the `answer` tool; `solved` when the committed letter is `answer`. */
export function buildLetterQuestion(instance: Instance<TableScene & { answer: string }>, world: World, state: () => string): FamilyEnv {
  const s = instance.scene;
  buildTableScene(world, s);
  world.meta.answer = null;
  const letters = s.parts.map((p) => p.letter).filter((l) => l !== 'R');
  return {
    tools: {
      answer(args) {
        const v = String(args.option);
        if (!letters.includes(v)) throw new SpaceActError('invalid-argument', `option must be one of ${letters.join(', ')}`, { field: 'option' });
        world.meta.answer = v;
        return `answered ${v}`;
      },
    },
    solved: () => world.meta.answer === s.answer,
    // The first view (view rule, AUTHORING step 4a): the table (wider than the view), every
    // lettered part with its letter plate and the stands (the walls as scenery). Behind the +occ walls a
    // part shows only part of itself on purpose (the generator keeps 15 % or more in sight).
    viewParts: () => [
      {
        bodies: [
          { name: 'table', minPixels: 20000, mayBeCut: true },
          ...s.parts.map((p) => ({ name: `part-${p.letter}`, minPixels: s.walls.length ? 250 : 1500 })),
          ...s.plates.flatMap((pl) => [
            { name: `plate-${pl.letter}`, minPixels: 800 },
            { name: `ink-${pl.letter}`, minPixels: 200 },
          ]),
          ...s.stands.map((_, i) => ({ name: `stand-${i + 1}`, minPixels: 2000 })),
        ],
        // The walls are there to hide, not to be read: a wall behind the part it stands by can
        // itself show little (V2-L5-s19's third wall: 151 pixels behind part C), which hides
        // nothing the task needs. Declared, exempt from the size check.
        scenery: s.walls.map((_, i) => `wall-${i + 1}`),
        letters: s.plates.map((pl) => ({ body: `ink-${pl.letter}`, text: pl.letter, role: 'piece' as const, piece: `part-${pl.letter}` })),
      },
    ],
    // Right or wrong: partial credit for a wrong letter would pay guessing.
    progress: () => 0,
    stateText: state,
  };
}

/** The reference's calls: camera moves through views that together show every cube clearly, then the answer. */
export function coverThenAnswer(instance: Instance<TableScene & { answer: string }>): { calls: ToolCall[]; views: CameraSpec[] } {
  const s = instance.scene;
  const first = instance.camera.initial;
  const views = coverViews(sceneSight(s), first, checkedViews(first, instance.camera.elevationRange ?? [0, 90]));
  const calls: ToolCall[] = [];
  let at = first;
  for (const v of views) {
    calls.push(orbitCall(at, v));
    at = v;
  }
  calls.push({ tool: 'answer', args: { option: s.answer } });
  return { calls, views };
}

/** A camera move in words, for plans. */
export function describeMove(from: CameraSpec, to: CameraSpec): string {
  const call = orbitCall(from, to);
  const da = call.args.azimuth_deg as number;
  const parts: string[] = [];
  if (da) parts.push(`orbit ${Math.abs(da)}° ${da > 0 ? 'counter-clockwise' : 'clockwise'} (seen from above)`);
  if (to.elevation !== from.elevation) parts.push(`${to.elevation > from.elevation ? 'raise' : 'lower'} the camera to ${to.elevation}°`);
  return parts.join(' and ') || 'stay';
}

/**
 * The last steps of every table draw: the table under everything, and the checks every lettered
 * question needs — everything inside the first picture, every part and letter shown at first,
 * every cube clearly seen from some view the camera tools reach. The scene and its sight, or why
 * the draw fails.
 */
export function finishTable(layout: TableLayout, camera: CameraSpec, elevationRange: [number, number]): { scene: TableScene; sight: PartsSight } | string {
  const scene: TableScene = { ...layout, table: tableUnder(layout) };
  if (!sceneInFrame(scene, camera)) return 'the walls reach out of the first picture';
  const sight = sceneSight(scene);
  const problem = firstViewProblem(sight, scene, camera);
  if (problem) return problem;
  const unseen = unseenCells(sight, checkedViews(camera, elevationRange));
  const bad = unseen.findIndex((u) => u.length > 0);
  if (bad >= 0) return `cubes ${unseen[bad].join(' ')} of part ${scene.parts[bad].letter} are clear from no checked view`;
  return { scene, sight };
}

/** The filters every lettered table passes (see the V2 and V3 READMEs): `physical`, `every-cube-seen`, `first-view`. */
export function tableFilters<S extends TableScene>(): InstanceFilter<S>[] {
  return [
    {
      name: 'physical',
      check(instance) {
        const s = instance.scene;
        const tipping = s.parts.find((p) => !standsOnTable(p.cells));
        if (tipping) return `part ${tipping.letter} would tip over`;
        const bad = s.walls.findIndex((w, i) => !wallClear({ ...s, walls: s.walls.filter((_, j) => j !== i) }, w));
        return bad >= 0 ? `wall ${bad + 1} overlaps something or stands off its top` : null;
      },
    },
    {
      name: 'every-cube-seen',
      check(instance) {
        const unseen = unseenCells(sceneSight(instance.scene), checkedViews(instance.camera.initial, instance.camera.elevationRange ?? [0, 90]));
        const bad = unseen.findIndex((u) => u.length > 0);
        return bad < 0 ? null : `cubes ${unseen[bad].join(' ')} of part ${instance.scene.parts[bad].letter} are clear from no checked view`;
      },
    },
    {
      name: 'first-view',
      check: (instance) => firstViewProblem(sceneSight(instance.scene), instance.scene, instance.camera.initial),
    },
  ];
}

/** What a lettered question's generator supplies to {@link generateLettered}. */
export interface LetteredSpec<S extends TableScene & { answer: string }> {
  /** One draw: the scene and first camera, or why it failed. */
  draw(attempt: number): { scene: S; camera: CameraSpec } | string;
  title: string;
  rules: string;
  tool: ToolSpec;
  elevationRange: [number, number];
  filters: ReadonlyArray<InstanceFilter<S>>;
  /** What to say after the camera moves in the plan (how to work the answer out). */
  advice: string;
  maxDraws?: number;
}

const lettered = new Map<string, Instance>();

/**
 * Pure and memoised: draws (deterministically, re-drawing) until the drawer and every filter
 * accept, with the shared instance fields, and a plan naming the reference's camera moves.
 * `lever` makes it a single-factor lever study (`V2-L5+occ-s100`, tasks/levers.ts): the id names
 * the lever and `levers` lists only it. The spec, which reads its settings with `tierSettings`,
 * supplies what the lever changes; its draws come from the L5 stream, so the study of a seed is
 * that seed's L5 table re-drawn only where the lever's checks refuse a draw.
 */
export function generateLettered<S extends TableScene & { answer: string }>(family: FamilyDescriptor, seed: number, tier: Tier, lever: string | undefined, spec: () => LetteredSpec<S>): Instance<S> {
  const key = `${family.id}/${tier}${lever ?? ''}/${seed}`;
  let hit = lettered.get(key) as Instance<S> | undefined;
  if (!hit) {
    const sp = spec();
    const max = sp.maxDraws ?? 300;
    const rejections: string[] = [];
    for (let attempt = 0; attempt < max && !hit; attempt++) {
      const d = sp.draw(attempt);
      if (typeof d === 'string') {
        rejections.push(`attempt ${attempt}: ${d}`);
        continue;
      }
      const instance = makeInstance(family, tier, seed, {
        ...(lever ? { lever } : {}),
        title: sp.title,
        rules: sp.rules,
        tools: [sp.tool],
        camera: { initial: d.camera, elevationRange: sp.elevationRange },
        rulers: [],
        ground: { y: -0.02 },
        dynamic: false,
        scoring: 'graded' as const,
        scene: d.scene,
        reveal: { plan: '' },
      });
      const failed = sp.filters.map((f) => [f.name, f.check(instance)] as const).find(([, m]) => m !== null);
      if (failed) rejections.push(`attempt ${attempt}: ${failed[0]}: ${failed[1]}`);
      else hit = instance;
    }
    if (!hit) throw new SpaceActError('invalid-state', `${family.id} ${tier}${lever ?? ''} seed ${seed}: no draw passed in ${max} attempts (last: ${rejections[rejections.length - 1]})`);
    hit.reveal.plan = planText(hit, sp.advice);
    lettered.set(key, hit);
  }
  return structuredClone(hit);
}

function planText(instance: Instance<TableScene & { answer: string }>, advice: string): string {
  const { views } = coverThenAnswer(instance);
  let at = instance.camera.initial;
  const steps = views.map((v) => {
    const s = describeMove(at, v);
    at = v;
    return s;
  });
  return [`Together with the first view, these ${views.length} views show every cube of every part: ${steps.map((s, i) => `(${i + 1}) ${s}`).join('; ') || 'none needed'}.`, advice].join(' ');
}
