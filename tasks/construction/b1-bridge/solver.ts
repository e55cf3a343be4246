/**
 * B1 reference construction: a constructive rule plus a statics check.
 *
 * The rule builds the classic two-layer bridge: on each pier a **cantilever** brick (same type
 * on both sides) anchored on `anchor` studs of the pier and reaching `reach` cells out over the
 * gap, leaving a centred hole of `G − 2·reach` cells (odd, at least 1, so the load cell is in
 * it); on top, a **tie** brick that covers the hole and rests on both cantilever tips, so the
 * two halves share the load. The tie is the crucial connection: the same bricks with the tie
 * slid over so it rests on one cantilever only ({@link weakenedPlans}) must fail the load test.
 *
 * {@link designs} lists every such bridge the supply allows, strongest-looking first (wider
 * bricks, an anchor of two studs or more, then more tie overlap on the weaker side, then a longer
 * anchor); the reference is the
 * first one whose statics (the LP of `statics-model.ts`) carry a margin over the load.
 */
import { SpaceActError } from '../../../core/errors.ts';
import type { Instance, ReferenceSolution, ToolCall } from '../../types.ts';
import { brickType } from '../../kits/bricks/catalog.ts';
import type { Placement } from '../../kits/bricks/plan.ts';
import { LOAD_ROW, type B1Scene } from './scene.ts';
import { planStatics, type StaticsScene } from './statics-model.ts';

/** Factor by which the reference must out-carry the load in the statics model. */
export const REFERENCE_MARGIN = 1.3;

/** One bridge of the two-layer rule. */
export interface BridgeDesign {
  /** Brick type of both cantilevers. */
  cantilever: string;
  /** Studs of each cantilever on its pier. */
  anchor: number;
  /** Cells each cantilever reaches over the gap. */
  reach: number;
  /** Brick type of the tie. */
  tie: string;
  /** Studs of the tie on the west and on the east cantilever. */
  overlapWest: number;
  overlapEast: number;
  /** Row of the footprints' lowest row. */
  row: number;
}

/** What the rule needs from a scene. */
export type DesignScene = StaticsScene & Pick<B1Scene, 'supply'>;

/** Cells of the hole the cantilevers leave. */
export function holeOf(scene: Pick<B1Scene, 'gap'>, d: Pick<BridgeDesign, 'reach'>): number {
  return scene.gap - 2 * d.reach;
}

/** The three placements of a design: west cantilever, east cantilever, tie. */
export function designPlan(scene: Pick<B1Scene, 'pierCols' | 'gap'>, d: BridgeDesign): Placement[] {
  const W = scene.pierCols;
  const east = W + scene.gap - d.reach;
  return [
    { type: d.cantilever, col: W - d.anchor, row: d.row, rot: 0 },
    { type: d.cantilever, col: east, row: d.row, rot: 0 },
    { type: d.tie, col: W + d.reach - d.overlapWest, row: d.row, rot: 0 },
  ];
}

/**
 * The same bricks without the crucial connection: the tie slid east until it no longer reaches
 * the east cantilever (it still covers the load cell and rests on the west one), and the tie
 * slid west likewise. Both must fail the load test.
 */
export function weakenedPlans(scene: Pick<B1Scene, 'pierCols' | 'gap'>, d: BridgeDesign): Placement[][] {
  const [west, east, tie] = designPlan(scene, d);
  const T = brickType(d.tie).length;
  const holeEnd = east.col - 1;
  const holeStart = scene.pierCols + d.reach;
  return [
    [west, east, { ...tie, col: holeEnd - T + 1 }],
    [west, east, { ...tie, col: holeStart }],
  ];
}

/**
 * Every design the supply can build, strongest-looking first. Both cantilevers use one type
 * (two bricks of it, three when the tie is the same type), the tie has the cantilevers' width,
 * the hole is at least one cell and the tie overlaps each cantilever by at least one stud.
 */
export function designs(scene: DesignScene): BridgeDesign[] {
  const W = scene.pierCols;
  const G = scene.gap;
  const count = new Map(scene.supply.map((s) => [s.type, s.count]));
  const out: BridgeDesign[] = [];
  for (const cant of scene.supply) {
    const ct = brickType(cant.type);
    if (cant.count < 2) continue;
    for (let reach = 1; reach < ct.length; reach++) {
      const anchor = ct.length - reach;
      const hole = G - 2 * reach;
      if (anchor > W || hole < 1) continue;
      for (const tie of scene.supply) {
        const tt = brickType(tie.type);
        if (tt.width !== ct.width) continue;
        if ((count.get(tie.type) ?? 0) < (tie.type === cant.type ? 3 : 1)) continue;
        const both = tt.length - hole;
        if (both < 2) continue;
        const overlapWest = Math.ceil(both / 2);
        const overlapEast = both - overlapWest;
        if (overlapWest > ct.length || overlapEast > ct.length) continue;
        // A 2-wide bridge sits on the load row and the row in front of it.
        out.push({ cantilever: cant.type, anchor, reach, tie: tie.type, overlapWest, overlapEast, row: LOAD_ROW });
      }
    }
  }
  const key = (d: BridgeDesign): number[] => [-brickType(d.cantilever).width, -Math.min(d.anchor, 2), -d.overlapEast, -Math.min(d.anchor, 3), -d.overlapWest, -d.anchor, Number(brickType(d.tie).plate), Number(brickType(d.cantilever).plate)];
  return out.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i] - kb[i];
    return a.cantilever < b.cantilever ? -1 : a.cantilever > b.cantilever ? 1 : a.tie < b.tie ? -1 : a.tie > b.tie ? 1 : 0;
  });
}

/** The first design (in {@link designs} order) that carries the load with the margin, or null. */
export function referenceDesign(scene: DesignScene & Pick<B1Scene, 'loadKg'>): BridgeDesign | null {
  for (const d of designs(scene)) {
    if (planStatics(scene, designPlan(scene, d), scene.loadKg * REFERENCE_MARGIN).holds) return d;
  }
  return null;
}

/** The `place` call of a placement. */
export function placeCall(p: Placement): ToolCall {
  return { tool: 'place', args: { brick_type: p.type, col: p.col, row: p.row, rot_deg: p.rot } };
}

/** The reference solution of an instance: place the design's three bricks, then commit. */
export function reference(instance: Instance<B1Scene>): ReferenceSolution {
  const scene = instance.scene;
  const d = referenceDesign(scene);
  if (!d) throw new SpaceActError('invalid-state', `${instance.id}: no design in the supply carries the load (the generator should have re-drawn)`, { instance: instance.id });
  const plan = designPlan(scene, d);
  return {
    calls: [...plan.map(placeCall), { tool: 'commit', args: {} }],
    method: `two-layer rule (cantilevers of ${d.cantilever} anchored on ${d.anchor} studs reaching ${d.reach} cells out, ${d.tie} tie overlapping ${d.overlapWest}+${d.overlapEast} studs), checked by the stud statics LP to carry ${REFERENCE_MARGIN}× the load`,
  };
}

function columns(n: number): string {
  return `${n} stud column${n === 1 ? '' : 's'}`;
}

/** The reference plan in words (the `+plan` reveal). */
export function planText(scene: B1Scene): string {
  const d = referenceDesign(scene);
  if (!d) return '';
  const [w, e, t] = designPlan(scene, d);
  const rows = brickType(d.cantilever).width === 1 ? `row ${d.row}` : `rows ${d.row}–${d.row + 1}`;
  return (
    `Build two cantilevers and tie them across the middle, all with rot_deg 0 in ${rows}. ` +
    `1) A ${d.cantilever} on the first pier at col ${w.col}: ${columns(d.anchor)} on the pier, ${d.reach} out over the gap. ` +
    `2) A ${d.cantilever} on the other pier at col ${e.col}, reaching ${d.reach} columns back towards it. ` +
    `3) A ${d.tie} on top at col ${t.col}, across the ${holeOf(scene, d)}-column hole between their tips, resting on ${columns(d.overlapWest)} of the first and ${columns(d.overlapEast)} of the second. ` +
    '4) Commit.'
  );
}
