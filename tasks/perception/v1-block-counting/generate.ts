/**
 * V1 generator: a pile drawn on a grid (`pile.ts`), the table, walls and rulers around it and the
 * first camera, re-drawn until every shortcut filter of `filters.ts` passes; the `answer` tool,
 * the rules text and the plan. Memoised: ray casting every draw is the costly part.
 */
import type { CameraSpec } from '../../../render/camera-spec.ts';
import { round9, roundTo } from '../../../core/determinism.ts';
import { Rng } from '../../../core/rng.ts';
import type { RulerSpec, Vec3 } from '../../../sim/types.ts';
import { generateFiltered, redrawRng } from '../../../solvers/redraw.ts';
import { makeInstance } from '../../instance.ts';
import type { FamilyDescriptor, Instance, InstanceFilter, Tier, ToolSpec } from '../../types.ts';
import { inPicture, labelPlates, rulerLabelPoints, unseenPoints } from '../../kits/sight-lines.ts';
import { SHORTCUT_FILTERS, unclearBlock } from './filters.ts';
import { CUBE, drawPile, PITCH, pileHeight, type PileBlock } from './pile.ts';
import { tierSettings } from '../../levers.ts';
import { ELEVATION_RANGE, RULER_EDGE, RULER_GAP, TABLE_MARGIN, TABLE_THICKNESS, TARGET_HEIGHT, V1_LEVERS, V1_TIERS, WALL_GAP, WALL_HEIGHT, WALL_THICKNESS, type V1Scene, type WallBox } from './scene.ts';
import { visiblySeen } from './sightings.ts';
import { coverViews, orbitCall } from './solver.ts';

const ANSWER_TOOL: ToolSpec = {
  name: 'answer',
  kind: 'final',
  description: 'Commit your count of the cubes in the pile (a whole number). This ends the episode; only this one answer is scored.',
  parameters: {
    type: 'object',
    properties: { count: { type: 'integer', minimum: 0, maximum: 200 } },
    required: ['count'],
    additionalProperties: false,
  },
};

/** The sides of the pile ordered by how squarely they face the first camera: `[axis, sign]` (axis 0 = x, 2 = z). */
function sidesFacing(azimuthDeg: number): Array<[0 | 2, 1 | -1]> {
  const a = (azimuthDeg * Math.PI) / 180;
  const dir = [Math.sin(a), Math.cos(a)];
  const sides: Array<[0 | 2, 1 | -1]> = [
    [0, 1],
    [0, -1],
    [2, 1],
    [2, -1],
  ];
  // Rounded, so the tie at 45° is exact on every machine and the stable sort keeps list order.
  const score = (s: [0 | 2, 1 | -1]): number => Math.round(s[1] * (s[0] === 0 ? dir[0] : dir[1]) * 1e9);
  return sides.sort((x, y) => score(y) - score(x));
}

/** Wraps degrees into (-180, 180]. */
function wrapDeg(a: number): number {
  const r = ((a % 360) + 360) % 360;
  return r > 180 ? r - 360 : r;
}

function rulesText(s: V1Scene): string {
  const lines = [
    `A pile of wooden blocks stands on a table. It is built as straight stacks on a square grid, so a block can be hidden behind or under other blocks. A cube has all edges ${(CUBE * 100).toFixed(0)} cm long.`,
  ];
  if (s.decoys) {
    lines.push(
      `Goal: count the cubes. The pile also holds other blocks that must NOT be counted: flat tiles (${CUBE * 100} × ${CUBE * 100} × ${CUBE * 50} cm) and bars (${CUBE * 100} × ${CUBE * 100} × ${CUBE * 200} cm) that stand upright or lie across two stacks. Blocks of every kind come in the same colours.`,
    );
  } else {
    lines.push('Goal: count the cubes. Every block in this pile is a cube.');
  }
  if (s.walls.length) lines.push(`A grey wall ${WALL_HEIGHT * 100} cm high stands along one side of the pile; it is not a block and hides the lower part of the pile from low viewpoints on that side.`);
  lines.push(
    'Every cube can be seen from some camera position the camera tools allow, but not all from the first view. The camera tools (orbit, zoom, pan, view) only move the camera; elevation goes from 0° (level with the table) to 90° (straight down). Rulers on the table are marked in centimetres.',
    'answer(count) commits your count and ends the episode; the episode is solved if the count is exactly the number of cubes. Nothing in the scene can be moved, so no action can cause a violation.',
  );
  return lines.join('\n');
}

/** Candidate first-camera azimuths tried per layout (every 30°, or every 5° within ±25° of a walled side). */
const AZIMUTH_STEPS = 12;
/** Layouts drawn per attempt while no candidate camera hides exactly the drawn number of cubes. */
const LAYOUTS_PER_DRAW = 6;

/**
 * One draw of the generator (attempt `attempt` of the re-draw sequence), before the filters.
 * The number of cubes and the number of cubes the first view must hide are each drawn
 * uniformly from the tier's range (each from its own stream, kept for COUNT_SPAN re-draws of
 * the layout, so the filters do not skew them); the first camera is then chosen among
 * candidate azimuths as one that hides exactly that many cubes (or, when no candidate does,
 * the nearest). A model that counts what the first view shows and adds a typical number is
 * right no more often than the hidden count's spread allows.
 * `generate` is the entry point; this is exported for tests and tuning.
 */
export function drawInstance(family: FamilyDescriptor, seed: number, tier: Tier, attempt: number, lever?: string): Instance<V1Scene> {
  return drawWithTarget(family, seed, tier, lever, attempt).instance;
}

/**
 * The cube count of `seed` where it is balanced over seeds: each block of as many consecutive
 * seeds as the range has counts uses every count once, in an order shuffled per block.
 */
export function balancedCount(tier: Tier, seed: number, range: [number, number]): number {
  const width = range[1] - range[0] + 1;
  const order = new Rng(`V1/${tier}/cube-count/${Math.floor(seed / width)}`).shuffle(Array.from({ length: width }, (_, i) => range[0] + i));
  return order[seed % width];
}

/**
 * {@link drawInstance}, with how far the first view's hidden count is from the drawn one. With
 * `prune`, a draw none of whose layouts can pass the `every-block-clear` filter comes back
 * `pruned` (an unsearched stand-in that the generator rejects) instead of searched. A lever
 * study draws from the L5 streams with the lever's settings.
 */
function drawWithTarget(family: FamilyDescriptor, seed: number, tier: Tier, lever: string | undefined, attempt: number, prune = false): { instance: Instance<V1Scene>; off: number; pruned: boolean } {
  const rng = redrawRng('V1', tier, seed, attempt);
  const settings = tierSettings('V1', V1_TIERS, tier, lever, V1_LEVERS);
  const plan = settings.plan;
  // The number of hidden cubes is drawn first, from its own stream kept for HIDDEN_SPAN
  // re-draws, so it stays uniform over the tier's range whatever piles hide easily; the cube
  // count comes from a stream re-drawn every COUNT_SPAN attempts, so a count whose piles cannot
  // hide that many (or that few) gives way to another.
  const hiddenRng = Rng.forInstance('V1', tier, seed, `hidden#${Math.floor(attempt / HIDDEN_SPAN)}`);
  let hiddenTarget = hiddenRng.int(settings.hidden[0], settings.hidden[1]);
  let cubes: number;
  if (!settings.balancedCount) {
    const countRng = Rng.forInstance('V1', tier, seed, `cubes#${Math.floor(attempt / COUNT_SPAN)}`);
    cubes = countRng.int(Math.max(plan.cubes[0], hiddenTarget + 2), plan.cubes[1]);
  } else {
    // The cube count is fixed per seed and balanced over seeds (every count once in each block
    // of seeds), whatever the filters re-draw: at L7 a count re-drawn when its piles failed the
    // filters clustered on the counts that pass easily, and a constant count was right 11 % of
    // the time.
    cubes = balancedCount(tier, seed, plan.cubes);
    hiddenTarget = Math.min(hiddenTarget, cubes - 2);
  }
  const elevation = rng.int(5, 10);
  // With the wall (L7) the first camera looks squarely at the walled side (within 25°).
  const side = 90 * rng.int(0, 3);
  // Every layout of this draw with its candidate azimuths, drawn up front: judging a layout
  // takes nothing from the stream, so these are the layouts the search below would draw.
  const layouts = Array.from({ length: LAYOUTS_PER_DRAW }, () => {
    const blocks = drawPile(rng, plan, cubes);
    const phase = rng.int(0, 29);
    const candidates = settings.walls
      ? rng.shuffle(Array.from({ length: 11 }, (_, k) => wrapDeg(side - 25 + 5 * k)))
      : rng.shuffle(Array.from({ length: AZIMUTH_STEPS }, (_, k) => wrapDeg(phase + (360 / AZIMUTH_STEPS) * k)));
    return { blocks, candidates };
  });
  if (prune) {
    // Whether every block is clearly seen from some reachable view depends on the layout (and
    // the wall, which faces the same side for every candidate), not on the first camera. When
    // no layout passes, whichever layout the search picks fails the filter: skip the search
    // (counting what each candidate camera sees is most of a draw's cost).
    const shell = (l: (typeof layouts)[number]): Instance<V1Scene> => assemble(family, seed, tier, lever, l.blocks, l.candidates[0], elevation, false);
    if (!layouts.some((l) => unclearBlock(shell(l)) === null)) return { instance: shell(layouts[0]), off: Infinity, pruned: true };
  }
  let best: { instance: Instance<V1Scene>; off: number; pruned: false } | null = null;
  for (let layout = 0; layout < LAYOUTS_PER_DRAW && best?.off !== 0; layout++) {
    for (const azimuth of layouts[layout].candidates) {
      const instance = assemble(family, seed, tier, lever, layouts[layout].blocks, azimuth, elevation);
      const off = Math.abs(instance.scene.cubeCount - instance.scene.firstViewCount - hiddenTarget);
      if (!best || off < best.off) best = { instance, off, pruned: false };
      if (off === 0) break;
    }
  }
  return best!;
}

/** The instance of a drawn pile seen first from (azimuth, elevation): table, walls, rulers, the first-view count. */
function assemble(family: FamilyDescriptor, seed: number, tier: Tier, lever: string | undefined, blocks: PileBlock[], azimuth: number, elevation: number, countFirstView = true): Instance<V1Scene> {
  const settings = tierSettings('V1', V1_TIERS, tier, lever, V1_LEVERS);
  const plan = settings.plan;
  const height = pileHeight(blocks);
  const halfX = ((plan.cols - 1) * PITCH) / 2 + CUBE / 2;
  const halfZ = ((plan.rows - 1) * PITCH) / 2 + CUBE / 2;
  // Walls (L7) are framed too, so the first view shows what hides the pile.
  const frameMargin = settings.walls ? WALL_GAP : 0;
  const radius = Math.hypot(halfX + frameMargin, halfZ + frameMargin, height / 2);
  // With the wall (L7) the camera stands WALLED_DOLLY times farther back with the narrower
  // WALLED_FOV lens (version 4): see those constants for why.
  const baseDistance = (radius / Math.sin((20 * Math.PI) / 180)) * 1.3 * (settings.walls ? WALLED_DOLLY : 1);
  const lens = settings.walls ? { fov: WALLED_FOV } : {};
  const cameraAt = (distance: number): CameraSpec => ({ azimuth, elevation, distance: roundTo(distance, 2), target: [0, roundTo(height * TARGET_HEIGHT, 3), 0], ...lens });
  const [near, second] = sidesFacing(azimuth);
  const walls: WallBox[] = [];
  if (settings.walls) {
    const [axis, sign] = near;
    // As long as the table: it ends flush with the table edge past the ruler on that side.
    const halfAlong = (axis === 0 ? halfZ : halfX) + RULER_GAP + RULER_EDGE;
    const half: Vec3 = axis === 0 ? [WALL_THICKNESS / 2, WALL_HEIGHT / 2, halfAlong] : [halfAlong, WALL_HEIGHT / 2, WALL_THICKNESS / 2];
    const p: Vec3 = [0, WALL_HEIGHT / 2, 0];
    p[axis] = sign * ((axis === 0 ? halfX : halfZ) + WALL_GAP + WALL_THICKNESS / 2);
    walls.push({ name: 'wall', half: half.map((x) => round9(x)) as Vec3, pose: { p: p.map((x) => round9(x)) as Vec3, q: [0, 0, 0, 1] } });
  }
  // Two rulers on the table make an L around one corner of the pile: along the two sides the
  // first camera faces, or, with a wall on the nearest side, along the opposite side instead.
  // Each starts level with a face of the pile at that corner and runs along the whole side.
  const rulerSides: Array<[0 | 2, 1 | -1]> = settings.walls ? [[near[0], near[1] === 1 ? -1 : 1], second] : [near, second];
  const sideHalf = (axis: 0 | 2): number => (axis === 0 ? halfX : halfZ);
  const cornerSign = (axis: 0 | 2): number => rulerSides.find(([a]) => a === axis)![1];
  const lo: Vec3 = [-halfX - TABLE_MARGIN, -TABLE_THICKNESS, -halfZ - TABLE_MARGIN];
  const hi: Vec3 = [halfX + TABLE_MARGIN, 0, halfZ + TABLE_MARGIN];
  const reach = (axis: number, x: number): void => {
    lo[axis] = Math.min(lo[axis], x);
    hi[axis] = Math.max(hi[axis], x);
  };
  const rulers: RulerSpec[] = rulerSides.map(([axis, sign]) => {
    const other = axis === 0 ? 2 : 0;
    const length = Math.ceil((2 * sideHalf(other)) / 0.05 - 1e-9) * 0.05;
    const from: Vec3 = [0, 0.0005, 0];
    from[axis] = round9(sign * (sideHalf(axis) + RULER_GAP));
    from[other] = round9(cornerSign(other) * sideHalf(other));
    const to: Vec3 = [...from];
    to[other] = round9(from[other] - cornerSign(other) * length);
    const tickDir: Vec3 = [0, 0, 0];
    tickDir[axis] = sign;
    // The table ends just past the ruler: a label on a wide table top seen from low elevation is
    // hidden by the table in front of it, so the labels hang over the table's edge instead.
    const edge = sign * (sideHalf(axis) + RULER_GAP + RULER_EDGE);
    if (sign > 0) hi[axis] = edge;
    else lo[axis] = edge;
    reach(other, to[other] - cornerSign(other) * RULER_EDGE);
    return { from, to, tickDir, minor: 0.01, major: 0.1 };
  });
  // The wall stands on the table, which reaches a margin beyond its outer face. (Along the
  // wall the table is already as long as the wall; reaching further would push the table past
  // the ruler on that side and bury its labels.)
  for (const w of walls) {
    const axis = w.half[0] < w.half[2] ? 0 : 2;
    reach(axis, w.pose.p[axis] + Math.sign(w.pose.p[axis]) * (w.half[axis] + TABLE_MARGIN));
  }
  const table = {
    half: [0, 1, 2].map((k) => round9((hi[k] - lo[k]) / 2)) as Vec3,
    pose: { p: [0, 1, 2].map((k) => round9((hi[k] + lo[k]) / 2)) as Vec3, q: [0, 0, 0, 1] as [number, number, number, number] },
  };
  // The rulers' labels hang past the pile, so a camera that frames the pile can cut a long
  // ruler's far label (V1-L3-s14's "20 cm" at the picture's left edge): step back until every
  // label's plate lies inside the picture (only such seeds' cameras move; version 3).
  // The walled tier's tighter lens could also cut the table or the wall (they reach past the
  // pile toward the camera): there the camera steps back until their corners fit too.
  const framed = (c: CameraSpec): boolean => labelsInPicture(c, rulers) && (walls.length === 0 || cornersInPicture(c, [boxCorners(lo, hi), ...walls.map((w) => boxCorners(sub(w.pose.p, w.half), add(w.pose.p, w.half)))].flat()));
  let camera = cameraAt(baseDistance);
  for (let step = 1; step <= LABEL_FRAMING_STEPS && !framed(camera); step++) camera = cameraAt(baseDistance * (1 + LABEL_FRAMING_STEP * step));
  const cubeCount = blocks.filter((b) => b.kind === 'cube').length;
  const scene: V1Scene = { blocks, walls, table, cubeCount, firstViewCount: 0, decoys: plan.decoys[1] > 0 };
  const parts = {
    title: `Block counting, ${plan.cols} × ${plan.rows} grid${settings.walls ? ', walled' : ''}`,
    rules: rulesText(scene),
    tools: [ANSWER_TOOL],
    camera: { initial: camera, elevationRange: ELEVATION_RANGE },
    rulers,
    ground: { y: -TABLE_THICKNESS },
    dynamic: false,
    scoring: 'graded' as const,
    scene,
    reveal: { plan: '' },
  };
  const instance = makeInstance(family, tier, seed, { ...(lever ? { lever } : {}), ...parts });
  // visiblySeen stops sampling a block as soon as it is sure: the count isVisible would give.
  if (countFirstView) scene.firstViewCount = blocks.filter((b) => b.kind === 'cube' && visiblySeen(instance, camera, b.name)).length;
  return instance;
}

/** How far a camera steps back per try, as a share of its distance, to bring every ruler label into the picture. */
const LABEL_FRAMING_STEP = 0.04;
/** Tries before keeping the last camera (the view rule then names the cut label). */
const LABEL_FRAMING_STEPS = 10;
/** Share of the picture's height kept clear at each edge around a label's plate. */
const LABEL_FRAME_MARGIN = 0.01;

/**
 * How much farther back the first camera of the walled tier (L7, and the `+occ` lever) stands
 * than the other tiers' framing puts it. The side ruler's far end lies behind the wall's end
 * when the camera looks squarely at the wall: from the old distance (about 0.78 m) the wall's
 * end hid its "0" label (V1-L7-s58, s60, s72, s93: the camera's azimuth exactly square with the
 * wall). A farther camera flattens the perspective, so the ruler's labels, which hang 2.8 cm
 * past the wall's end, stay beside it: the "0" clears the wall's end from about 1.04 m on, and
 * 1.7 times the old distance (1.33 m) leaves it about 6 mm clear of the wall's end.
 */
export const WALLED_DOLLY = 1.7;

/**
 * Vertical field of view of the walled tier's first camera, degrees (the other tiers use the
 * renderer's 40°). With {@link WALLED_DOLLY} it shows the scene about 1.2 times larger than the
 * old 40° lens did from the nearer camera: framed for the pile and the wall's gap around it, the
 * walled tier's picture was a third emptier than the others' (table and labels spanned about 500
 * of 768 pixels, against 650 at L5), and a low pile behind the wall showed too little of itself
 * (V1-L7-s23: 9,601 pixels of blocks above the wall).
 */
export const WALLED_FOV = 20;

const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];

/** The eight corners of the axis-aligned box from `lo` to `hi`. */
function boxCorners(lo: Vec3, hi: Vec3): Vec3[] {
  return [0, 1, 2, 3, 4, 5, 6, 7].map((i) => [i & 1 ? hi[0] : lo[0], i & 2 ? hi[1] : lo[1], i & 4 ? hi[2] : lo[2]]);
}

/** Whether every point falls inside a square picture, {@link LABEL_FRAME_MARGIN} of its height clear of each edge. */
function cornersInPicture(camera: CameraSpec, points: readonly Vec3[]): boolean {
  return points.every((p) => inPicture(camera, p, 1, 2 * LABEL_FRAME_MARGIN));
}

/** Whether every ruler label's plate (at its largest size) falls inside a square picture. */
function labelsInPicture(camera: CameraSpec, rulers: readonly RulerSpec[]): boolean {
  const edge = 0.5 - LABEL_FRAME_MARGIN;
  return labelPlates(camera, rulers).every((p) => Math.abs(p.centre[0]) + p.w / 2 <= edge && Math.abs(p.centre[1]) + p.h / 2 <= edge);
}

/**
 * Lever studies only (`V1-L5+occ-s100`): with the wall on, every label of the ruler the first
 * view must show (the second: the first lies behind the pile, episode.ts) stays in sight past
 * the wall and the blocks (sight lines, tasks/kits/sight-lines.ts). One study seed in twenty put
 * the "0" of that ruler behind the pile. L7 keeps its own filters and its instances.
 */
const STUDY_LABELS_IN_SIGHT: InstanceFilter<V1Scene> = {
  name: 'study-ruler-labels-in-sight',
  check(instance) {
    const s = instance.scene;
    if (!s.walls.length) return null;
    const boxes = [...s.blocks, ...s.walls].map((b) => ({ center: b.pose.p, half: b.half, q: b.pose.q }));
    const unseen = unseenPoints(instance.camera.initial, rulerLabelPoints(instance.rulers, [1]), boxes);
    return unseen.length ? `${unseen[0].what} is hidden from the first view` : null;
  },
};

const cache = new Map<string, Instance<V1Scene>>();
/** Layout re-draws per drawn number of hidden cubes. */
const HIDDEN_SPAN = 120;
/** Layout re-draws per drawn number of cubes. */
const COUNT_SPAN = 6;
/** Draws before the generator gives up (never reached on the seeds tested: see the test). */
const MAX_DRAWS = 600;

/**
 * Pure: re-draws (deterministically) until every V1 shortcut filter passes; memoised. With a
 * lever (`V1-L5+occ-s100`), the L5 tier's draws with the lever's settings.
 */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<V1Scene> {
  const key = `${tier}${lever ?? ''}/${seed}`;
  let hit = cache.get(key);
  if (!hit) {
    // The first filter holds each draw to its drawn hidden count, so the hidden count is spread
    // as drawn (not piled up on what piles hide easily).
    let off = 0;
    let pruned = false;
    // (Only where draws are cheap: a larger pile settles for the nearest candidate camera, whose
    // hidden counts already spread over the tier's wide range.)
    const exact = tierSettings('V1', V1_TIERS, tier, lever, V1_LEVERS).exactHidden;
    const asDrawn = { name: 'hidden-count-as-drawn', check: () => (!exact || off === 0 ? null : `the first view hides ${off} cube(s) more or fewer than drawn`) };
    const searched = { name: 'some-layout-clear', check: () => (pruned ? 'no layout of the draw has every block clearly seen from some view' : null) };
    hit = generateFiltered(
      (attempt) => {
        const d = drawWithTarget(family, seed, tier, lever, attempt, true);
        off = d.off;
        pruned = d.pruned;
        return d.instance;
      },
      [searched, asDrawn, ...SHORTCUT_FILTERS, ...(lever ? [STUDY_LABELS_IN_SIGHT] : [])],
      { maxAttempts: MAX_DRAWS },
    );
    // The plan names the views of the reference, which exist only once the filters passed.
    hit.reveal.plan = planText(hit);
    cache.set(key, hit);
  }
  return structuredClone(hit);
}

function describeMove(from: CameraSpec, to: CameraSpec): string {
  const call = orbitCall(from, to);
  const da = call.args.azimuth_deg as number;
  const parts: string[] = [];
  if (da) parts.push(`orbit ${Math.abs(da)}° ${da > 0 ? 'counter-clockwise' : 'clockwise'} (seen from above)`);
  if (to.elevation !== from.elevation) parts.push(`${to.elevation > from.elevation ? 'raise' : 'lower'} the camera to ${to.elevation}° elevation`);
  return parts.join(' and ') || 'stay';
}

function planText(instance: Instance<V1Scene>): string {
  const views = coverViews(instance);
  let current = instance.camera.initial;
  const steps = views.map((v) => {
    const s = describeMove(current, v);
    current = v;
    return s;
  });
  return [
    `Together these ${views.length} views show every cube: ${steps.map((s, i) => `(${i + 1}) ${s}`).join('; ')}.`,
    'Count stack by stack: from the side views, count each stack’s blocks from the table up; from the top view, match the stacks. ' +
      (instance.scene.decoys ? 'Leave out tiles (half as thick) and bars (twice as long, one piece with no seam). ' : '') +
      'Then answer with the total.',
  ].join(' ');
}

