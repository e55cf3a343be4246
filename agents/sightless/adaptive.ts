import { createHash } from 'node:crypto';
import { canonicalJson } from '../../core/canonical-json.ts';
import { Rng } from '../../core/rng.ts';
import { instanceView } from '../../tasks/instance-view.ts';
import type { AdaptiveTools, SightlessContext, SightlessResult, SightlessStrategy, SightlessView, SimulatedWorld } from '../../tasks/sightless.ts';
import type { Instance, JsonSchema, ToolCall, ToolSpec } from '../../tasks/types.ts';
import { DEFAULT_SIGHTLESS_BOUND, answerOptions, answerTool, CHOICE_MARGIN } from './shared.ts';
import { CpuCapSpent } from './simulate.ts';

/**
 * The battery's adaptive sightless agents (issue 36 item 3): agents that never look but read
 * every word of feedback, keep what they learn and reason over what the generator could have
 * drawn — what a text-only model that knows the benchmark's public code could do.
 *
 * - *reconstruct-then-plan* samples the family's generator (or takes the family's own
 *   `candidates`), keeps the instances whose rules, title and tools read exactly like this one
 *   (a metric number in the text narrows them at once), then plays the probe that best splits
 *   the survivors' simulated outcomes (status and exact message, each distinct message being
 *   feedback), and once few remain plays a survivor's reference, trying them in turn.
 * - *probe-and-map* first probes every piece in every direction (every listable call at its
 *   smallest step, each accepted one undone by its inverse), then reconstructs and plans alike.
 * - *feel-your-way* needs no model: line search with bisection on ok/refused along the
 *   directions the rules point to (down into a hole, out along a corridor), then the others in
 *   a seeded order.
 *
 * Simulation runs the real engine with the family's own code on candidate instances
 * ({@link AdaptiveTools}); work shared by a tier's episodes (the pool, the probing tree, the
 * candidates' references) is computed once per tier.
 */

/** Generator seeds sampled per tier when the family offers no `candidates`. */
export const CANDIDATE_POOL = 2000;
/**
 * Seeds sampled per tier for a family whose only tool is its answer: there is nothing to probe,
 * so the agent's one decision is the answer most common among the survivors, and 200 draws
 * estimate that prior well. 2,000 of V1's slow draws cost 4,600 s of CPU a run and spent the
 * agent's cap before it played (99 of 100 episodes given up; issue 35).
 */
export const ANSWER_POOL = 200;
/** Most survivors whose references are computed and tried in turn. */
const PLAN_LIMIT = 3;
/** Survivors sampled to score a probe (its outcome split); few, since scoring previews every probe on each. */
const PROBE_SAMPLE = 16;
/** Fewest survivors a probe is scored on when there are many probes. */
const MIN_PROBE_SAMPLE = 4;
/**
 * Previews one node of the probing tree may cost (survivors sampled × probes scored): with many
 * probes the sample shrinks to {@link MIN_PROBE_SAMPLE}, then the probes are spread. Scoring all
 * 166 of A1-L7's probes on 16 survivors (2,656 settled previews) spent the tier's shared minute
 * on one node, and the episodes after it went on unfiltered.
 */
const PREVIEWS_PER_NODE = 384;
/** Probes scored per decision. */
const MAX_PROBES = 160;

type Schema = JsonSchema & {
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  const?: unknown;
  type?: unknown;
  minimum?: number;
  maximum?: number;
  prefixItems?: Schema[];
  minItems?: number;
};

/** Bounds allowed to an agent: chance plus margin for a listed-option answer, else the default. */
function adaptiveBound(view: SightlessView): number {
  const tool = answerTool(view);
  const opts = tool ? answerOptions(tool) : null;
  return opts ? Math.min(1, 1 / opts.options.length + CHOICE_MARGIN) : DEFAULT_SIGHTLESS_BOUND;
}

function acting(view: Pick<SightlessView, 'tools'>): ToolSpec[] {
  return view.tools.filter((t) => t.kind === 'physical' || t.kind === 'discrete' || t.kind === 'timed');
}

/** What an agent reads of an instance, as one key: title, rules, tools (with every description) and budgets. */
export function textKey(view: Pick<SightlessView, 'title' | 'rules' | 'tools' | 'budgets'>): string {
  return canonicalJson([view.title, view.rules, view.tools.map((t) => [t.name, t.kind, t.description, t.parameters]), view.budgets]);
}

function digest(s: string): string {
  return createHash('sha1').update(s).digest('hex');
}

/** The calls that ran (ok, rolled back or refused), oldest first. */
function ranOf(history: SightlessResult[][]): SightlessResult[] {
  return history.flat().filter((r) => r.status !== 'not-run');
}

function outcomeKey(r: { status: string; message: string }): string {
  return `${r.status}|${r.message}`;
}

/** Small discrete value sets of one schema node, for probes; null when the node is continuous. */
function discreteValues(n: Schema | undefined): unknown[] | null {
  if (!n) return null;
  if ('const' in n) return [n.const];
  if (Array.isArray(n.enum)) return n.enum;
  const alts = n.oneOf ?? n.anyOf;
  if (Array.isArray(alts)) {
    for (const a of alts) {
      const v = discreteValues(a);
      if (v) return v;
    }
    return null;
  }
  if (n.type === 'boolean') return [false, true];
  if (n.type === 'integer' && n.minimum !== undefined && n.maximum !== undefined) {
    const span = n.maximum - n.minimum;
    return span <= 4 ? Array.from({ length: span + 1 }, (_, i) => n.minimum! + i) : [n.minimum, n.maximum];
  }
  if (n.type === 'array') {
    if (Array.isArray(n.prefixItems)) {
      let out: unknown[][] = [[]];
      for (const item of n.prefixItems) {
        const vs = discreteValues(item);
        if (!vs) return null;
        out = out.flatMap((o) => vs.map((v) => [...o, v]));
        if (out.length > 64) return null;
      }
      return out;
    }
    if ((n.minItems ?? 0) === 0) return [[]];
  }
  return null;
}

function isNumber(n: Schema | undefined): boolean {
  return !!n && (n.type === 'number' || n.type === 'integer') && !Array.isArray(n.enum);
}

/**
 * Probes of one tool: every combination of its small discrete arguments, and for each numeric
 * argument one at a time (the others omitted or zero) a ladder of steps both ways — "every
 * piece in every direction" for boards, "every axis at several lengths" for continuous moves.
 */
export function probesOf(tool: ToolSpec): ToolCall[] {
  const p = tool.parameters as Schema;
  const props = p.properties ?? {};
  const required = new Set(p.required ?? []);
  const discrete: Array<[string, unknown[]]> = [];
  const numeric: string[] = [];
  // Integer arguments (a number of cells) vary slowest, so every piece and direction is probed
  // at the smallest step before any at a longer one.
  const entries = Object.entries(props).sort((a, b) => Number(b[1].type === 'integer') - Number(a[1].type === 'integer'));
  for (const [k, n] of entries) {
    const d = discreteValues(n);
    if (d) discrete.push([k, d]);
    else if (isNumber(n)) numeric.push(k);
    else if (required.has(k)) return [];
  }
  let bases: Record<string, unknown>[] = [{}];
  for (const [k, vs] of discrete) {
    // Optional discrete arguments keep their first value (an empty turn list, the smallest step).
    const values = required.has(k) ? vs : vs.slice(0, 1);
    bases = bases.flatMap((b) => values.map((v) => ({ ...b, [k]: structuredClone(v) })));
    if (bases.length > MAX_PROBES) bases = bases.slice(0, MAX_PROBES);
  }
  if (numeric.length === 0) return bases.map((args) => ({ tool: tool.name, args }));
  const out: ToolCall[] = [];
  for (const b of bases) {
    for (const k of numeric) {
      const n = props[k];
      const hi = Math.min(Math.abs(n.maximum ?? 1), Math.abs(n.minimum ?? -1));
      for (const f of [1 / 8, 1 / 32]) {
        for (const sign of [1, -1]) {
          const args: Record<string, unknown> = { ...b };
          for (const other of numeric) if (required.has(other)) args[other] = 0;
          args[k] = Math.round(sign * hi * f * 1e6) / 1e6;
          out.push({ tool: tool.name, args });
        }
      }
    }
  }
  return out.slice(0, MAX_PROBES);
}

const OPPOSITES: Record<string, string> = {
  north: 'south', south: 'north', east: 'west', west: 'east', up: 'down', down: 'up', left: 'right', right: 'left',
  'x+': 'x-', 'x-': 'x+', 'y+': 'y-', 'y-': 'y+', 'z+': 'z-', 'z-': 'z+', '+x': '-x', '-x': '+x', '+y': '-y', '-y': '+y', '+z': '-z', '-z': '+z',
  cw: 'ccw', ccw: 'cw', clockwise: 'counterclockwise', counterclockwise: 'clockwise', forward: 'back', back: 'forward',
};

/**
 * The call that undoes `call`, when one can be named from the schema alone: the opposite
 * direction (north ↔ south …), the negated numbers of a move or a turn, or a `remove` of a
 * placed piece. Null when there is none.
 */
export function inverseOf(call: ToolCall, tools: ToolSpec[]): ToolCall | null {
  const args = structuredClone(call.args);
  let changed = false;
  for (const [k, v] of Object.entries(args)) {
    if (typeof v === 'string' && OPPOSITES[v] !== undefined) {
      args[k] = OPPOSITES[v];
      changed = true;
    } else if (typeof v === 'number' && v !== 0 && !/cells|count|steps|n$/.test(k)) {
      args[k] = -v;
      changed = true;
    }
  }
  if (changed) return { tool: call.tool, args };
  const remover = tools.find((t) => t.name !== call.tool && /^(remove|take|lift|undo)/.test(t.name));
  if (remover) {
    const req = ((remover.parameters as Schema).required ?? []) as string[];
    if (req.every((k) => k in call.args)) return { tool: remover.name, args: Object.fromEntries(req.map((k) => [k, structuredClone(call.args[k])])) };
  }
  return null;
}

/** A candidate world and its key (its scene, canonical). */
interface Candidate {
  instance: Instance;
  key: string;
}

/** The candidate pool of a tier, grouped by what an agent reads. */
type Pool = Map<string, Candidate[]>;

async function poolOf(tools: AdaptiveTools, view: SightlessView): Promise<Candidate[]> {
  const text = textKey(view);
  const family = tools.family;
  if (family.candidates) {
    return tools.precompute(`candidates:${digest(text)}`, () => dedupe([...family.candidates!(view, tools.tier)]));
  }
  const pool = await tools.precompute<Pool>('pool', () => generatedPool(tools, acting(view).length ? CANDIDATE_POOL : ANSWER_POOL));
  return pool.get(digest(text)) ?? [];
}

/**
 * The generator's pool for a tier, made once and shared by every adaptive strategy of the tier
 * (probe-and-map and reconstruct-then-plan draw the same seeds): it depends only on the family,
 * its version, the tier and the seeds sampled, so sharing changes no result, and a slow
 * generator (P1-L5, V1) is paid for once instead of once per strategy. One pool is kept (the
 * battery plays a tier's strategies one after another), so memory stays one tier's pool.
 */
let lastPool: { key: string; pool: Pool } | null = null;

function generatedPool(tools: AdaptiveTools, size: number): Pool {
  const family = tools.family;
  const seeds = tools.sampleSeeds(size);
  const key = `${family.id}/${family.version}/${tools.tier}/${digest(seeds.join(','))}`;
  if (lastPool?.key === key) return lastPool.pool;
  const pool: Pool = new Map();
  const seen = new Set<string>();
  for (const seed of seeds) {
    let instance: Instance;
    try {
      instance = family.generate(seed, tools.tier);
    } catch {
      continue;
    }
    const scene = canonicalJson(instance.scene);
    if (seen.has(scene)) continue;
    seen.add(scene);
    const k = digest(textKey(instanceView(instance)));
    let g = pool.get(k);
    if (!g) pool.set(k, (g = []));
    g.push({ instance, key: scene });
  }
  lastPool = { key, pool };
  return pool;
}

function dedupe(instances: Instance[]): Candidate[] {
  const seen = new Set<string>();
  const out: Candidate[] = [];
  for (const instance of instances) {
    const key = canonicalJson(instance.scene);
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ instance, key });
    }
  }
  return out;
}

function historyKey(view: SightlessView, ran: SightlessResult[]): string {
  return digest(textKey(view) + canonicalJson(ran.map((r) => [r.call, r.status, r.message])));
}

/**
 * The candidates whose simulated outcomes match every call that ran (one node of the tier's
 * probing tree). A node's children are made together: every candidate of the parent is
 * simulated once with the new call and filed under its outcome, so episodes that meet another
 * outcome of the same probe find their node made.
 */
async function survivors(tools: AdaptiveTools, view: SightlessView, ran: SightlessResult[]): Promise<Candidate[]> {
  if (ran.length === 0) return poolOf(tools, view);
  const before = ran.slice(0, -1);
  const last = ran[ran.length - 1];
  const split = await tools.shared(`split:${historyKey(view, before)}:${canonicalJson(last.call)}`, async () => {
    const parent = await survivors(tools, view, before);
    const calls = ran.map((r) => r.call);
    const byOutcome = new Map<string, Candidate[]>();
    for (const c of parent) {
      const out = await tools.simulate(c.instance, calls);
      const r = out[calls.length - 1];
      if (!r) continue;
      const k = outcomeKey(r);
      let g = byOutcome.get(k);
      if (!g) byOutcome.set(k, (g = []));
      g.push(c);
    }
    return byOutcome;
  }, { uncapped: true });
  return split.get(outcomeKey(last)) ?? [];
}

/**
 * The candidates whose simulated outcomes match every call that ran, filtered in one pass
 * (probe-and-map, after its whole schedule and each plan it tried): each candidate's live world
 * plays only the calls it has not played yet (see `AdaptiveTools.simulate`).
 */
async function survivorsAtOnce(tools: AdaptiveTools, view: SightlessView, ran: SightlessResult[], base: Candidate[]): Promise<Candidate[]> {
  return tools.shared(
    `all:${historyKey(view, ran)}`,
    async () => {
      const kept: Candidate[] = [];
      const calls = ran.map((r) => r.call);
      const want = ran.map(outcomeKey);
      for (const c of base) {
        const out = await tools.simulate(c.instance, calls);
        if (out.length === calls.length && out.every((o, i) => outcomeKey(o) === want[i])) kept.push(c);
      }
      return kept;
    },
    { uncapped: true },
  );
}

/** Up to `n` members spread evenly over `xs`. */
function spread<T>(xs: T[], n: number): T[] {
  if (xs.length <= n) return xs;
  return Array.from({ length: n }, (_, i) => xs[Math.floor((i * xs.length) / n)]);
}

/** The probe whose outcomes split the survivors best (least expected share left); null when none splits them. */
async function bestProbe(tools: AdaptiveTools, view: SightlessView, ran: SightlessResult[], alive: Candidate[]): Promise<ToolCall | null> {
  return tools.shared(`probe:${historyKey(view, ran)}`, async () => {
    const all = acting(view).flatMap(probesOf);
    if (all.length === 0) return null;
    const size = Math.max(MIN_PROBE_SAMPLE, Math.min(PROBE_SAMPLE, Math.floor(PREVIEWS_PER_NODE / all.length)));
    const sample = spread(alive, size);
    const probes = spread(all, Math.max(1, Math.floor(PREVIEWS_PER_NODE / sample.length)));
    const outcomes: string[][] = probes.map(() => []);
    const calls = ran.map((r) => r.call);
    for (const c of sample) {
      const seen = await tools.previewAfter(c.instance, calls, probes);
      seen.forEach((o, i) => outcomes[i].push(outcomeKey(o)));
    }
    let best: { probe: ToolCall; score: number } | null = null;
    probes.forEach((probe, i) => {
      const counts = new Map<string, number>();
      for (const o of outcomes[i]) counts.set(o, (counts.get(o) ?? 0) + 1);
      let score = 0;
      for (const n of counts.values()) score += (n / sample.length) ** 2;
      if (!best || score < best.score - 1e-12) best = { probe, score };
    });
    const b = best as { probe: ToolCall; score: number } | null;
    return b && b.score < 1 - 1e-12 ? b.probe : null;
  }, { uncapped: true });
}

/** A script the agent is playing: a probe with its undo, a survivor's reference, or the undo of a failed plan. */
interface Script {
  kind: 'probe' | 'plan' | 'undo';
  calls: ToolCall[];
  /** How many calls had run when it started. */
  start: number;
  /** The plan's key (its calls), to try each plan once. */
  key?: string;
}

interface EpisodeState {
  script: Script | null;
  /** The survivors last computed (the pool before any call). */
  alive: Candidate[];
  /** Set once the tier's shared work was spent: the agent plays `alive`'s references without filtering further. */
  degraded?: string;
  tried: Set<string>;
  /** Probe-and-map: the systematic probes still to play, each a probe and its undo (or the undo alone, still owed). */
  schedule: ToolCall[][] | null;
  /** Which schedule entries the last turn sent, call by call (entry, position in it). */
  sent: Array<[number, number]>;
  /** Probe-and-map: how many calls had run when the schedule was done (its transcript's length). */
  probed?: number;
}

/**
 * Probe-and-map's systematic schedule: each probe with its undo. Probing may take at most half
 * the turns (a refused probe ends its turn) and, where the episode has an action budget that
 * counts refused calls, a third of it, so a plan still fits after the map is made.
 */
function probeSchedule(view: SightlessView): ToolCall[][] {
  const actions = view.budgets.actions;
  const most = Math.min(MAX_PROBES, Math.floor(view.budgets.turns / 2), actions === undefined ? Infinity : Math.floor(actions / 3));
  return acting(view)
    .flatMap(probesOf)
    .slice(0, most)
    .map((p) => {
      const inv = inverseOf(p, view.tools);
      return inv ? [p, inv] : [p];
    });
}

function stateOf(tools: AdaptiveTools, systematic: boolean, view: SightlessView): EpisodeState {
  let s = tools.episodeMemo.get('state') as EpisodeState | undefined;
  if (!s) {
    s = { script: null, alive: [], tried: new Set(), schedule: systematic ? probeSchedule(view) : null, sent: [] };
    tools.episodeMemo.set('state', s);
  }
  return s;
}

/** Key of the calls that ran and what each returned (status and exact message). */
function transcriptKey(ran: Array<{ call: ToolCall; status: string; message: string }>): string {
  return digest(canonicalJson(ran.map((r) => [r.call, r.status, r.message])));
}

/**
 * What probe-and-map's schedule would have run, and read, had `world` been the episode's world:
 * the loop's turns replayed exactly (the schedule packed up to the action cap, a turn stopped at
 * its first refused or rolled-back call, the calls after it not run and owed to the next turn,
 * the episode over once it ends or its action budget is spent). The agent's calls depend only on
 * what earlier calls returned, so a candidate whose transcript equals the episode's is exactly one
 * the episode's outcomes do not rule out.
 */
function scheduleTranscript(world: SimulatedWorld, view: SightlessView, cap: number): string {
  const st: EpisodeState = { script: null, alive: [], tried: new Set(), schedule: probeSchedule(view), sent: [] };
  const budget = view.budgets.actions ?? Infinity;
  const ran: SightlessResult[] = [];
  let lastTurn: SightlessResult[] = [];
  let spent = 0;
  let ended = false;
  for (let turn = 0; turn < view.budgets.turns && !ended && (st.schedule!.length || st.sent.length); turn++) {
    const calls = scheduleTurn(st, lastTurn, cap);
    if (!calls.length) break;
    lastTurn = [];
    let stopped = false;
    for (const call of calls) {
      if (stopped || ended || spent >= budget) {
        lastTurn.push({ call, status: 'not-run', message: '' });
        continue;
      }
      const r = world.execute(call);
      const result: SightlessResult = { call, status: r.status, message: r.message };
      lastTurn.push(result);
      if (r.status !== 'not-run') ran.push(result);
      if (r.status === 'ok' || r.status === 'violation') spent++;
      if (r.status === 'violation' || r.status === 'invalid') stopped = true;
      if (r.ended) ended = true;
    }
    if (spent >= budget) ended = true;
  }
  return transcriptKey(ran);
}

/**
 * Every candidate of the pool that reads like `view`, grouped by its transcript of the probe
 * schedule ({@link scheduleTranscript}), made once per tier: each candidate world is opened and
 * probed once, instead of once per episode (issue 35: P1-L5's episodes each opened 2,000 worlds).
 */
async function transcriptGroups(tools: AdaptiveTools, view: SightlessView, cap: number): Promise<Map<string, Candidate[]>> {
  return tools.precompute(`transcripts:${cap}:${digest(textKey(view))}`, async () => {
    const groups = new Map<string, Candidate[]>();
    const pool = await poolOf(tools, view);
    for (const c of pool) {
      const w = await tools.open(c.instance);
      let key: string;
      try {
        key = scheduleTranscript(w, view, cap);
      } finally {
        w.free();
      }
      let g = groups.get(key);
      if (!g) groups.set(key, (g = []));
      g.push(c);
    }
    let largest = 0;
    for (const g of groups.values()) largest = Math.max(largest, g.length);
    const spread: TranscriptSpread = { pool: pool.length, transcripts: groups.size, largest };
    tools.tierMemo.set(TRANSCRIPT_SPREAD_MEMO, spread);
    return groups;
  });
}

/**
 * How far probe-and-map's fixed probe schedule tells the tier's candidate worlds apart by text
 * alone: the pool's size, how many distinct transcripts (calls, statuses and exact messages)
 * its worlds give, and the largest group that reads alike. One transcript means the text of
 * those probes tells no world from another, so filtering on it cannot narrow anything.
 */
export interface TranscriptSpread {
  pool: number;
  transcripts: number;
  largest: number;
}

/** Key of the tier memo entry holding the {@link TranscriptSpread} (read by the battery). */
export const TRANSCRIPT_SPREAD_MEMO = 'report:transcript-spread';

/**
 * Probe-and-map's survivors: the candidates whose schedule transcript is the episode's (looked
 * up), then filtered by whatever ran after the schedule (the plans tried so far).
 */
async function mappedSurvivors(tools: AdaptiveTools, view: SightlessView, ran: SightlessResult[], st: EpisodeState, cap: number): Promise<Candidate[]> {
  if (st.probed === undefined) st.probed = ran.length;
  const groups = await transcriptGroups(tools, view, cap);
  const mapped = groups.get(transcriptKey(ran.slice(0, st.probed))) ?? [];
  if (ran.length === st.probed) return mapped;
  // The survivors of a longer history are among those of any shorter one: filter the last ones
  // computed (the mapped group itself after the first plan), not the group again.
  return survivorsAtOnce(tools, view, ran, st.alive.length ? st.alive : mapped);
}

/** Key of an episode memo entry saying the episode went on past the tier's shared-work cap (read by the battery). */
export const DEGRADED_MEMO = 'degraded';

/** Switches an episode to playing its last survivors' references (see {@link reconstructTurn}). */
function degrade(tools: AdaptiveTools, st: EpisodeState, err: CpuCapSpent): void {
  st.degraded = err.message.replace(/^gave up: /, '');
  tools.episodeMemo.set(DEGRADED_MEMO, `went on unfiltered: ${st.degraded}`);
}

/**
 * The next turn of probe-and-map's schedule, packed up to the action cap: first settles what
 * the last turn's probes did (a refused probe is done; an accepted one still owes its undo if
 * that did not run; a probe that did not run goes back in the queue), then sends the next.
 */
function scheduleTurn(st: EpisodeState, lastTurn: SightlessResult[], cap: number): ToolCall[] {
  const schedule = st.schedule!;
  const owed: ToolCall[][] = [];
  const byEntry = new Map<number, SightlessResult[]>();
  st.sent.forEach(([entry], i) => {
    const r = lastTurn[i];
    if (!byEntry.has(entry)) byEntry.set(entry, []);
    if (r) byEntry.get(entry)!.push(r);
  });
  for (const [entry, results] of byEntry) {
    const calls = schedule[entry];
    const firstUnrun = results.findIndex((r) => r.status === 'not-run');
    const refused = results.some((r) => r.status === 'violation' || r.status === 'invalid');
    if (firstUnrun === -1 && results.length === calls.length) continue;
    if (firstUnrun === 0 || results.length === 0) owed.push(calls);
    else if (!refused) owed.push(calls.slice(firstUnrun === -1 ? results.length : firstUnrun));
  }
  // Drop the entries just sent; owed ones go first.
  const sentEntries = new Set(st.sent.map(([e]) => e));
  const rest = schedule.filter((_, i) => !sentEntries.has(i));
  st.schedule = [...owed, ...rest];
  st.sent = [];
  const out: ToolCall[] = [];
  for (let e = 0; e < st.schedule.length; e++) {
    const calls = st.schedule[e];
    if (out.length + calls.length > cap) break;
    calls.forEach((c, i) => {
      out.push(c);
      st.sent.push([e, i]);
    });
  }
  return out;
}

/** The undo of the calls of a script that were accepted, last first; null when one cannot be undone. */
function undoOf(ran: SightlessResult[], start: number, tools: ToolSpec[]): ToolCall[] | null {
  const undo: ToolCall[] = [];
  for (let i = ran.length - 1; i >= start; i--) {
    if (ran[i].status !== 'ok') continue;
    const inv = inverseOf(ran[i].call, tools);
    if (!inv) return null;
    undo.push(inv);
  }
  return undo;
}

/**
 * One turn of an adaptive reconstructing agent: go on with the script in hand, or pick the
 * next — a probe that splits the survivors, or the reference of the survivors' most common plan.
 */
async function reconstructTurn(ctx: SightlessContext, systematic: boolean): Promise<ToolCall[] | null> {
  const tools = ctx.tools;
  if (!tools) return null;
  const view = ctx.view;
  const st = stateOf(tools, systematic, view);
  const ran = ranOf(ctx.history);
  for (let guard = 0; guard < 4; guard++) {
    const sc = st.script;
    if (sc) {
      const done = ran.length - sc.start;
      const refused = ran.slice(sc.start).some((r) => r.status !== 'ok');
      if (!refused && done < sc.calls.length) return sc.calls.slice(done, done + ctx.actionCap);
      st.script = null;
      if (sc.kind === 'plan') {
        // The plan ran out or was refused without solving: undo it and try the next survivor.
        const undo = undoOf(ran, sc.start, view.tools);
        if (!undo) return null;
        if (undo.length) {
          st.script = { kind: 'undo', calls: undo, start: ran.length };
          continue;
        }
      }
    }
    if (st.schedule && (st.schedule.length || st.sent.length)) {
      const calls = scheduleTurn(st, ctx.history[ctx.history.length - 1] ?? [], ctx.actionCap);
      if (calls.length) return calls;
    }
    let alive: Candidate[];
    if (st.degraded) alive = st.alive;
    else {
      try {
        alive = systematic ? await mappedSurvivors(tools, view, ran, st, ctx.actionCap) : await survivors(tools, view, ran);
      } catch (err) {
        // The tier's shared work (filtering the pool, the probing tree) was spent: rather than
        // give up, go on as an agent short of time would — play the references of the
        // candidates it had narrowed to so far, unfiltered by the calls since.
        if (!(err instanceof CpuCapSpent) || !err.tierShared) throw err;
        if (!st.alive.length) st.alive = await poolOf(tools, view);
        if (!st.alive.length) throw err;
        degrade(tools, st, err);
        alive = st.alive;
      }
    }
    if (alive.length === 0) return null;
    if (!st.degraded) st.alive = alive;
    const plans = new Map<string, { calls: ToolCall[]; n: number }>();
    if (alive.length > PLAN_LIMIT && !systematic && !st.degraded) {
      let probe: ToolCall | null = null;
      try {
        probe = await bestProbe(tools, view, ran, alive);
      } catch (err) {
        if (!(err instanceof CpuCapSpent) || !err.tierShared) throw err;
        degrade(tools, st, err);
      }
      if (probe) {
        const inv = inverseOf(probe, view.tools);
        st.script = { kind: 'probe', calls: inv ? [probe, inv] : [probe], start: ran.length };
        continue;
      }
    }
    // Few survivors (or none of the probes tells them apart): their references, most common
    // first. With nothing to probe (an answer-only family) every survivor votes, so the answer
    // played is the one the sampled prior favours.
    for (const c of spread(alive, acting(view).length ? PLAN_LIMIT : ANSWER_POOL)) {
      const ref = await tools.shared(`ref:${digest(c.key)}`, async () => {
        try {
          return (await tools.reference(c.instance)).calls;
        } catch {
          return null;
        }
      });
      if (!ref) continue;
      const perception = new Set(view.tools.filter((t) => t.kind === 'perception').map((t) => t.name));
      const calls = ref.filter((x) => !perception.has(x.tool));
      const k = canonicalJson(calls);
      if (st.tried.has(k)) continue;
      const p = plans.get(k);
      if (p) p.n++;
      else plans.set(k, { calls, n: 1 });
    }
    let pick: [string, { calls: ToolCall[]; n: number }] | undefined;
    for (const e of plans) if (!pick || e[1].n > pick[1].n) pick = e;
    if (!pick) return null;
    st.tried.add(pick[0]);
    st.script = { kind: 'plan', calls: pick[1].calls, start: ran.length, key: pick[0] };
  }
  return null;
}

/**
 * Reconstruct-then-plan: the instances the generator could have drawn that read like this one,
 * narrowed by probes that split their simulated outcomes, then a survivor's reference.
 */
export const reconstructThenPlan: SightlessStrategy = {
  name: 'reconstruct-then-plan',
  description:
    "samples the generator (or the family's candidates), keeps instances whose text reads alike and whose simulated outcomes match every call so far (probing to split them), plays a survivor's reference, then the next",
  bound: DEFAULT_SIGHTLESS_BOUND,
  adaptive: true,
  boundFor: adaptiveBound,
  applies: (view) => acting(view).length > 0 || answerTool(view) !== undefined,
  next: (ctx) => reconstructTurn(ctx, false),
};

/**
 * Probe-and-map: every piece in every direction first (each accepted probe undone), then the
 * worlds consistent with every outcome, solved by the family's solver and tried in turn.
 */
export const probeAndMap: SightlessStrategy = {
  name: 'probe-and-map',
  description:
    'probes every listable call at its smallest step (undoing accepted ones), keeps the candidate worlds whose simulated outcomes match every message, solves survivors with the family solver and tries them in turn',
  bound: DEFAULT_SIGHTLESS_BOUND,
  adaptive: true,
  boundFor: adaptiveBound,
  applies: (view) => acting(view).some((t) => probesOf(t).length > 0),
  next: (ctx) => reconstructTurn(ctx, true),
};

type Vec = [number, number, number];

function translateTool(view: SightlessView): ToolSpec | undefined {
  return acting(view).find((t) => {
    const p = (t.parameters as Schema).properties ?? {};
    return t.kind === 'physical' && isNumber(p.dx_m) && isNumber(p.dy_m) && isNumber(p.dz_m) && !('axis' in p);
  });
}

/** Directions the rules point to first: down for a hole or a slot, then the level ones. */
function preferredDirections(view: SightlessView, seed: number): Vec[] {
  const rules = `${view.title} ${view.rules}`.toLowerCase();
  const level: Vec[] = [[1, 0, 0], [-1, 0, 0], [0, 0, 1], [0, 0, -1]];
  const order = new Rng(`feel-your-way/${seed}/${view.id}`).shuffle(level);
  const down: Vec = [0, -1, 0];
  const up: Vec = [0, 1, 0];
  if (/\b(hole|slot|insert|into|push|lower|down)\b/.test(rules)) return [down, ...order, up];
  if (/\b(off|out|free end|open end|lift)\b/.test(rules)) return [...order, up, down];
  return [...order, down, up];
}

interface FeelState {
  dir: number;
  step: number;
  sweeps: number;
}

/** Smallest step a line search bisects down to, as a share of the tool's range. */
const MIN_STEP_SHARE = 1 / 256;

/**
 * Feel-your-way: for a part moved by `translate`, line search along each direction the rules
 * point to — the longest step the tool allows, halved on every refusal (bisection on
 * ok/refused), repeated while accepted — following free space, then the next direction in a
 * seeded order, sweeping the directions until the turns run out.
 */
export const feelYourWay: SightlessStrategy = {
  name: 'feel-your-way',
  description: 'line search with bisection on ok/refused along the directions the rules point to (down into a hole, out along a corridor), then the others in a seeded order',
  bound: DEFAULT_SIGHTLESS_BOUND,
  adaptive: true,
  applies: (view) => translateTool(view) !== undefined,
  next(ctx) {
    const tool = translateTool(ctx.view);
    if (!tool) return null;
    const props = (tool.parameters as Schema).properties ?? {};
    const max = Math.min(...['dx_m', 'dy_m', 'dz_m'].map((k) => Math.abs(props[k]?.maximum ?? 0.5)));
    const dirs = preferredDirections(ctx.view, ctx.seed);
    const memo = ctx.tools?.episodeMemo ?? new Map<string, unknown>();
    let st = memo.get('feel') as FeelState | undefined;
    if (!st) memo.set('feel', (st = { dir: 0, step: max / 2, sweeps: 0 }));
    const lastTurn = ctx.history[ctx.history.length - 1];
    if (lastTurn) {
      const refused = lastTurn.some((r) => r.status === 'violation' || r.status === 'invalid');
      const moved = lastTurn.some((r) => r.status === 'ok');
      if (refused) {
        st.step /= 2;
        if (st.step < max * MIN_STEP_SHARE) {
          st.dir++;
          st.step = max / 2;
          if (st.dir >= dirs.length) {
            st.dir = 0;
            st.sweeps++;
          }
        }
      } else if (!moved) return null;
    }
    const d = dirs[st.dir];
    const f = (v: number): number => Math.round(v * st!.step * 1e6) / 1e6;
    const call: ToolCall = { tool: tool.name, args: { dx_m: f(d[0]), dy_m: f(d[1]), dz_m: f(d[2]) } };
    return Array.from({ length: ctx.actionCap }, () => structuredClone(call));
  },
};

/** The adaptive agents every family's battery runs, beside the shared strategies. */
export const ADAPTIVE_STRATEGIES: readonly SightlessStrategy[] = [probeAndMap, feelYourWay, reconstructThenPlan];
