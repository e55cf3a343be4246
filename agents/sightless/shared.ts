import { canonicalJson } from '../../core/canonical-json.ts';
import { Rng } from '../../core/rng.ts';
import type { SightlessStrategy, SightlessView, TrainingExample } from '../../tasks/sightless.ts';
import type { JsonSchema, ToolCall, ToolSpec } from '../../tasks/types.ts';
import { enumerateSchema, sampleCall } from '../schema-sampler.ts';

/**
 * The shortcut battery's shared sightless strategies: what a model could do with the rules
 * text alone, on any family. Each stays out of families it has nothing to try on (`applies`).
 * Families add their own in `TaskFamily.sightless`.
 */

/** Margin over chance allowed to a guess among listed options (about 2.3 σ at p = ¼ over 100 seeds). */
export const CHOICE_MARGIN = 0.1;
/** Success allowed to a strategy that has no chance level to speak of (a count, a plan). */
export const DEFAULT_SIGHTLESS_BOUND = 0.1;
/** Training instances (other seeds) a fitted strategy learns from, unless the battery is told otherwise. */
export const DEFAULT_TRAINING = 8;

type Schema = JsonSchema & { properties?: Record<string, Schema>; required?: string[]; enum?: unknown[]; type?: unknown };

/** The tool that answers: a `final` tool with at least one required argument. */
export function answerTool(view: Pick<SightlessView, 'tools'>): ToolSpec | undefined {
  return view.tools.find((t) => t.kind === 'final' && ((t.parameters as Schema).required ?? []).length > 0);
}

/** The listed options of an answer tool: the enum of its first required argument that has one. */
export function answerOptions(tool: ToolSpec): { arg: string; options: unknown[] } | null {
  const p = tool.parameters as Schema;
  for (const key of p.required ?? []) {
    const e = p.properties?.[key]?.enum;
    if (Array.isArray(e) && e.length > 0) return { arg: key, options: e };
  }
  return null;
}

/** Chance plus margin for a listed-option answer; the plain default otherwise. */
function answerBound(view: SightlessView): number {
  const tool = answerTool(view);
  const opts = tool ? answerOptions(tool) : null;
  return opts ? Math.min(1, 1 / opts.options.length + CHOICE_MARGIN) : DEFAULT_SIGHTLESS_BOUND;
}

function lastFinalCall(view: Pick<SightlessView, 'tools'>, calls: ToolCall[]): ToolCall | undefined {
  const finals = new Set(view.tools.filter((t) => t.kind === 'final').map((t) => t.name));
  for (let i = calls.length - 1; i >= 0; i--) if (finals.has(calls[i].tool)) return calls[i];
  return undefined;
}

/** The most frequent item by canonical JSON; ties go to the smallest key, so the pick is deterministic. */
function mode<T>(items: T[]): T | undefined {
  const counts = new Map<string, { item: T; n: number }>();
  for (const item of items) {
    const k = canonicalJson(item);
    const c = counts.get(k);
    if (c) c.n++;
    else counts.set(k, { item, n: 1 });
  }
  let best: [string, { item: T; n: number }] | undefined;
  for (const e of counts) if (!best || e[1].n > best[1].n || (e[1].n === best[1].n && e[0] < best[0])) best = e;
  return best?.[1].item;
}

/**
 * Answers at once with the answer most common among other seeds' references — the best
 * constant a model could learn from published examples.
 */
export const constantAnswer: SightlessStrategy<ToolCall | undefined> = {
  name: 'constant-answer',
  description: 'answers at once with the answer most common among other seeds of the same tier',
  bound: DEFAULT_SIGHTLESS_BOUND,
  boundFor: answerBound,
  applies: (view) => answerTool(view) !== undefined,
  maxTurns: 1,
  fit(training: TrainingExample[]): ToolCall | undefined {
    const answers = training.map((t) => lastFinalCall(t.instance, t.reference.calls)).filter((c): c is ToolCall => c !== undefined);
    return mode(answers);
  },
  next(ctx, fitted) {
    if (ctx.turn > 1 || !fitted) return null;
    return [structuredClone(fitted)];
  },
};

/** Answers at once with the first listed option (the "always A" guess). */
export const firstOption: SightlessStrategy = {
  name: 'first-option',
  description: 'answers at once with the first listed option',
  bound: DEFAULT_SIGHTLESS_BOUND,
  boundFor: answerBound,
  applies: (view) => {
    const t = answerTool(view);
    return t !== undefined && answerOptions(t) !== null;
  },
  maxTurns: 1,
  next(ctx) {
    if (ctx.turn > 1) return null;
    const tool = answerTool(ctx.view)!;
    const { arg, options } = answerOptions(tool)!;
    return [{ tool: tool.name, args: { [arg]: structuredClone(options[0]) } }];
  },
};

/** A reference script without its camera calls (a memorised plan has no use for them). */
function actionsOf(example: TrainingExample): ToolCall[] {
  const perception = new Set(example.instance.tools.filter((t) => t.kind === 'perception').map((t) => t.name));
  return example.reference.calls.filter((c) => !perception.has(c.tool));
}

/** Scripts that differ only in numbers share a shape: the same tools with the same argument names and non-numeric values. */
function shapeOf(calls: ToolCall[]): string {
  return canonicalJson(calls.map((c) => ({ tool: c.tool, args: Object.fromEntries(Object.entries(c.args).map(([k, v]) => [k, typeof v === 'number' ? '#' : v])) })));
}

function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The element-wise median of scripts of one shape: every number its median, everything else as it is. */
function medianScript(scripts: ToolCall[][]): ToolCall[] {
  return scripts[0].map((call, i) => ({
    tool: call.tool,
    args: Object.fromEntries(Object.entries(call.args).map(([k, v]) => [k, typeof v === 'number' ? median(scripts.map((s) => s[i].args[k] as number)) : structuredClone(v)])),
  }));
}

/** Most candidate scripts a memorised plan tries on its training instances. */
const MAX_PLAN_CANDIDATES = 4;

/**
 * Replays one fixed script, learned from other seeds: among their reference scripts and the
 * element-wise median of the most common shape (a fixed timing, a typical displacement), the
 * one that solves most training instances through the real loop. This is a memorised plan, a
 * fixed firing schedule, a typical move — whatever the family's solutions have in common.
 */
export const memorisedPlan: SightlessStrategy<ToolCall[] | undefined> = {
  name: 'memorised-plan',
  description: "replays the one script (another seed's reference, or their element-wise median) that solves most instances of other seeds",
  bound: DEFAULT_SIGHTLESS_BOUND,
  // A plan that ends in a listed option is, at best, a guess among them.
  boundFor: answerBound,
  applies: (view) => view.tools.some((t) => t.kind !== 'perception'),
  async fit(training, tools) {
    const scripts = training.map(actionsOf).filter((s) => s.length > 0);
    if (scripts.length === 0) return undefined;
    const candidates: ToolCall[][] = [];
    const seen = new Set<string>();
    const most = Math.max(1, Math.min(MAX_PLAN_CANDIDATES, Math.floor((tools.maxTrials ?? Infinity) / Math.max(1, training.length))));
    const add = (s: ToolCall[] | undefined): void => {
      if (!s) return;
      const k = canonicalJson(s);
      if (!seen.has(k) && candidates.length < most) {
        seen.add(k);
        candidates.push(s);
      }
    };
    add(mode(scripts));
    const commonShape = mode(scripts.map(shapeOf));
    const sameShape = scripts.filter((s) => shapeOf(s) === commonShape);
    if (sameShape.length > 1) add(medianScript(sameShape));
    for (const s of scripts) add(s);
    let best: { script: ToolCall[]; solved: number } | undefined;
    for (const script of candidates) {
      let solved = 0;
      for (const t of training) if (await tools.trial(t.instance, script)) solved++;
      if (!best || solved > best.solved) best = { script, solved };
    }
    return best?.script;
  },
  next(ctx, fitted) {
    if (!fitted) return null;
    let sent = 0;
    for (const turn of ctx.history) for (const r of turn) if (r.status !== 'not-run') sent++;
    // A refused or rolled-back call ends the turn; the plan goes on with the next call, as a
    // memorised plan would.
    const rest = fitted.slice(sent, sent + ctx.actionCap);
    return rest.length ? structuredClone(rest) : null;
  },
};

/** Turns a blind prober may spend. */
const PROBE_TURNS = 20;
/** Continuous tools get this many sampled argument sets. */
const PROBE_SAMPLES = 48;

/**
 * Probes without looking: tries every call it can list (every enumerable argument set, and
 * samples of continuous ones) in a seeded order, a turn at a time, never repeating a call that
 * was refused as invalid, and keeps whatever the world accepts. With a commit-style `final`
 * tool that takes no arguments it commits in its last turn.
 */
export const blindProbe: SightlessStrategy = {
  name: 'blind-probe',
  description: 'tries every listable call in a seeded order, keeps what is accepted, never repeats a refused call, then commits',
  bound: DEFAULT_SIGHTLESS_BOUND,
  applies: (view) => view.tools.some((t) => t.kind === 'physical' || t.kind === 'discrete' || t.kind === 'timed'),
  maxTurns: PROBE_TURNS,
  next(ctx) {
    const rng = new Rng(`blind-probe/${ctx.seed}/${ctx.view.id}`);
    const acting = ctx.view.tools.filter((t) => t.kind === 'physical' || t.kind === 'discrete' || t.kind === 'timed');
    const pool: ToolCall[] = [];
    for (const t of acting) {
      const all = enumerateSchema(t.parameters, 256);
      if (all) for (const args of all) pool.push({ tool: t.name, args: args as Record<string, unknown> });
      else for (let i = 0; i < PROBE_SAMPLES; i++) {
        const c = sampleCall(t, rng, ctx.view.tools);
        if (c) pool.push(c);
      }
    }
    const order = rng.shuffle(pool);
    const refused = new Set<string>();
    let tried = 0;
    for (const turn of ctx.history) for (const r of turn) {
      if (r.status === 'invalid') refused.add(canonicalJson(r.call));
      if (r.status !== 'not-run') tried++;
    }
    const commit = ctx.view.tools.find((t) => t.kind === 'final' && ((t.parameters as Schema).required ?? []).length === 0);
    const last = ctx.turnsLeft <= 1 || ctx.turn >= PROBE_TURNS;
    if (last) return commit ? [{ tool: commit.name, args: {} }] : null;
    const calls: ToolCall[] = [];
    for (let i = 0; i < order.length && calls.length < ctx.actionCap; i++) {
      const c = order[(tried + i) % order.length];
      if (!refused.has(canonicalJson(c))) calls.push(c);
    }
    return calls.length ? calls : null;
  },
};

type Motion = [number, number, number];

function isTranslate(t: ToolSpec): boolean {
  const p = (t.parameters as Schema).properties ?? {};
  return t.kind === 'physical' && 'dx_m' in p && 'dy_m' in p && 'dz_m' in p;
}

/**
 * Moves the held part in one straight line by the typical net displacement of other seeds'
 * references (the median of each axis), split into calls within the tool's step limit — what
 * a model that aims at "where the goal usually is" would do.
 */
export const straightLine: SightlessStrategy<{ tool: string; motion: Motion } | undefined> = {
  name: 'straight-line',
  description: "moves the part straight by the median net displacement of other seeds' references",
  bound: DEFAULT_SIGHTLESS_BOUND,
  applies: (view) => view.tools.some(isTranslate),
  maxTurns: 4,
  fit(training) {
    const tool = training[0]?.instance.tools.find(isTranslate);
    if (!tool) return undefined;
    const nets: Motion[] = training.map((t) => {
      const m: Motion = [0, 0, 0];
      for (const c of t.reference.calls) {
        if (c.tool !== tool.name) continue;
        m[0] += Number(c.args.dx_m ?? 0);
        m[1] += Number(c.args.dy_m ?? 0);
        m[2] += Number(c.args.dz_m ?? 0);
      }
      return m;
    });
    return { tool: tool.name, motion: [0, 1, 2].map((i) => median(nets.map((n) => n[i]))) as Motion };
  },
  next(ctx, fitted) {
    if (!fitted || ctx.turn > 1) return null;
    const tool = ctx.view.tools.find((t) => t.name === fitted.tool)!;
    const props = (tool.parameters as Schema).properties as Record<string, { maximum?: number }>;
    const step = Math.min(...['dx_m', 'dy_m', 'dz_m'].map((k) => props[k]?.maximum ?? Infinity));
    const span = Math.max(...fitted.motion.map(Math.abs));
    const parts = Math.max(1, Math.min(ctx.actionCap, Math.ceil(span / step)));
    const f = (v: number): number => Math.round((v / parts) * 1e6) / 1e6;
    return Array.from({ length: parts }, () => ({ tool: fitted.tool, args: { dx_m: f(fitted.motion[0]), dy_m: f(fitted.motion[1]), dz_m: f(fitted.motion[2]) } }));
  },
};

/** The shared strategies, in the order reports list them (null and random run as agents of their own). */
export const SHARED_STRATEGIES: readonly SightlessStrategy[] = [constantAnswer, firstOption, memorisedPlan, blindProbe, straightLine] as SightlessStrategy[];
