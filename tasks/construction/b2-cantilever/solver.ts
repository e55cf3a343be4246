/**
 * B2 reference construction: a search over a grammar of corbelled cantilevers, each checked by
 * the stud statics (the linear programme of `statics-model.ts`).
 *
 * **The grammar.** A cantilever is a stack of `levels` bricks laid along the reach, all of one
 * width (one or two studs), in the target row (one-wide) or the target row and the next
 * (two-wide):
 * - level 1 rests on the studded table, anchored on `L − reach` studs and sticking out `reach`
 *   cells past the edge;
 * - each further level rests on the one below, overlapping it by at least one stud and reaching
 *   further out (corbelling), and stays over the table or the level below at its back end;
 * - the top level covers the target cell, where the payload hangs.
 * The anchoring connection is level 1's studs on the table: the same layout resting on the
 * table without it tips over the edge ({@link unanchoredHolds}).
 *
 * **The search.** {@link designs} lists every cantilever of a given number of levels the supply
 * allows (counts respected), strongest-looking first (wider bricks, bricks before plates, then
 * anchors and overlaps of up to four studs, then the least overshoot past the target). The
 * reference is the first design, with the fewest levels, whose statics carry
 * {@link REFERENCE_MARGIN}× the payload. Fewer levels cannot reach the target at L3 and up (no
 * supplied brick is long enough), so the reference's brick count is the least there is.
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
import { gridToWorld, LOAD_ROW, REFERENCE_MARGIN, toolYaw, type B2Scene, type SiteScene } from './scene.ts';
import { planStatics, type StaticsScene } from './statics-model.ts';

/** One level: the brick type and how far its tip reaches past the table's edge, cells. */
export interface CantileverLevel {
  type: string;
  reach: number;
}

/** One cantilever of the grammar. */
export interface CantileverDesign {
  /** Levels from the table up. */
  levels: CantileverLevel[];
  /** Lowest row of the footprints. */
  row: number;
}

/** What the search needs from a scene. */
export type DesignScene = StaticsScene & Pick<B2Scene, 'supply'>;

/** Width of a design's bricks, studs. */
export function widthOf(d: CantileverDesign): 1 | 2 {
  return brickType(d.levels[0].type).width;
}

/** Anchor of level 1 on the table, studs. */
export function anchorOf(d: Pick<CantileverDesign, 'levels'>): number {
  const l = d.levels[0];
  return brickType(l.type).length - l.reach;
}

/** Studs by which level `i` (≥ 1) overlaps level `i − 1`. */
export function levelOverlap(d: Pick<CantileverDesign, 'levels'>, i: number): number {
  const below = d.levels[i - 1];
  const up = d.levels[i];
  const belowStart = below.reach - brickType(below.type).length;
  const upStart = up.reach - brickType(up.type).length;
  return below.reach - Math.max(belowStart, upStart);
}

/** The placements of a design, in building order (level 1 first). */
export function designPlan(scene: Pick<B2Scene, 'tableCols'>, d: CantileverDesign): Placement[] {
  return d.levels.map((l) => ({ type: l.type, col: scene.tableCols + l.reach - brickType(l.type).length, row: d.row, rot: 0 as const }));
}

/** Order key of a design: smaller sorts first (strongest-looking first). */
function orderKey(scene: Pick<B2Scene, 'reach'>, d: CantileverDesign): number[] {
  const overlaps = d.levels.slice(1).map((_, i) => Math.min(levelOverlap(d, i + 1), 4));
  const plates = d.levels.filter((l) => brickType(l.type).plate).length;
  const top = d.levels[d.levels.length - 1];
  return [-widthOf(d), plates, -Math.min(anchorOf(d), 4, ...overlaps), ...overlaps.map((o) => -o), -Math.min(anchorOf(d), 4), top.reach - scene.reach, -anchorOf(d)];
}

/** A design in a few words (stable, for ordering and reports). */
export function designName(d: CantileverDesign): string {
  return d.levels.map((l) => `${l.type}+${l.reach}`).join('/');
}

/**
 * Every cantilever of `levels` levels that the supply allows and that covers the target,
 * strongest-looking first (see the module comment). Types shorter than two studs are left out.
 */
export function designs(scene: DesignScene, levels: number): CantileverDesign[] {
  const W = scene.tableCols;
  const R = scene.reach;
  const count = new Map(scene.supply.map((s) => [s.type, s.count]));
  const types = scene.supply.map((s) => s.type).filter((t) => brickType(t).length >= 2);
  const out: CantileverDesign[] = [];
  const fits = (used: Map<string, number>): boolean => [...used].every(([t, n]) => (count.get(t) ?? 0) >= n);
  const grow = (stack: CantileverLevel[], used: Map<string, number>): void => {
    if (stack.length === levels) {
      const top = stack[stack.length - 1];
      // The top level covers the target cell (the R-th cell past the edge).
      if (top.reach >= R && top.reach - brickType(top.type).length <= R - 1) out.push({ levels: stack.map((l) => ({ ...l })), row: LOAD_ROW });
      return;
    }
    for (const type of types) {
      const t = brickType(type);
      if (stack.length && t.width !== brickType(stack[0].type).width) continue;
      const u = new Map(used);
      u.set(type, (u.get(type) ?? 0) + 1);
      if (!fits(u)) continue;
      const last = stack.length + 1 === levels;
      if (stack.length === 0) {
        for (let anchor = Math.min(W, t.length - 1); anchor >= 1; anchor--) {
          const reach = t.length - anchor;
          if (last ? reach < R : reach >= R) continue;
          grow([{ type, reach }], u);
        }
      } else {
        const below = stack[stack.length - 1];
        for (let reach = below.reach + 1; reach <= below.reach + t.length - 1; reach++) {
          // Its back end stays over the table (start col ≥ 0); only the top level reaches the target.
          if (W + reach - t.length < 0) continue;
          if (last ? reach < R : reach >= R) continue;
          grow([...stack, { type, reach }], u);
        }
      }
    }
  };
  grow([], new Map());
  return out
    .map((d) => ({ d, k: orderKey(scene, d), name: designName(d) }))
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

/** Most designs the reference search checks with the statics before it gives up on a level count. */
const SEARCH_LIMIT = 60;

/** The first design of the fewest levels (1 to 3) whose statics carry {@link REFERENCE_MARGIN}× the payload, or null. */
export function referenceDesign(scene: DesignScene & Pick<B2Scene, 'payloadKg'>): CantileverDesign | null {
  for (const levels of [1, 2, 3]) {
    for (const d of designs(scene, levels).slice(0, SEARCH_LIMIT)) {
      if (planStatics(scene, designPlan(scene, d), scene.payloadKg * REFERENCE_MARGIN).holds) return d;
    }
  }
  return null;
}

/** The one-wide catalog type of the same length and kind as `type`, or null. */
export function narrowType(type: string): string | null {
  const t = brickType(type);
  const id = `${t.plate ? 'plate' : 'brick'}-1x${t.length}`;
  return Object.hasOwn(CATALOG, id) ? id : null;
}

/** The same layout built one stud wide (null when the catalog has no counterpart). */
export function oneWide(d: CantileverDesign): CantileverDesign | null {
  const levels = d.levels.map((l) => ({ type: narrowType(l.type), reach: l.reach }));
  if (levels.some((l) => !l.type)) return null;
  return { levels: levels as CantileverLevel[], row: LOAD_ROW };
}

/** The `place` call of a grid placement: the footprint centre in world metres and the length's direction in degrees. */
export function placeCall(scene: SiteScene, p: Placement): ToolCall {
  const [fc, fr] = footprint(p);
  const [x, , z] = gridToWorld(scene, p.col + fc / 2, p.row + fr / 2, 0);
  return { tool: 'place', args: { brick_type: p.type, x_m: roundTo(x, 4), z_m: roundTo(z, 4), yaw_deg: roundTo(toolYaw(scene, p.rot), 1) } };
}

/** The reference solution of an instance: place the design's bricks, then commit. */
export function reference(instance: Instance<B2Scene>): ReferenceSolution {
  const scene = instance.scene;
  const d = referenceDesign(scene);
  if (!d) throw new SpaceActError('invalid-state', `${instance.id}: no cantilever in the supply carries the payload (the generator should have re-drawn)`, { instance: instance.id });
  return {
    calls: [...designPlan(scene, d).map((p) => placeCall(scene, p)), { tool: 'commit', args: {} }],
    method: `grammar search, fewest levels first (${d.levels.length}-level cantilever: ${d.levels.map((l) => `${l.type} reaching ${l.reach}`).join(', then ')}), checked by the stud statics LP to carry ${REFERENCE_MARGIN}× the payload; the same layout without its anchoring connection tips over the edge`,
  };
}

function studs(n: number): string {
  return `${n} stud${n === 1 ? '' : 's'}`;
}


/** The reference plan in words (the `+plan` reveal), with the world positions it uses. */
export function planText(scene: B2Scene): string {
  const d = referenceDesign(scene);
  if (!d) return '';
  const plan = designPlan(scene, d);
  const steps = d.levels.map((l, i) => {
    const c = placeCall(scene, plan[i]).args;
    const on = i === 0 ? `anchored on ${studs(anchorOf(d))} of the table` : `on top of level ${i}, overlapping it by ${studs(levelOverlap(d, i))}`;
    return `${i + 1}) Level ${i + 1}: a ${l.type} ${on}, its tip ${l.reach} cells past the edge — place at x ${mm(c.x_m as number)}, z ${mm(c.z_m as number)}, yaw ${c.yaw_deg}°.`;
  });
  steps.push(`${d.levels.length + 1}) Commit.`);
  return `Build a cantilever of ${d.levels.length === 1 ? 'one brick' : `${d.levels.length} bricks stepping out one on the next`} from the table's studs to the target, ${scene.reach} cells past the edge. ${steps.join(' ')}`;
}
