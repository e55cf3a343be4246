/**
 * B1 reference construction: a search over a grammar of bridges, each checked by the stud
 * statics (the linear programme of `statics-model.ts`).
 *
 * **The grammar.** A bridge is symmetric about the middle of the gap and built of bricks laid
 * along the span, all of one width (one or two studs), in the load row (one-wide) or the load
 * row and the row after it (two-wide):
 * - `levels` of **cantilevers** on each side: level 1 rests on the pier, anchored on `L − reach`
 *   studs and reaching `reach` cells out over the gap; each further level rests on the one below,
 *   overlapping it by at least one stud and reaching further out (corbelling);
 * - a **tie** on top that covers the hole between the top cantilevers' tips (at least one cell,
 *   the load cell in its middle) and rests on both tips, so the two halves share the load.
 * The tie is the crucial connection: the same bricks with the tie slid so it rests on one side
 * only, or without it ({@link weakenedPlans}), must fail.
 *
 * **The search.** {@link designs} lists every bridge of a given number of levels the supply
 * allows (counts respected), strongest-looking first (wider bricks, bricks before plates, then
 * anchors of up to three studs, tie overlaps of up to three studs on each side, overlaps of up to
 * three studs between levels, then longer anchors; measured with the statics model, this puts the
 * strongest designs of a rich supply first). The reference
 * is the first design, with the fewest levels, whose statics carry {@link REFERENCE_MARGIN}× the
 * load. The generator makes sure no design with fewer levels carries even the load itself, so
 * the reference's brick count is the least the grammar allows.
 *
 * The reference is played as metric `place` calls: each brick's footprint centre in world
 * metres (0.1 mm) and its length's direction in degrees (0.1°), then `commit`.
 */
import { roundTo } from '../../../core/determinism.ts';
import { SpaceActError } from '../../../core/errors.ts';
import type { Instance, ReferenceSolution, ToolCall } from '../../types.ts';
import { mm } from '../../kits/bricks/stud-site.ts';
import { brickType, CATALOG } from '../../kits/bricks/catalog.ts';
import { footprint, type Placement } from '../../kits/bricks/plan.ts';
import { gridToWorld, LOAD_ROW, REFERENCE_MARGIN, spanCells, toolYaw, type B1Scene, type SiteScene } from './scene.ts';
import { planStatics, type StaticsScene } from './statics-model.ts';

/** One level of cantilevers: the brick type and how far its tip reaches over the gap, cells. */
export interface BridgeLevel {
  type: string;
  reach: number;
}

/** One bridge of the grammar. */
export interface BridgeDesign {
  /** Cantilever levels from the pier up (the same on both sides, mirrored). */
  levels: BridgeLevel[];
  /** Brick type of the tie. */
  tie: string;
  /** Studs of the tie on the west and on the east top cantilever. */
  overlapWest: number;
  overlapEast: number;
  /** Lowest row of the footprints. */
  row: number;
}

/** What the search needs from a scene. */
export type DesignScene = StaticsScene & Pick<B1Scene, 'supply'>;

/** Reach of the top cantilevers, cells. */
function topReach(d: Pick<BridgeDesign, 'levels'>): number {
  return d.levels[d.levels.length - 1].reach;
}

/** Cells of the hole between the top cantilevers' tips. */
export function holeOf(scene: Pick<B1Scene, 'gap'>, d: Pick<BridgeDesign, 'levels'>): number {
  return scene.gap - 2 * topReach(d);
}

/** Width of a design's bricks, studs. */
export function widthOf(d: Pick<BridgeDesign, 'tie'>): 1 | 2 {
  return brickType(d.tie).width;
}

/** Bricks of a design. */
export function brickCount(d: Pick<BridgeDesign, 'levels'>): number {
  return 2 * d.levels.length + 1;
}

/** Anchor of level 1 on its pier, studs. */
export function anchorOf(d: Pick<BridgeDesign, 'levels'>): number {
  const l = d.levels[0];
  return brickType(l.type).length - l.reach;
}

/** Studs by which level `i` (≥ 1) overlaps level `i − 1`. */
export function levelOverlap(d: Pick<BridgeDesign, 'levels'>, i: number): number {
  const below = d.levels[i - 1];
  const up = d.levels[i];
  const belowStart = -(brickType(below.type).length - below.reach);
  const upStart = up.reach - brickType(up.type).length;
  return below.reach - Math.max(belowStart, upStart);
}

/**
 * The placements of a design, in building order: both cantilevers of level 1, then of level 2
 * (west first), then the tie.
 */
export function designPlan(scene: Pick<B1Scene, 'pierCols' | 'gap'>, d: BridgeDesign): Placement[] {
  const W = scene.pierCols;
  const out: Placement[] = [];
  for (const l of d.levels) {
    const L = brickType(l.type).length;
    out.push({ type: l.type, col: W + l.reach - L, row: d.row, rot: 0 });
    out.push({ type: l.type, col: W + scene.gap - l.reach, row: d.row, rot: 0 });
  }
  out.push({ type: d.tie, col: W + topReach(d) - d.overlapWest, row: d.row, rot: 0 });
  return out;
}

/**
 * The same bricks without the crucial connection: the tie slid east until it no longer reaches
 * the west top cantilever (it still covers the load cell), the tie slid west likewise, and no
 * tie at all. All must fail the load test.
 */
export function weakenedPlans(scene: Pick<B1Scene, 'pierCols' | 'gap'>, d: BridgeDesign): Placement[][] {
  const plan = designPlan(scene, d);
  const tie = plan[plan.length - 1];
  const cantilevers = plan.slice(0, -1);
  const T = brickType(d.tie).length;
  const holeStart = scene.pierCols + topReach(d);
  const holeEnd = scene.pierCols + scene.gap - topReach(d) - 1;
  return [[...cantilevers, { ...tie, col: holeEnd - T + 1 }], [...cantilevers, { ...tie, col: holeStart }], cantilevers];
}

/** Order key of a design: smaller sorts first (strongest-looking first). */
function orderKey(d: BridgeDesign): number[] {
  const overlaps = d.levels.slice(1).map((_, i) => Math.min(levelOverlap(d, i + 1), 3));
  const plates = d.levels.filter((l) => brickType(l.type).plate).length + Number(brickType(d.tie).plate);
  return [
    -widthOf(d),
    plates,
    -Math.min(anchorOf(d), 3),
    -Math.min(d.overlapWest, d.overlapEast, 3),
    ...overlaps.map((o) => -o),
    -Math.min(anchorOf(d), 5),
    -d.overlapEast,
  ];
}

/**
 * Every bridge of `levels` levels that the supply allows, strongest-looking first (see the
 * module comment). Types shorter than two studs are left out (they cannot overlap anything and
 * reach out).
 */
export function designs(scene: DesignScene, levels: number): BridgeDesign[] {
  const W = scene.pierCols;
  const G = scene.gap;
  const count = new Map(scene.supply.map((s) => [s.type, s.count]));
  const types = scene.supply.map((s) => s.type).filter((t) => brickType(t).length >= 2);
  const out: BridgeDesign[] = [];
  const fits = (used: Map<string, number>): boolean => [...used].every(([t, n]) => (count.get(t) ?? 0) >= n);
  const grow = (stack: BridgeLevel[], used: Map<string, number>): void => {
    if (stack.length === levels) {
      const top = stack[stack.length - 1];
      const topLength = brickType(top.type).length;
      const hole = G - 2 * top.reach;
      if (hole < 1) return;
      for (const tie of types) {
        const tt = brickType(tie);
        if (tt.width !== brickType(top.type).width) continue;
        const both = tt.length - hole;
        if (both < 2) continue;
        const overlapWest = Math.ceil(both / 2);
        const overlapEast = both - overlapWest;
        if (overlapWest > topLength) continue;
        const u = new Map(used);
        u.set(tie, (u.get(tie) ?? 0) + 1);
        if (!fits(u)) continue;
        const row = LOAD_ROW;
        out.push({ levels: stack.map((l) => ({ ...l })), tie, overlapWest, overlapEast, row });
      }
      return;
    }
    for (const type of types) {
      const t = brickType(type);
      if (stack.length && t.width !== brickType(stack[0].type).width) continue;
      const u = new Map(used);
      u.set(type, (u.get(type) ?? 0) + 2);
      if (!fits(u)) continue;
      if (stack.length === 0) {
        for (let anchor = Math.min(W, t.length - 1); anchor >= 1; anchor--) grow([{ type, reach: t.length - anchor }], u);
      } else {
        const below = stack[stack.length - 1];
        for (let reach = below.reach + 1; reach <= below.reach + t.length - 1; reach++) {
          // The brick stays over its pier at the back (its start col ≥ 0).
          if (W + reach - t.length < 0) continue;
          grow([...stack, { type, reach }], u);
        }
      }
    }
  };
  grow([], new Map());
  return out
    .map((d) => ({ d, k: orderKey(d), name: designName(d) }))
    .sort((a, b) => {
      for (let i = 0; i < Math.max(a.k.length, b.k.length); i++) {
        const x = a.k[i] ?? 0;
        const y = b.k[i] ?? 0;
        if (x !== y) return x - y;
      }
      return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
    })
    .map((x) => x.d);
}

/** A design in a few words (stable, for ordering and reports). */
export function designName(d: BridgeDesign): string {
  return `${d.levels.map((l) => `${l.type}+${l.reach}`).join('/')}|${d.tie} ${d.overlapWest}+${d.overlapEast}`;
}

/** The first design of the fewest levels (1 or 2) whose statics carry {@link REFERENCE_MARGIN}× the load, or null. */
export function referenceDesign(scene: DesignScene & Pick<B1Scene, 'loadKg'>): BridgeDesign | null {
  for (const levels of [1, 2]) {
    for (const d of designs(scene, levels)) {
      if (planStatics(scene, designPlan(scene, d), scene.loadKg * REFERENCE_MARGIN).holds) return d;
    }
  }
  return null;
}

/**
 * The same layout built one stud wide: every brick replaced by the catalog type of the same
 * length and kind one stud wide (null when the catalog has none).
 */
export function oneWide(d: BridgeDesign): BridgeDesign | null {
  const narrow = (type: string): string | null => {
    const t = brickType(type);
    const id = `${t.plate ? 'plate' : 'brick'}-1x${t.length}`;
    return Object.hasOwn(CATALOG, id) ? id : null;
  };
  const levels = d.levels.map((l) => ({ type: narrow(l.type), reach: l.reach }));
  const tie = narrow(d.tie);
  if (!tie || levels.some((l) => !l.type)) return null;
  return { ...d, levels: levels as BridgeLevel[], tie, row: LOAD_ROW };
}

/** The `place` call of a grid placement: the footprint centre in world metres and the length's direction in degrees. */
export function placeCall(scene: SiteScene, p: Placement): ToolCall {
  const [fc, fr] = footprint(p);
  const [x, , z] = gridToWorld(scene, p.col + fc / 2, p.row + fr / 2, 0);
  return { tool: 'place', args: { brick_type: p.type, x_m: roundTo(x, 4), z_m: roundTo(z, 4), yaw_deg: roundTo(toolYaw(scene, p.rot), 1) } };
}

/** The reference solution of an instance: place the design's bricks, then commit. */
export function reference(instance: Instance<B1Scene>): ReferenceSolution {
  const scene = instance.scene;
  const d = referenceDesign(scene);
  if (!d) throw new SpaceActError('invalid-state', `${instance.id}: no bridge in the supply carries the load (the generator should have re-drawn)`, { instance: instance.id });
  const plan = designPlan(scene, d);
  return {
    calls: [...plan.map((p) => placeCall(scene, p)), { tool: 'commit', args: {} }],
    method: `grammar search, fewest levels first (${d.levels.length}-level bridge: ${d.levels.map((l) => `${l.type} reaching ${l.reach}`).join(', then ')}; ${d.tie} tie overlapping ${d.overlapWest}+${d.overlapEast} studs), checked by the stud statics LP to carry ${REFERENCE_MARGIN}× the load`,
  };
}

function studs(n: number): string {
  return `${n} stud${n === 1 ? '' : 's'}`;
}


/** The reference plan in words (the `+plan` reveal), with the world positions it uses. */
export function planText(scene: B1Scene): string {
  const d = referenceDesign(scene);
  if (!d) return '';
  const plan = designPlan(scene, d);
  const steps: string[] = [];
  let k = 1;
  d.levels.forEach((l, i) => {
    const [w, e] = [plan[2 * i], plan[2 * i + 1]];
    const anchor = i === 0 ? `anchored on ${studs(anchorOf(d))} of its pier` : `on top of level ${i}, overlapping it by ${studs(levelOverlap(d, i))}`;
    for (const [side, p] of [['west', w], ['east', e]] as const) {
      const c = placeCall(scene, p).args;
      steps.push(`${k++}) Level ${i + 1}, ${side}: a ${l.type} ${anchor}, its tip ${l.reach} cells out over the gap — place at x ${mm(c.x_m as number)}, z ${mm(c.z_m as number)}, yaw ${c.yaw_deg}°.`);
    }
  });
  const t = placeCall(scene, plan[plan.length - 1]).args;
  steps.push(`${k++}) The tie: a ${d.tie} on top across the ${holeOf(scene, d)}-cell hole, resting on ${studs(d.overlapWest)} of the west and ${studs(d.overlapEast)} of the east cantilever — place at x ${mm(t.x_m as number)}, z ${mm(t.z_m as number)}, yaw ${t.yaw_deg}°.`);
  steps.push(`${k}) Commit.`);
  return `Build ${d.levels.length === 1 ? 'two cantilevers' : 'two stepped cantilevers of two levels each'} and tie them across the middle (the span is ${spanCells(scene)} studs long). ${steps.join(' ')}`;
}
