/**
 * B1 shortcut filters and sightless strategies. The generator re-draws until the load means
 * something ({@link sceneProblem}): a bridge tied to both piers is needed, no bridge with fewer
 * levels than the tier's carries it, the reference's tie is the crucial connection, and at
 * L5/L7 the same bridge one stud wide fails. See README.md for the shortcuts considered.
 */
import type { SightlessContext, SightlessStrategy, TrainingExample } from '../../sightless.ts';
import type { InstanceFilter, Tier, ToolCall } from '../../types.ts';
import { brickType } from '../../kits/bricks/catalog.ts';
import { minLoadKg, REFERENCE_MARGIN, SITE_MARGIN, siteHalfExtents, singlePierBoundKg, TIER_SETTINGS, TWO_SIDED_MARGIN, type B1Scene } from './scene.ts';
import { brickCount, designName, designPlan, designs, oneWide, referenceDesign, weakenedPlans } from './solver.ts';
import { planStatics } from './statics-model.ts';

/**
 * Why a scene is not a fair, meaningful instance, or null. Checks (statics model): no single
 * brick spans the gap; the load is beyond one pier's reach and at least the tier's least load (L3: the
 * heaviest L1 load); no design with fewer levels than the tier's holds the load; the reference has the
 * tier's levels and carries {@link REFERENCE_MARGIN}× the load; the reference without its crucial
 * connection (tie slid onto one half, or no tie) fails; the load is at least the tier's share of
 * the reference's capacity; at L5/L7 the reference built one stud wide fails; the supply never
 * lists exactly the reference's bricks; the piers stand on the mat.
 */
export function sceneProblem(s: B1Scene, tier: Tier): string | null {
  const cfg = TIER_SETTINGS[tier];
  const longest = Math.max(...s.supply.map((x) => brickType(x.type).length));
  if (longest >= s.gap + 2) return `a ${longest}-stud brick spans the ${s.gap}-stud gap on its own`;
  const [hx, hz] = siteHalfExtents(s);
  if (s.siteX - hx < SITE_MARGIN[0] - 1e-9 || s.siteX + hx > s.mat[0] - SITE_MARGIN[0] + 1e-9 || s.siteZ - hz < SITE_MARGIN[1] - 1e-9 || s.siteZ + hz > s.mat[1] - SITE_MARGIN[1] + 1e-9) {
    return 'the piers do not stand on the mat with the margin';
  }
  const bound = singlePierBoundKg(s);
  if (s.loadKg < TWO_SIDED_MARGIN * bound - 1e-9) return `the ${s.loadKg} kg load could be carried from one pier (its studs hold up to ${bound.toFixed(2)} kg at mid-span)`;
  if (s.loadKg < minLoadKg(tier) - 1e-9) return `the ${s.loadKg} kg load is lighter than the tier's least load (${minLoadKg(tier)} kg)`;
  for (let levels = 1; levels < cfg.levels; levels++) {
    for (const d of designs(s, levels)) {
      if (planStatics(s, designPlan(s, d), s.loadKg).holds) return `a ${brickCount(d)}-brick bridge (${designName(d)}) carries the load: the tier asks for ${cfg.levels} levels`;
    }
  }
  const ref = referenceDesign(s);
  if (!ref) return `no bridge from the supply carries ${REFERENCE_MARGIN}× the ${s.loadKg} kg load`;
  if (ref.levels.length !== cfg.levels) return `the reference has ${ref.levels.length} levels, the tier ${cfg.levels}`;
  const [slidEast, slidWest, noTie] = weakenedPlans(s, ref);
  if (planStatics(s, slidEast, s.loadKg).holds || planStatics(s, slidWest, s.loadKg).holds) return 'the reference holds the load even with its tie resting on one side only';
  if (planStatics(s, noTie, s.loadKg).holds) return 'the reference holds the load without its tie';
  if (cfg.ratio && planStatics(s, designPlan(s, ref), s.loadKg / cfg.ratio[0]).holds) {
    return `the load is less than ${Math.round(cfg.ratio[0] * 100)} % of what the reference carries`;
  }
  if (cfg.twoWide) {
    const narrow = oneWide(ref);
    if (!narrow) return 'the reference has no one-wide counterpart in the catalog';
    if (planStatics(s, designPlan(s, narrow), s.loadKg).holds) return 'the reference built one stud wide carries the load: it is not heavy';
  }
  const used = new Map<string, number>();
  for (const p of designPlan(s, ref)) used.set(p.type, (used.get(p.type) ?? 0) + 1);
  for (const [type, n] of used) {
    if ((s.supply.find((x) => x.type === type)?.count ?? 0) <= n) return `the supply has no spare ${type}: it would list the reference's bricks`;
  }
  if (!s.supply.some((x) => !used.has(x.type))) return 'every supply type is in the reference';
  return null;
}

/** Static checks every instance must pass (re-drawn in the generator, reported by verify). */
export const SHORTCUT_FILTERS: InstanceFilter<B1Scene>[] = [{ name: 'meaningful-load', check: (i) => sceneProblem(i.scene, i.tier) }];

/** One `place` of a learned template: the type, where it goes relative to the first brick, and its yaw. */
interface TemplateStep {
  type: string;
  dx: number;
  dz: number;
  yaw: number;
}

/** What the prober learns from other seeds: the typical plan relative to its first brick, and where that first brick typically goes. */
export interface ProbeTemplate {
  steps: TemplateStep[];
  start: [number, number];
}

function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Probe offsets from the expected first position, m: the expected spot, then steps of 1 cm outward in x and z. */
const PROBE_OFFSETS: Array<[number, number]> = [
  [0, 0],
  [0.01, 0],
  [-0.01, 0],
  [0, 0.01],
  [0, -0.01],
  [0.02, 0],
  [-0.02, 0],
  [0, 0.02],
  [0, -0.02],
  [0.01, 0.01],
  [-0.01, -0.01],
];

function r4(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}

/**
 * The text-only builder of issue 12, made metric: it learns from other seeds the typical
 * bridge (types, and each brick's place relative to the first) and where the first brick
 * usually goes; then it probes — places the first brick at the expected spot and, while that is
 * refused, at spots 1 cm and 2 cm around it — keeps the first placement that is accepted, builds
 * the rest of the typical bridge relative to it and commits. It never looks, so it must find the
 * site through refusals, and every refusal costs an action of the budget.
 */
export const probeThenBuild: SightlessStrategy<ProbeTemplate | undefined> = {
  name: 'probe-then-build',
  description: 'probes for the site with the first brick of the typical bridge (refused placements tell it where the piers are not), keeps the first accepted one, builds the typical bridge relative to it and commits',
  bound: 0.1,
  fit(training: TrainingExample[]): ProbeTemplate | undefined {
    const scripts = training.map((t) => t.reference.calls.filter((c) => c.tool === 'place'));
    const shapes = scripts.map((s) => s.map((c) => c.args.brick_type).join(','));
    const counts = new Map<string, number>();
    for (const k of shapes) counts.set(k, (counts.get(k) ?? 0) + 1);
    const common = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
    const same = scripts.filter((_, i) => shapes[i] === common);
    if (!same.length) return undefined;
    const first = (s: ToolCall[]): [number, number] => [s[0].args.x_m as number, s[0].args.z_m as number];
    const steps = same[0].map((c, i) => ({
      type: c.args.brick_type as string,
      dx: r4(median(same.map((s) => (s[i].args.x_m as number) - first(s)[0]))),
      dz: r4(median(same.map((s) => (s[i].args.z_m as number) - first(s)[1]))),
      yaw: median(same.map((s) => s[i].args.yaw_deg as number)),
    }));
    const all = scripts.filter((s) => s.length > 0);
    return { steps, start: [r4(median(all.map((s) => first(s)[0]))), r4(median(all.map((s) => first(s)[1])))] };
  },
  next(ctx: SightlessContext, fitted): ToolCall[] | null {
    if (!fitted) return null;
    const budget = ctx.view.budgets.actions ?? Infinity;
    const results = ctx.history.flat().filter((r) => r.status === 'ok' || r.status === 'violation');
    const used = results.length;
    if (used >= budget) return null;
    const placeCall = (step: TemplateStep, x: number, z: number): ToolCall => ({ tool: 'place', args: { brick_type: step.type, x_m: r4(x), z_m: r4(z), yaw_deg: step.yaw } });
    const commit: ToolCall = { tool: 'commit', args: {} };
    const places = results.filter((r) => r.call.tool === 'place');
    const acceptedAt = places.findIndex((r) => r.status === 'ok');
    if (acceptedAt < 0) {
      // Probe while the budget still leaves room to build the rest and commit; else give up.
      const probes = places.length;
      if (probes < PROBE_OFFSETS.length && budget - used > fitted.steps.length) {
        const [ox, oz] = PROBE_OFFSETS[probes];
        return [placeCall(fitted.steps[0], fitted.start[0] + ox, fitted.start[1] + oz)];
      }
      return [commit];
    }
    const base = places[acceptedAt].call.args;
    const next = 1 + (places.length - acceptedAt - 1);
    const calls: ToolCall[] = [];
    for (let i = next; i < fitted.steps.length && calls.length < ctx.actionCap && used + calls.length < budget - 1; i++) {
      const st = fitted.steps[i];
      calls.push(placeCall(st, (base.x_m as number) + st.dx, (base.z_m as number) + st.dz));
    }
    if (calls.length < ctx.actionCap && (next + calls.length >= fitted.steps.length || used + calls.length >= budget - 1)) calls.push(commit);
    return calls.slice(0, ctx.actionCap);
  },
};

/** B1's own sightless strategies for the shortcut battery. */
export const SIGHTLESS: SightlessStrategy[] = [probeThenBuild as SightlessStrategy];
