/**
 * B3 tower: the fixed sizes, the tiers, the instance scene and the push model — the statics of a
 * tower of one brick per layer pushed sideways, in closed form, checked against the stud
 * statics linear programme (`tasks/kits/bricks/plan-forces.ts`) in `test/family-b3.test.ts`.
 *
 * **Frames.** The agent acts in the *world frame*: metres, Y up, origin at the centre of the
 * target on the mat's back-left corner, x to the right and z to the front in the first view.
 * The baseplate's stud grid is lined up with it: cell `[col, row]` spans x from
 * `siteX − P·pitch/2 + col·pitch` one pitch on, z likewise from `siteZ − P·pitch/2 + row·pitch`;
 * heights count in plates above the baseplate's top (layer 0). Heights in the scene
 * (`targetHeight`, `pushHeight`) are metres above the baseplate's top.
 */
import { roundTo } from '../../../core/determinism.ts';
import { BRICK_DEFAULTS } from '../../../sim/bricks.ts';
import type { Vec3 } from '../../../sim/types.ts';
import type { LeverTable } from '../../levers.ts';
import type { Tier } from '../../types.ts';
import { brickType, BRICK_PLATES, GRAVITY, PITCH, PLATE, type SupplyItem } from '../../kits/bricks/catalog.ts';
import { landParts, planConnections, type Placement, type PlannedPart } from '../../kits/bricks/plan.ts';
import { plannedCentre, plannedMass } from '../../kits/bricks/plan-forces.ts';

/** Height of one brick, m. */
export const BRICK_H = BRICK_PLATES * PLATE;
/** Thickness of the baseplate, plates (its top is this far above the mat). */
export const BASE_PLATES = 1;
/** The measuring mat, m: x from 0 to `MAT[0]`, z from 0 to `MAT[1]` (L3 and up; L1's is {@link MAT_L1}). */
export const MAT: readonly [number, number] = [0.3, 0.24];
/** L1's larger mat, m: its baseplate is larger, and the site must still range widely. */
export const MAT_L1: readonly [number, number] = [0.34, 0.28];
/** Least distance from anything the scene draws (baseplate, arrow, label, post) to the mat's left, right and front edges, m. */
export const SITE_MARGIN = 0.03;
/** …and to its back edge, m (wider: the back ruler's labels stand behind it and would cover what stands there). */
export const SITE_MARGIN_BACK = 0.05;
/** Gap between the baseplate's edge and the arrow's tip, m. */
export const ARROW_GAP = 0.014;
/** Length of the push arrow, m. */
export const ARROW_LENGTH = 0.04;
/** Gap between the baseplate's edge and the marker post's axis, m. */
export const POST_GAP = 0.016;
/** How long the push lasts, s. */
export const PUSH_SECONDS = 2;
/** Largest motion of any brick during the push that still counts as surviving it, m. */
export const HOLD_TOLERANCE = 0.002;
/** The reference carries at least this many times the push (closed form; the LP agrees). */
export const REFERENCE_MARGIN = 1.3;
/** Every weaker comparison tower carries less than the push divided by this. */
export const FAIL_MARGIN = 1.1;
/** A marked height and a push height keep this far from a brick's top or bottom face, m. */
export const FACE_MARGIN = 0.0025;
/** A placement snaps to the stud grid when its studs line up with the grid to within this, m. */
export const SNAP_TOLERANCE = 0.003;
/** …and its length is within this angle of a grid direction, degrees. */
export const YAW_TOLERANCE_DEG = 10;
/** Actions an episode may spend beyond the reference's (place, remove and commit each count; refused ones too). */
export const ACTION_MARGIN = 3;
/** Turn budget of every instance. */
export const TURNS = 30;

/** The four directions a push can act in (the direction the arrow points). */
export const PUSH_DIRECTIONS = ['+x', '-x', '+z', '-z'] as const;
/** A push direction. */
export type PushDir = (typeof PUSH_DIRECTIONS)[number];

/** What a tier changes. */
export interface TierSettings {
  /** Studs per side of the square baseplate (the footprint). */
  plate: number;
  /** Bricks in the reference tower (one per layer): the marked height needs exactly this many. */
  layers: [number, number];
  /** The push acts in this brick layer, counted from the top (1: the top brick). */
  pushFromTop: [number, number];
  /** Directions the push may act in. */
  directions: PushDir[];
  /** The push over the reference's capacity, drawn in this range. */
  ratio: [number, number];
  /** The reference's bricks in reverse order (weakest at the bottom) must fail. */
  reversedFails: boolean;
  /** The reference turned across the push must fail. */
  turnedFails: boolean;
  /** Short distractor plates in the supply. */
  decoys: number;
  /** A screen stands between the first view and the site (+occ). */
  screen: boolean;
  /** The measuring mat, m. */
  mat: readonly [number, number];
}

/** Tier levers. */
export const TIER_SETTINGS: Record<Tier, TierSettings> = {
  L1: { plate: 8, layers: [4, 6], pushFromTop: [1, 2], directions: [...PUSH_DIRECTIONS], ratio: [0.5, 0.72], reversedFails: false, turnedFails: true, decoys: 1, screen: false, mat: MAT_L1 },
  L3: { plate: 6, layers: [6, 8], pushFromTop: [1, 3], directions: [...PUSH_DIRECTIONS], ratio: [0.55, 0.75], reversedFails: true, turnedFails: true, decoys: 2, screen: false, mat: MAT },
  L5: { plate: 6, layers: [8, 10], pushFromTop: [2, 4], directions: [...PUSH_DIRECTIONS], ratio: [0.6, 0.75], reversedFails: true, turnedFails: true, decoys: 2, screen: false, mat: MAT },
  L7: { plate: 6, layers: [8, 10], pushFromTop: [2, 4], directions: [...PUSH_DIRECTIONS], ratio: [0.6, 0.75], reversedFails: true, turnedFails: true, decoys: 2, screen: true, mat: MAT },
};

/**
 * The levers B3 supports as single-factor studies over L5 (`B3-L5+occ-s100`; tasks/levers.ts).
 * `+occ` is its L7's lever (the screen moves the site's layout, so a study is a world of L5's stream with the screen, not the seed's L5 world with one added).
 */
export const B3_LEVERS: LeverTable<TierSettings> = {
  '+occ': { description: 'L5 with a screen between the first view and the baseplate: the site must be looked at from another side.', apply: (s) => ({ ...s, screen: true }) },
};

/** The action budget of a tier for a reference of `layers` bricks: its places and commit plus {@link ACTION_MARGIN}. */
export function actionBudget(layers: number): number {
  return layers + 1 + ACTION_MARGIN;
}

/** Parameters a B3 world is built from (plain JSON). */
export interface B3Scene {
  /** Studs per side of the square baseplate. */
  plate: number;
  /** World x of the baseplate's centre, m. */
  siteX: number;
  /** World z of the baseplate's centre, m. */
  siteZ: number;
  /** Height of the mark the tower's top must reach, m above the baseplate's top. */
  targetHeight: number;
  /** Bricks (one per layer) it takes to reach the mark. */
  layers: number;
  /** Height of the push's line, m above the baseplate's top. */
  pushHeight: number;
  /** The push's force, N (shown on the label by the arrow). */
  pushForce: number;
  /** The direction the push acts in (the arrow points along it); its line passes over the baseplate's centre. */
  pushDir: PushDir;
  /** How long the push lasts, s. */
  pushSeconds: number;
  /** World x and z of the marker post's axis, m. */
  post: [number, number];
  /** Size of the measuring mat along x and z, m. */
  mat: [number, number];
  /** Brick types offered and how many of each (a removed brick goes back). */
  supply: SupplyItem[];
  /** The distractor types in the supply (for reports; never told). */
  decoys: string[];
  /** A screen stands in front of the site in the first view (L7, +occ). */
  screen: boolean;
}

/** Unit push direction in the grid (= world) x–z plane. */
export function pushVector(d: PushDir): [number, number] {
  return d === '+x' ? [1, 0] : d === '-x' ? [-1, 0] : d === '+z' ? [0, 1] : [0, -1];
}

/** The grid rotation that lays a brick's length along the push. */
export function alongRot(d: PushDir): 0 | 90 {
  return d === '+x' || d === '-x' ? 0 : 90;
}

/** The baseplate as a plan support: cells `[0, P) × [0, P)`, top at layer 0. */
export function baseplatePart(plate: number): PlannedPart {
  return { name: 'baseplate', cell: [0, 0], span: [plate, plate], layer: -BASE_PLATES, height: BASE_PLATES, fixed: true };
}

/** A brick centred on the baseplate (rounded down by half a cell where it cannot be centred). */
export function centred(plate: number, type: string, rot: 0 | 90): Placement {
  const t = brickType(type);
  const span = rot === 0 ? [t.length, t.width] : [t.width, t.length];
  return { type, col: Math.floor((plate - span[0]) / 2), row: Math.floor((plate - span[1]) / 2), rot };
}

/** A tower of one brick per layer, each centred on the baseplate, bottom first. */
export function towerPlan(plate: number, layers: ReadonlyArray<{ type: string; rot: 0 | 90 }>): Placement[] {
  return layers.map((l) => centred(plate, l.type, l.rot));
}

/** The scene fields the push model depends on. */
export type PushScene = Pick<B3Scene, 'plate' | 'pushHeight' | 'pushDir'>;

/**
 * The point where the push meets a part (on the face it enters), in the plan frame (m): on the
 * push's line, which runs at `pushHeight` over the baseplate's centre.
 */
export function pushPoint(s: PushScene, part: PlannedPart): Vec3 {
  const [dx, dz] = pushVector(s.pushDir);
  const mid = (s.plate / 2) * PITCH;
  const y = s.pushHeight;
  if (dx !== 0) return [(dx > 0 ? part.cell[0] : part.cell[0] + part.span[0]) * PITCH, y, mid];
  return [mid, y, (dz > 0 ? part.cell[1] : part.cell[1] + part.span[1]) * PITCH];
}

/**
 * The brick the push meets: the first, seen from the arrow's side, whose box spans the push's
 * height and whose footprint reaches the push's line (a face on the line counts), or null.
 */
export function pushedPart(s: PushScene, parts: readonly PlannedPart[]): PlannedPart | null {
  const [dx, dz] = pushVector(s.pushDir);
  const mid = s.plate / 2;
  let best: PlannedPart | null = null;
  let bestKey = Infinity;
  for (const p of parts) {
    if (p.fixed) continue;
    if (!(p.layer * PLATE <= s.pushHeight && (p.layer + p.height) * PLATE > s.pushHeight)) continue;
    const across = dx !== 0 ? [p.cell[1], p.cell[1] + p.span[1]] : [p.cell[0], p.cell[0] + p.span[0]];
    if (mid < across[0] || mid > across[1]) continue;
    // The face the arrow reaches first: least along the push.
    const key = dx > 0 ? p.cell[0] : dx < 0 ? -(p.cell[0] + p.span[0]) : dz > 0 ? p.cell[1] : -(p.cell[1] + p.span[1]);
    if (key < bestKey) {
      bestKey = key;
      best = p;
    }
  }
  return best;
}

/**
 * The largest push (N) a tower of one brick per layer carries, in closed form. The tower is a
 * chain (each brick rests on one part), so every stud connection carries everything above it
 * as one rigid body: tipping about the far rim of its studs (the stud centre farthest along the
 * push plus the stud radius), resisted by every stud's grip at its lever arm and by the weight
 * above at its centre of mass. The push at height `h` makes a moment `F·(h − y)` about a
 * connection at height `y`; the capacity is the least ratio over the connections below `h`.
 * Shear (friction plus interlock, ≥ 5 N per stud) and torsion (the push's line passes over the
 * centre) never bind for the pushes drawn. Returns 0 when nothing meets the push, and null when
 * the plan is not a chain of one brick per layer (use the linear programme then).
 */
export function chainPushCapacity(s: PushScene, plan: readonly Placement[]): number | null {
  const landed = landParts([baseplatePart(s.plate)], plan);
  if ('unsupported' in landed) return 0;
  const parts = landed.parts;
  const conns = planConnections(parts);
  const bricks = parts.filter((p) => !p.fixed);
  for (const b of bricks) if (conns.filter((c) => c.upper === b).length !== 1) return null;
  for (const p of parts) if (conns.filter((c) => c.lower === p).length > 1) return null;
  const pushed = pushedPart(s, parts);
  if (!pushed) return 0;
  const [dx, dz] = pushVector(s.pushDir);
  const along = (x: number, z: number): number => x * dx + z * dz;
  const grip = BRICK_DEFAULTS.gripPerStud;
  const r = BRICK_DEFAULTS.studRadius;
  let capacity = Infinity;
  for (const c of conns) {
    const y = c.upper.layer * PLATE;
    const arm = s.pushHeight - y;
    if (arm <= 0 || pushed.layer < c.upper.layer) continue;
    const above = bricks.filter((b) => b.layer >= c.upper.layer);
    let w = 0;
    let ws = 0;
    for (const b of above) {
      const m = plannedMass(b) * GRAVITY;
      const [cx, , cz] = plannedCentre(b);
      w += m;
      ws += m * along(cx, cz);
    }
    const studs = c.studs.map(([i, j]) => along((i + 0.5) * PITCH, (j + 0.5) * PITCH));
    const pivot = Math.max(...studs) + r;
    let resisting = 0;
    for (const st of studs) resisting += grip * (pivot - st);
    resisting += w * pivot - ws;
    capacity = Math.min(capacity, resisting / arm);
  }
  return capacity;
}

/** Studs along the push a brick of `type` laid along it has at its base (length), for ordering. */
function strengthKey(type: string): [number, number] {
  const t = brickType(type);
  return [t.length, t.width];
}

/** Sorts brick types strongest first (most studs along the push, then widest). */
export function strongestFirst(types: readonly string[]): string[] {
  return types.slice().sort((a, b) => {
    const [la, wa] = strengthKey(a);
    const [lb, wb] = strengthKey(b);
    return lb - la || wb - wa || (a < b ? -1 : a > b ? 1 : 0);
  });
}

/** Top of the `layers`-th brick above the baseplate, m. */
export function topOfLayer(layers: number): number {
  return roundTo(layers * BRICK_H, 9);
}

/** Length of the post's ruler for a mark at `targetHeight`, m: past the mark to the next whole 2 cm. */
export function postRulerLength(targetHeight: number): number {
  return roundTo(Math.ceil((targetHeight + 0.012) / 0.02) * 0.02, 3);
}

/** The baseplate's half side, m. */
export function plateHalf(plate: number): number {
  return (plate * PITCH) / 2;
}

/** World point of a plan-frame point (plan x, y above the baseplate top, plan z). */
export function planToWorld(s: Pick<B3Scene, 'plate' | 'siteX' | 'siteZ'>, p: Vec3): Vec3 {
  const h = plateHalf(s.plate);
  return [s.siteX - h + p[0], BASE_PLATES * PLATE + p[1], s.siteZ - h + p[2]];
}

/** Plan-frame x and z (m) of a world x and z. */
export function worldToPlan(s: Pick<B3Scene, 'plate' | 'siteX' | 'siteZ'>, x: number, z: number): [number, number] {
  const h = plateHalf(s.plate);
  return [x - (s.siteX - h), z - (s.siteZ - h)];
}
