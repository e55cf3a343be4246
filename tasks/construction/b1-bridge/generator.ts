/**
 * B1 generator: tiers, the seeded draw of a scene, and the filters every instance must pass.
 *
 * The load is chosen so that the task means something:
 * - it is at least {@link TWO_SIDED_MARGIN}× what the studs of one pier could ever hold at
 *   mid-span ({@link singlePierBoundKg}), so only a bridge tied to both piers can pass;
 * - at L5/L7 it is heavier still: 70 % of what the intended two-wide bridge carries, which is
 *   more than the same bridge built one stud wide (at most 3 kg), so the agent must choose strong
 *   bricks and a long tie overlap from a supply with decoys.
 * Every instance is then checked with the statics model: the reference carries
 * {@link REFERENCE_MARGIN}× the load, and the reference with its tie slid onto one half fails.
 */
import { generateFiltered, redrawRng } from '../../../solvers/redraw.ts';
import type { Rng } from '../../../core/rng.ts';
import type { Instance, Tier } from '../../types.ts';
import { brickType, CATALOG, HOLD_SECONDS, LOAD_ROW, PIER_PLATES, ROWS, singlePierBoundKg, type B1Scene, type SupplyItem } from './layout.ts';
import { designPlan, designs, holeOf, REFERENCE_MARGIN, referenceDesign, weakenedPlans, type BridgeDesign } from './solver.ts';
import { planCapacityKg, planStatics } from './statics-model.ts';
import { round9 } from '../../../core/determinism.ts';

/** The load is at least this many times the most one pier's studs can hold at mid-span. */
export const TWO_SIDED_MARGIN = 1.3;

/** What a tier changes. */
export interface TierSettings {
  pierCols: number[];
  gaps: number[];
  /** Counted supply (a brick budget). */
  budgeted: boolean;
  /** Load at 70 % of the intended two-wide bridge's capacity instead of just above one pier's. */
  heavy: boolean;
  /** Short decoy bricks in the supply. */
  decoys: boolean;
  /** Working frame turned by ±30–60° about the vertical. */
  rotated: boolean;
}

/** Tier levers. */
export const TIER_SETTINGS: Record<Tier, TierSettings> = {
  L1: { pierCols: [3, 4, 5], gaps: [5], budgeted: false, heavy: false, decoys: false, rotated: false },
  L3: { pierCols: [4, 5], gaps: [7, 9], budgeted: true, heavy: false, decoys: false, rotated: false },
  L5: { pierCols: [4, 5], gaps: [9, 11], budgeted: true, heavy: true, decoys: true, rotated: false },
  L7: { pierCols: [4, 5], gaps: [9, 11], budgeted: true, heavy: true, decoys: true, rotated: true },
};

/** Heaviest load, kg. */
export const MAX_LOAD_KG = 3;

/** Most bricks at once without a budget (L1). */
export const L1_MAX_BRICKS = 20;

const DECOY_TYPES = ['brick-1x1', 'brick-1x2', 'brick-2x2', 'plate-1x2', 'plate-2x2'];

function ceil05(x: number): number {
  return round9(Math.ceil(x * 20 - 1e-9) / 20);
}

function floor05(x: number): number {
  return round9(Math.floor(x * 20 + 1e-9) / 20);
}

/** Types no longer than the gap minus one, so no single brick reaches from pier to pier. */
function fits(gap: number, type: string): boolean {
  return brickType(type).length <= gap - 1;
}

/** Intended designs of one width the catalog offers for this gap (anchor ≥ 2). */
function intendedDesigns(pierCols: number, gap: number, width: 1 | 2): BridgeDesign[] {
  const all = Object.keys(CATALOG).filter((t) => fits(gap, t) && brickType(t).width === width && brickType(t).length >= 4);
  const supply = all.map((type) => ({ type, count: 3 }));
  return designs({ pierCols, rows: ROWS, gap, pierPlates: PIER_PLATES, loadCell: [pierCols + (gap - 1) / 2, LOAD_ROW], supply }).filter(
    (d) => d.anchor >= 2 && !brickType(d.cantilever).plate,
  );
}

function addSupply(supply: SupplyItem[], type: string, count: number): void {
  const item = supply.find((s) => s.type === type);
  if (item) item.count += count;
  else supply.push({ type, count });
}

/** Draws a scene (before the filters). */
export function drawScene(tier: Tier, rng: Rng): B1Scene {
  const cfg = TIER_SETTINGS[tier];
  const W = rng.pick(cfg.pierCols);
  const G = rng.pick(cfg.gaps);
  const loadCell: [number, number] = [W + (G - 1) / 2, LOAD_ROW];
  const base = { pierCols: W, rows: ROWS, gap: G, pierPlates: PIER_PLATES, loadCell };
  const bound = singlePierBoundKg(base);
  let supply: SupplyItem[];
  let decoys: string[] = [];
  let loadKg = ceil05(TWO_SIDED_MARGIN * bound);
  if (!cfg.budgeted) {
    // L1: plenty of every short type; only the number standing at once is limited.
    supply = ['brick-1x2', 'brick-1x4', 'brick-2x2', 'brick-2x4', 'plate-1x4', 'plate-2x4'].filter((t) => fits(G, t)).map((type) => ({ type, count: L1_MAX_BRICKS }));
  } else {
    const width: 1 | 2 = cfg.heavy ? 2 : rng.pick([1, 2] as const);
    const intended = rng.pick(intendedDesigns(W, G, width));
    supply = [];
    addSupply(supply, intended.cantilever, 2);
    addSupply(supply, intended.tie, 1);
    if (!cfg.heavy) addSupply(supply, intended.cantilever, 1);
    // Other useful-looking types: the other width's long bricks (one-wide ones at L5+, where
    // the load is too heavy for them in the same layout).
    const others = Object.keys(CATALOG).filter((t) => fits(G, t) && brickType(t).length >= 4 && !supply.some((s) => s.type === t) && (!cfg.heavy || brickType(t).width === 1));
    for (const t of rng.shuffle(others).slice(0, cfg.heavy ? 2 : 1)) addSupply(supply, t, cfg.heavy ? 2 : rng.int(1, 2));
    if (cfg.decoys) {
      decoys = rng.shuffle(DECOY_TYPES.filter((t) => brickType(t).length < holeOf({ gap: G }, intended) + 2)).slice(0, 2).sort();
      for (const t of decoys) addSupply(supply, t, rng.int(2, 3));
    }
    if (cfg.heavy) {
      const capacity = planCapacityKg(base, designPlan(base, intended), bound, 8, 12);
      loadKg = Math.max(loadKg, Math.min(MAX_LOAD_KG, floor05(0.7 * capacity)));
    }
  }
  supply.sort((a, b) => {
    const ta = brickType(a.type);
    const tb = brickType(b.type);
    return Number(ta.plate) - Number(tb.plate) || ta.width - tb.width || ta.length - tb.length;
  });
  const yawDeg = cfg.rotated ? rng.pick([-1, 1]) * rng.int(30, 60) : 0;
  return {
    ...base,
    loadKg,
    holdSeconds: HOLD_SECONDS,
    yawDeg,
    supply,
    budgeted: cfg.budgeted,
    maxBricks: cfg.budgeted ? supply.reduce((n, s) => n + s.count, 0) : L1_MAX_BRICKS,
    decoys,
  };
}

/**
 * Why a scene is not a fair, meaningful instance, or null. Checks (statics model): no single
 * brick spans the gap; the load is beyond one pier's reach; the reference carries the load with
 * margin; the reference without its crucial connection (tie slid onto one half, or no tie)
 * fails; at L5/L7 the weakest bridge the supply allows fails too, so the heavier load matters.
 */
export function sceneProblem(s: B1Scene, tier: Tier): string | null {
  const longest = Math.max(...s.supply.map((x) => brickType(x.type).length));
  if (longest >= s.gap + 2) return `a ${longest}-stud brick spans the ${s.gap}-stud gap on its own`;
  const bound = singlePierBoundKg(s);
  if (s.loadKg < TWO_SIDED_MARGIN * bound - 1e-9) return `the ${s.loadKg} kg load could be carried from one pier (its studs hold up to ${bound.toFixed(2)} kg at mid-span)`;
  const ref = referenceDesign(s);
  if (!ref) return `no two-layer bridge from the supply carries ${REFERENCE_MARGIN}× the ${s.loadKg} kg load`;
  const plan = designPlan(s, ref);
  for (const weak of weakenedPlans(s, ref)) {
    const r = planStatics(s, weak, s.loadKg);
    if (r.holds) return `the reference holds the load even with its tie resting on one half only (tie at col ${weak[2].col})`;
  }
  if (planStatics(s, plan.slice(0, 2), s.loadKg).holds) return 'the reference holds the load without its tie';
  if (TIER_SETTINGS[tier].heavy) {
    const all = designs(s);
    const weakest = all[all.length - 1];
    if (planStatics(s, designPlan(s, weakest), s.loadKg).holds) return 'every bridge the supply allows carries the load: it is not heavy';
  }
  return null;
}

/** Draws until the scene passes {@link sceneProblem}; `make` wraps a scene into an instance. */
export function generateScene(seed: number, tier: Tier, make: (scene: B1Scene) => Instance<B1Scene>, filters: Array<{ name: string; check(i: Instance<B1Scene>): string | null }>): Instance<B1Scene> {
  return generateFiltered((attempt) => make(drawScene(tier, redrawRng('B1', tier, seed, attempt))), filters);
}
