/**
 * The text-only builder of issue 12, made metric, for construction families whose bricks are
 * placed by `place(brick_type, x_m, z_m, yaw_deg)` in a world frame (B1, B2): it learns from
 * other seeds' references the typical build and where its first brick usually goes, then probes
 * for the site with refused placements and builds the rest relative to the first accepted one.
 * It is the patient adversary of a family whose site is shown only in pictures: every refusal
 * costs an action of the budget.
 */
import type { SightlessContext, SightlessStrategy, TrainingExample } from '../../sightless.ts';
import type { ToolCall } from '../../types.ts';

/** One `place` of a learned template: the type, where it goes relative to the first brick, and its yaw. */
export interface TemplateStep {
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
