import { SpaceActError } from '../core/errors.ts';
import { runEpisode } from '../agents/loop.ts';
import { DEFAULT_MODE } from '../agents/modes.ts';
import { NullAgent } from '../agents/null.ts';
import { RandomAgent } from '../agents/random-agent.ts';
import { scoreEpisode } from '../agents/scoring.ts';
import { ADAPTIVE_STRATEGIES, DEGRADED_MEMO, TRANSCRIPT_SPREAD_MEMO, type TranscriptSpread } from '../agents/sightless/adaptive.ts';
import { SightlessAgent } from '../agents/sightless/agent.ts';
import { SHARED_STRATEGIES } from '../agents/sightless/shared.ts';
import { EpisodeTools, processCpuSeconds, releaseTierMemo } from '../agents/sightless/simulate.ts';
import type { Agent, EpisodeOutcome } from '../agents/types.ts';
import { referenceSolution } from '../tasks/reference-cache.ts';
import { tiersOf } from '../tasks/registry.ts';
import { sightlessView, type FitTools, type ShortcutTell, type SightlessStrategy, type TrainingExample } from '../tasks/sightless.ts';
import type { Instance, TaskFamily, Tier, ToolCall } from '../tasks/types.ts';

/** Seeds per tier the battery judges on, unless told otherwise. */
export const DEFAULT_BATTERY_SEEDS = 100;
/** Seeds per tier a fitted strategy learns from, unless told otherwise. */
export const DEFAULT_BATTERY_TRAINING = 8;
/** Turn budget of a random episode in the battery (the instance's own budget when smaller). */
export const DEFAULT_BATTERY_RANDOM_TURNS = 20;
/**
 * The seeds the battery judges and trains on, unless the family says otherwise
 * (`TaskFamily.batterySeeds`): judged seeds 0 … n−1; training seeds from 200 past the last
 * judged one (and past the released seed 100), so a fitted strategy never learns from an
 * instance it is judged on.
 */
export function defaultBatterySeeds(count: number, purpose: 'judged' | 'training', judged = DEFAULT_BATTERY_SEEDS): number[] {
  const base = purpose === 'judged' ? 0 : Math.max(judged, 101) + 200;
  return Array.from({ length: count }, (_, i) => base + i);
}
/**
 * CPU seconds one adaptive episode may spend (its own reasoning and simulations) before the
 * agent gives up; the record counts such episodes (`gaveUp`). A tier's average is meant to
 * stay near half a second: the battery plays 100 seeds × every tier × every family.
 */
export const DEFAULT_EPISODE_CPU_CAP = 10;
/**
 * CPU seconds an adaptive strategy's work shared by a tier's episodes (its candidate pool, its
 * probing tree) may cost in all: a minute per tier, 0.6 s per episode over 100 seeds.
 */
export const DEFAULT_TIER_CPU_CAP = 60;
/**
 * CPU seconds one strategy's episodes may cost in all on one tier (its own reasoning, its
 * simulations and the loop). Past it, the tier's remaining episodes give up at once and count
 * in `gaveUp`: a prober that costs a minute an episode (M4's candidate prober under load) would
 * otherwise make `verify` run for hours. A record with give-ups says the strategy was judged on
 * fewer seeds than the tier's count; `verify` prints them.
 */
export const DEFAULT_STRATEGY_TIER_CPU_CAP = 300;
/** The seed every family releases (its fixtures); never judged, trained on or sampled by a strategy. */
const RELEASED_SEED = 100;
/** Success the random baseline may reach unless the family sets its own bound. */
const DEFAULT_RANDOM_BOUND = 0.1;

/** One battery agent's record on one tier. */
export interface BatteryAgentResult {
  /** e.g. `null`, `random`, `memorised-plan`, `visible-plus-c`. */
  name: string;
  /** `baseline` (null, random), `shared` strategy, the family's own `strategy`, or a `tell`. */
  source: 'baseline' | 'shared' | 'family' | 'tell';
  description: string;
  /** Episodes played (one per judged seed). */
  episodes: number;
  successes: number;
  rate: number;
  /** Mean tiered score over the episodes (null for pass/fail families). */
  meanScore: number | null;
  /** The success rate it must stay at or under. */
  bound: number;
  /**
   * `pass`: the rate is at or under the bound; `fail`: significantly over it (the chance of so
   * many successes at the bound is under {@link BATTERY_ALPHA}); `inconclusive`: over it, but
   * not significantly at this many seeds — add seeds.
   */
  verdict: BatteryVerdict;
  /**
   * Where the true rate lies: the Clopper–Pearson interval with {@link BATTERY_ALPHA} on each
   * side. The verdict is `fail` exactly when its lower end is above the bound.
   */
  interval: [number, number];
  /** Training seeds it was fitted on (fitted strategies and tells only). */
  training?: number;
  /** Not `fail` (an inconclusive result passes, and is counted apart). */
  passed: boolean;
  /** Up to five judged seeds it solved, to reproduce a failure. */
  solvedSeeds: number[];
  /** Mean CPU seconds per episode (the agent's own work, its simulations and the episode; not its precomputation). */
  cpuSeconds: number;
  /**
   * CPU seconds an adaptive agent spent once for the whole tier on work that depends only on
   * the family's public code (the generator's candidate pool, transcripts of a fixed probe
   * schedule); held against no cap (`AdaptiveTools.precompute`). Absent when none.
   */
  precomputeSeconds?: number;
  /** Episodes the agent gave up because its per-episode CPU cap was spent (adaptive agents). */
  gaveUp?: number;
  /** Up to three distinct reasons the give-ups gave (CPU figures elided), so a reader sees which cap was spent. */
  gaveUpReasons?: string[];
  /**
   * Adaptive episodes that went on after the tier's shared work (filtering the candidate pool,
   * the probing tree) hit its CPU cap: they played the references of the candidates narrowed to
   * so far without filtering by later calls — a real but weaker attempt than a full one.
   */
  unfiltered?: number;
  /**
   * `probe-and-map` only: how far its fixed probe schedule told the tier's candidate pool apart
   * by text (pool size, distinct transcripts, largest group that reads alike).
   */
  transcripts?: TranscriptSpread;
}

/** The reference replayed on one seed the battery plays that it does not solve (issue 36 item 6). */
export interface ReferenceFailure {
  /** The instance id, e.g. `P1-L7-s42`. */
  instance: string;
  purpose: 'judged' | 'training';
  /** Why: the replay ended unsolved (and how), or the solver threw. */
  reason: string;
}

/** The battery's record for one family and tier. */
export interface BatteryReport {
  family: string;
  tier: Tier;
  /** Judged seeds, in order. */
  seeds: number[];
  /**
   * Training seeds fitted strategies learned from. A strategy that asked for more
   * (`SightlessStrategy.training`) learned from this whole list; others from its first
   * `training` seeds (see each agent's `training`).
   */
  training: number[];
  agents: BatteryAgentResult[];
  /**
   * Seeds whose reference, replayed through the real loop, does not solve: the reference is
   * certified on every judged and training seed the battery plays, not only the released ones.
   * Any entry fails the tier.
   */
  referenceFailures: ReferenceFailure[];
  /** CPU seconds spent certifying the references (solving and replaying), for cost reports. */
  referenceSeconds: number;
  passed: boolean;
  /** Strategies that had nothing to try on this family, by name. */
  notApplicable: string[];
  seconds: number;
  /** Set when the tier could not be judged at all (a generator or solver threw). */
  error?: string;
}

/** Options of {@link runBattery}. */
export interface BatteryOptions {
  /** Judged seeds per tier (default 100). */
  seeds?: number;
  /** Training seeds per tier (default 8). */
  training?: number;
  /**
   * Give a strategy that asks for more training seeds (`SightlessStrategy.training`) that many
   * (default true). The quick battery turns it off and keeps every strategy to `training`.
   */
  strategyTraining?: boolean;
  /** Tiers to judge (default every tier the family defines). */
  tiers?: Tier[];
  /** Turn budget of each random episode (default 20). */
  randomTurns?: number;
  /**
   * Most turns of any battery episode, trials of fitted strategies included (default: no cap
   * beyond each agent's own). The quick battery caps episodes so long-horizon families stay
   * cheap; the full battery in `verify` plays them out.
   */
  episodeTurns?: number;
  /** Most trial episodes a fitted strategy may play while learning (default: as many as it asks). */
  fitTrials?: number;
  /** Replaces the shared and adaptive strategies (tests). */
  strategies?: readonly SightlessStrategy[];
  /** Per-episode CPU cap of adaptive strategies, seconds (default {@link DEFAULT_EPISODE_CPU_CAP}). */
  episodeCpuCap?: number;
  /**
   * Replay the reference on every judged and training seed (default true), or on this many of
   * them, judged seeds first (the quick battery: a long reference costs seconds per seed).
   */
  certifyReferences?: boolean | number;
  /** Leave out the baselines (null, random) and these strategies by name (the quick battery). */
  skip?: readonly string[];
  /** CPU seconds an adaptive strategy's tier-shared work may cost (default {@link DEFAULT_TIER_CPU_CAP}). */
  tierCpuCap?: number;
  /** Only these agents (by name, as in the records); absent: every agent but those in `skip`. */
  only?: readonly string[];
  /** Leave out every strategy marked `adaptive` (the quick battery). */
  skipAdaptive?: boolean;
  /** Called after each family × tier. */
  onReport?(r: BatteryReport): void;
  /**
   * Instances of a tier already made (or to be shared) by other checks of the same run: the
   * battery takes its judged and training instances from here instead of generating them again
   * (a slow generator is paid once per seed). Must give what `family.generate(seed, tier)` does.
   */
  instances?(tier: Tier): { get(seed: number): Instance };
}

/** The seeds of one purpose: the family's own choice, or {@link defaultBatterySeeds}; checked disjoint. */
function seedsOf(family: TaskFamily, count: number, purpose: 'judged' | 'training', judged: number): number[] {
  const out = family.batterySeeds ? family.batterySeeds(count, purpose, judged) : defaultBatterySeeds(count, purpose, judged);
  if (out.length !== count || out.some((x) => !Number.isInteger(x) || x < 0)) {
    throw new SpaceActError('invalid-state', `${family.id}: batterySeeds(${count}, ${purpose}) must give ${count} whole seeds`);
  }
  return out;
}

/**
 * The seeds the battery plays on each tier of a family with these options: the judged seeds and
 * one list of training seeds, as long as the most any strategy asks for (when strategies may
 * ask; each fits on a prefix of it). The reference is certified on all of them, and `verify`
 * holds all of them to the view rule: every seed the battery plays is a seed a model could be
 * shown.
 */
export function batterySeedLists(
  family: TaskFamily,
  opts: Pick<BatteryOptions, 'seeds' | 'training' | 'strategies' | 'strategyTraining'> = {},
): { judged: number[]; training: number[] } {
  const seeds = opts.seeds ?? DEFAULT_BATTERY_SEEDS;
  const trainingCount = opts.training ?? DEFAULT_BATTERY_TRAINING;
  const strategies = opts.strategies ?? [...SHARED_STRATEGIES, ...ADAPTIVE_STRATEGIES];
  const mostTraining = (opts.strategyTraining ?? true)
    ? Math.max(trainingCount, ...[...strategies, ...(family.sightless ?? [])].map((s) => s.training ?? 0))
    : trainingCount;
  return { judged: seedsOf(family, seeds, 'judged', seeds), training: seedsOf(family, mostTraining, 'training', seeds) };
}

/** A fixed script as a strategy: calls in order, a turn's worth at a time; a refused call is skipped. */
function scriptStrategy(calls: ToolCall[]): SightlessStrategy {
  return {
    name: 'script',
    description: 'a fixed script',
    bound: 1,
    next(ctx) {
      let sent = 0;
      for (const turn of ctx.history) for (const r of turn) if (r.status !== 'not-run') sent++;
      const rest = calls.slice(sent, sent + ctx.actionCap);
      return rest.length ? structuredClone(rest) : null;
    },
  };
}

/** Plays one agent on one instance through the real loop, without images. */
async function play(family: TaskFamily, instance: Instance, agent: Agent, maxTurns: number, cap = Infinity): Promise<EpisodeOutcome> {
  maxTurns = Math.min(maxTurns, cap);
  let turns = 0;
  return runEpisode({
    family,
    instance,
    agent,
    mode: DEFAULT_MODE,
    renderer: null,
    render: 'never',
    onTurn: () => {
      turns++;
    },
    shouldStop: () => turns >= maxTurns || (agent instanceof SightlessAgent && agent.done),
  });
}

function randomBound(family: TaskFamily, instance: Instance): number {
  const b = family.randomSuccessBound;
  return typeof b === 'function' ? b(instance) : (b ?? DEFAULT_RANDOM_BOUND);
}

/**
 * The shortcut battery on one family: agents that never see an image — the null policy, the
 * random baseline, the shared sightless strategies that apply (constant answer, first option,
 * memorised plan or fixed timing, blind probing, straight-line motion), the family's own
 * strategies and its tells — each played through the real episode loop on `seeds` seeds of
 * every tier, each held to its bound. Fitted strategies learn from `training` other seeds.
 * The result is deterministic: the same options give the same report (but the measured times
 * `seconds`, `referenceSeconds` and each agent's `cpuSeconds`; and an adaptive agent that hits
 * its CPU cap gives up where the machine's speed says, which its record counts in `gaveUp`).
 */
export async function runBattery(family: TaskFamily, opts: BatteryOptions = {}): Promise<BatteryReport[]> {
  const seeds = opts.seeds ?? DEFAULT_BATTERY_SEEDS;
  const trainingCount = opts.training ?? DEFAULT_BATTERY_TRAINING;
  const randomTurns = opts.randomTurns ?? DEFAULT_BATTERY_RANDOM_TURNS;
  const strategies = [...(opts.strategies ?? [...SHARED_STRATEGIES, ...ADAPTIVE_STRATEGIES])];
  const seedLists = batterySeedLists(family, opts);
  const reports: BatteryReport[] = [];
  for (const tier of opts.tiers ?? tiersOf(family)) {
    const started = performance.now();
    const report: BatteryReport = {
      family: family.id,
      tier,
      seeds: [...seedLists.judged],
      training: [...seedLists.training],
      agents: [],
      referenceFailures: [],
      referenceSeconds: 0,
      passed: false,
      notApplicable: [],
      seconds: 0,
    };
    try {
      const judgedSet = new Set(report.seeds);
      const overlap = report.training.filter((x) => judgedSet.has(x));
      if (overlap.length) throw new SpaceActError('invalid-state', `${family.id}: training seeds ${overlap.slice(0, 5).join(', ')} are also judged`);
      await judgeTier(family, tier, report, {
        seeds,
        trainingCount,
        randomTurns,
        strategies,
        skip: skipping(opts.skip ?? [], opts.only),
        skipAdaptive: opts.skipAdaptive ?? false,
        cap: opts.episodeTurns ?? Infinity,
        fitTrials: opts.fitTrials,
        cpuCap: opts.episodeCpuCap ?? DEFAULT_EPISODE_CPU_CAP,
        tierCpuCap: opts.tierCpuCap ?? DEFAULT_TIER_CPU_CAP,
        certify: opts.certifyReferences === false ? 0 : opts.certifyReferences === true || opts.certifyReferences === undefined ? Infinity : opts.certifyReferences,
        ...(opts.instances ? { instances: opts.instances(tier) } : {}),
      });
      report.passed = report.agents.every((a) => a.passed) && report.referenceFailures.length === 0;
    } catch (err) {
      report.error = err instanceof Error ? err.message : String(err);
      report.passed = false;
    }
    report.seconds = Math.round((performance.now() - started) / 10) / 100;
    reports.push(report);
    opts.onReport?.(report);
  }
  return reports;
}

/** Which agent names a battery leaves out: those in `skip`, and with `only`, every one not in it. */
function skipping(skip: readonly string[], only?: readonly string[]): { has(name: string): boolean } {
  const left = new Set(skip);
  const kept = only ? new Set(only) : null;
  return { has: (name) => left.has(name) || (kept !== null && !kept.has(name)) };
}

/**
 * Every agent name a family's battery can record (the baselines, the shared and adaptive
 * strategies, the family's own strategies and tells), so a selection can be checked up front.
 */
export function batteryAgentNames(family: TaskFamily): string[] {
  return [
    'null',
    'random',
    ...SHARED_STRATEGIES.map((s) => s.name),
    ...ADAPTIVE_STRATEGIES.map((s) => s.name),
    ...(family.sightless ?? []).map((s) => s.name),
    ...(family.tells ?? []).map((t) => t.name),
  ];
}

async function judgeTier(
  family: TaskFamily,
  tier: Tier,
  report: BatteryReport,
  o: {
    seeds: number;
    trainingCount: number;
    randomTurns: number;
    strategies: SightlessStrategy[];
    skip: { has(name: string): boolean };
    skipAdaptive: boolean;
    cap: number;
    fitTrials?: number;
    cpuCap: number;
    tierCpuCap: number;
    /** Seeds whose reference is replayed (Infinity: all). */
    certify: number;
    /** Instances made by other checks of the tier (see `BatteryOptions.instances`). */
    instances?: { get(seed: number): Instance };
  },
): Promise<void> {
  const made = o.instances;
  const generate = (seed: number): Instance => (made ? made.get(seed) : family.generate(seed, tier));
  const judged: Instance[] = [];
  for (const s of report.seeds) judged.push(generate(s));
  if (o.certify > 0) await certifyReferences(family, report, judged, generate, o.certify);
  // Training examples are made once and shared: a strategy that asks for more gets a longer
  // prefix of the same seeds.
  const training: TrainingExample[] = [];
  const trainingSet = async (count = o.trainingCount): Promise<TrainingExample[]> => {
    count = Math.min(count, report.training.length);
    while (training.length < count) {
      const instance = generate(report.training[training.length]);
      training.push({ instance, reference: await referenceSolution(family, instance) });
    }
    return training.slice(0, count);
  };
  const fitTools: FitTools = {
    ...(o.fitTrials !== undefined ? { maxTrials: o.fitTrials } : {}),
    async trial(instance, calls) {
      const agent = new SightlessAgent(scriptStrategy(calls), undefined, 0);
      const per = instance.budgets.actionsPerTurn;
      const out = await play(family, instance, agent, Math.ceil(calls.length / per) + 2, o.cap);
      return out.solved;
    },
  };

  const record = async (
    name: string,
    source: BatteryAgentResult['source'],
    description: string,
    boundOf: (instance: Instance) => number,
    episode: (instance: Instance, seed: number) => Promise<EpisodeOutcome>,
    training?: number,
  ): Promise<void> => {
    let successes = 0;
    let scoreSum = 0;
    let boundSum = 0;
    let cpu = 0;
    let gaveUp = 0;
    const gaveUpReasons: string[] = [];
    let unfiltered = 0;
    let precompute = 0;
    const solvedSeeds: number[] = [];
    for (let k = 0; k < judged.length; k++) {
      const instance = judged[k];
      const seed = report.seeds[k];
      const cpuBefore = processCpuSeconds();
      const out = await episode(instance, seed);
      const precomputed = (out as EpisodeOutcome & { precomputed?: number }).precomputed ?? 0;
      precompute += precomputed;
      cpu += processCpuSeconds() - cpuBefore - precomputed;
      if ((out as EpisodeOutcome & { unfiltered?: string }).unfiltered) unfiltered++;
      const why = (out as EpisodeOutcome & { gaveUp?: string }).gaveUp;
      if (why) {
        gaveUp++;
        // Why, once per distinct reason (seconds stripped, so one cause reads as one line).
        const reason = why.replace(/\d+(\.\d+)? s\b/g, '… s');
        if (gaveUpReasons.length < 3 && !gaveUpReasons.includes(reason)) gaveUpReasons.push(reason);
      }
      boundSum += boundOf(instance);
      let referenceActions = 0;
      if (out.solved) {
        successes++;
        if (solvedSeeds.length < 5) solvedSeeds.push(seed);
        if (instance.scoring === 'graded') {
          const ref = await referenceSolution(family, instance);
          const kinds = new Map(instance.tools.map((t) => [t.name, t.kind]));
          referenceActions = ref.calls.filter((c) => kinds.get(c.tool) !== 'perception').length;
        }
      }
      const s = scoreEpisode({ solved: out.solved, abandoned: out.abandoned, actions: out.actions, referenceActions, progress: out.progress, scoring: instance.scoring });
      scoreSum += s.score ?? 0;
    }
    const n = judged.length;
    const rate = n ? successes / n : 0;
    const bound = n ? boundSum / n : 0;
    const graded = judged[0]?.scoring === 'graded';
    const verdict = batteryVerdict(successes, n, bound);
    report.agents.push({
      name,
      source,
      description,
      episodes: n,
      successes,
      rate,
      meanScore: graded && n ? Math.round((scoreSum / n) * 10) / 10 : null,
      bound,
      verdict,
      interval: rateInterval(successes, n),
      passed: verdict !== 'fail',
      solvedSeeds,
      cpuSeconds: n ? Math.round((cpu / n) * 1000) / 1000 : 0,
      ...(gaveUp ? { gaveUp, gaveUpReasons } : {}),
      ...(unfiltered ? { unfiltered } : {}),
      ...(precompute > 0 ? { precomputeSeconds: Math.round(precompute * 10) / 10 } : {}),
      ...(training !== undefined ? { training } : {}),
    });
  };

  if (!o.skip.has('null')) await record('null', 'baseline', 'commits at once with default arguments, or does nothing', () => 0, (instance) =>
    play(family, instance, new NullAgent(), instance.budgets.turns, o.cap),
  );
  if (!o.skip.has('random')) await record('random', 'baseline', `1–5 random valid calls per turn for ${o.randomTurns} turns`, (i) => randomBound(family, i), (instance, seed) =>
    play(family, instance, new RandomAgent(seed), Math.min(o.randomTurns, instance.budgets.turns), o.cap),
  );

  const view0 = sightlessView(judged[0]);
  // Seeds a strategy must never sample candidates from: every one this battery plays.
  const reserved = new Set([...report.seeds, ...report.training, RELEASED_SEED]);
  // Keyed by the strategy object, not its name: a family's own strategy may share a shared
  // one's name (P1's `probe-and-map`), and the two must not read each other's tier memo.
  const memos = new Map<SightlessStrategy, Map<string, unknown>>();
  const tierMemo = (s: SightlessStrategy): Map<string, unknown> => {
    let m = memos.get(s);
    if (!m) memos.set(s, (m = new Map()));
    return m;
  };
  const runStrategy = async (s: SightlessStrategy, source: 'shared' | 'family'): Promise<void> => {
    if (o.skip.has(s.name) || (o.skipAdaptive && s.adaptive)) return;
    if (s.applies && !s.applies(view0)) {
      report.notApplicable.push(s.name);
      return;
    }
    const count = Math.min(Math.max(o.trainingCount, s.training ?? 0), report.training.length);
    const fitted = s.fit ? await s.fit(await trainingSet(count), fitTools) : undefined;
    let strategyCpu = 0;
    await record(
      s.name,
      source,
      s.description,
      (i) => (s.boundFor ? s.boundFor(sightlessView(i)) : s.bound),
      async (instance, seed) => {
        if (strategyCpu > DEFAULT_STRATEGY_TIER_CPU_CAP) {
          // Played as an episode that ends at once, so the record stays one episode per seed.
          const idle: SightlessStrategy = { name: s.name, description: s.description, bound: s.bound, next: () => null };
          const out = await play(family, instance, new SightlessAgent(idle, undefined, seed), 1, o.cap);
          return Object.assign(out, { gaveUp: `gave up: the strategy's episodes on this tier had cost ${strategyCpu.toFixed(0)} s of CPU (cap ${DEFAULT_STRATEGY_TIER_CPU_CAP} s)` });
        }
        const before = processCpuSeconds();
        const tools = new EpisodeTools({ family, tier, reserved, tierMemo: tierMemo(s), cpuCap: o.cpuCap, tierCpuCap: o.tierCpuCap });
        const agent = new SightlessAgent(s, fitted, seed, tools);
        try {
          const out = await play(family, instance, agent, Math.min(s.maxTurns ?? Infinity, instance.budgets.turns), o.cap);
          const unfiltered = tools.episodeMemo.get(DEGRADED_MEMO) as string | undefined;
          if (unfiltered && !agent.gaveUp) Object.assign(out, { unfiltered });
          if (tools.precomputedSeconds() > 0) Object.assign(out, { precomputed: tools.precomputedSeconds() });
          return agent.gaveUp ? Object.assign(out, { gaveUp: agent.gaveUp }) : out;
        } finally {
          tools.close();
          // Precomputation (the candidate pool, fixed-schedule transcripts) is paid once per
          // tier and held against no cap; the record reports it apart.
          strategyCpu += processCpuSeconds() - before - tools.precomputedSeconds();
        }
      },
      s.fit ? count : undefined,
    )
      .then(() => {
        const spread = tierMemo(s).get(TRANSCRIPT_SPREAD_MEMO) as TranscriptSpread | undefined;
        const row = report.agents[report.agents.length - 1];
        if (spread && row?.name === s.name) row.transcripts = spread;
      })
      .finally(() => releaseTierMemo(tierMemo(s)));
  };
  for (const s of o.strategies) await runStrategy(s, 'shared');
  for (const s of family.sightless ?? []) await runStrategy(s, 'family');
  for (const t of family.tells ?? []) await runTell(t);

  async function runTell(t: ShortcutTell): Promise<void> {
    if (o.skip.has(t.name)) return;
    const fitted = t.fit ? t.fit(await trainingSet()) : undefined;
    await record(
      t.name,
      'tell',
      t.description,
      () => t.bound,
      (instance, seed) => {
        const calls = t.calls(instance, fitted);
        const per = instance.budgets.actionsPerTurn;
        return play(family, instance, new SightlessAgent(scriptStrategy(calls), undefined, seed), Math.ceil(calls.length / per) + 1, o.cap);
      },
      t.fit ? o.trainingCount : undefined,
    );
  }
}

/**
 * Replays the family's reference on every seed the battery plays (judged and training), through
 * the real loop without images: each must solve its instance. A seed whose reference fails (or
 * whose solver throws) is listed with its instance id and fails the tier (issue 36 item 6).
 */
async function certifyReferences(family: TaskFamily, report: BatteryReport, judged: Instance[], generate: (seed: number) => Instance, count = Infinity): Promise<void> {
  const started = processCpuSeconds();
  // Judged seeds first; training seeds are generated only when the count reaches them.
  const judgedPart = judged.slice(0, count);
  const instances: Array<{ instance: Instance; purpose: ReferenceFailure['purpose'] }> = [
    ...judgedPart.map((instance) => ({ instance, purpose: 'judged' as const })),
    ...report.training.slice(0, count - judgedPart.length).map((seed) => ({ instance: generate(seed), purpose: 'training' as const })),
  ];
  for (const { instance, purpose } of instances) {
    let reason: string | null = null;
    try {
      const ref = await referenceSolution(family, instance);
      const agent = new SightlessAgent(scriptStrategy(ref.calls), undefined, 0);
      const per = instance.budgets.actionsPerTurn;
      // A refused call ends its turn, so a script needs up to one turn per call.
      const out = await play(family, instance, agent, Math.max(Math.ceil(ref.calls.length / per), ref.calls.length) + 1);
      if (!out.solved) reason = `its reference (${ref.calls.length} calls, ${ref.method}) does not solve it: the replay ended '${out.endReason}' after ${out.actions} action(s), ${out.violations} rolled back, ${out.invalidCalls} refused`;
    } catch (err) {
      reason = `its reference could not be computed: ${err instanceof Error ? err.message : String(err)}`;
    }
    if (reason) report.referenceFailures.push({ instance: instance.id, purpose, reason });
  }
  report.referenceSeconds = Math.round((processCpuSeconds() - started) * 100) / 100;
}

/**
 * The chance that an agent whose true success rate is `bound` solves at least `successes` of
 * `n` episodes (the one-sided binomial tail). A small sample cannot show a rate is under its
 * bound, but it can show one is far over it: that is what the quick battery checks.
 */
export function binomialTail(successes: number, n: number, bound: number): number {
  if (successes <= 0) return 1;
  if (bound <= 0) return successes > 0 ? 0 : 1;
  if (bound >= 1) return 1;
  let tail = 0;
  for (let k = successes; k <= n; k++) {
    let c = 1;
    for (let j = 0; j < k; j++) c = (c * (n - j)) / (j + 1);
    tail += c * bound ** k * (1 - bound) ** (n - k);
  }
  return Math.min(1, tail);
}

/**
 * Significance below which the battery calls an agent over its bound: the chance that an agent
 * at its bound does at least this well. One rule for the check-suite's quick battery and for
 * `verify` at any seed count.
 */
export const BATTERY_ALPHA = 0.01;
/** The quick battery's significance (the same rule as `verify`'s). */
export const QUICK_BATTERY_ALPHA = BATTERY_ALPHA;

/** What the battery concludes from an agent's successes (see {@link BatteryAgentResult.verdict}). */
export type BatteryVerdict = 'pass' | 'inconclusive' | 'fail';

/**
 * The verdict on `successes` of `n` against `bound`: `pass` at or under the bound, `fail` when
 * so many successes would be rarer than {@link BATTERY_ALPHA} for an agent at the bound, and
 * `inconclusive` in between (a few seeds over the bound by chance; more seeds settle it).
 */
export function batteryVerdict(successes: number, n: number, bound: number): BatteryVerdict {
  if (n === 0 || successes <= n * bound + 1e-9) return 'pass';
  return binomialTail(successes, n, bound) < BATTERY_ALPHA ? 'fail' : 'inconclusive';
}

/**
 * The Clopper–Pearson interval of a success rate from `successes` of `n`, with `alpha` on each
 * side (default {@link BATTERY_ALPHA}), rounded to 4 places; [0, 1] when nothing was played.
 * Each end is found by bisection on the binomial tail.
 */
export function rateInterval(successes: number, n: number, alpha = BATTERY_ALPHA): [number, number] {
  if (n === 0) return [0, 1];
  const solve = (f: (p: number) => number): number => {
    // f rises with p; the p where it crosses alpha.
    let lo = 0;
    let hi = 1;
    for (let i = 0; i < 50; i++) {
      const mid = (lo + hi) / 2;
      if (f(mid) < alpha) lo = mid;
      else hi = mid;
    }
    return (lo + hi) / 2;
  };
  // Lower end: the rate at which so many successes or more would be rarer than alpha.
  const lower = successes === 0 ? 0 : solve((p) => binomialTail(successes, n, p));
  // Upper end: the rate at which so few successes or fewer would be rarer than alpha.
  const upper = successes === n ? 1 : 1 - solve((q) => binomialTail(n - successes, n, q));
  const r = (x: number): number => Math.round(x * 1e4) / 1e4;
  return [r(lower), r(upper)];
}

/**
 * The quick battery the check-suite runs on every registered family, at its easiest and
 * hardest tier: few seeds, few training seeds, and only the strategies whose episodes are
 * short (constant answer, first option, memorised plan, straight-line, and the family's own
 * strategies and tells, each episode at most 4 turns; the null policy has its own check, and
 * the random baseline, blind probing and long episodes run in `verify`). It cannot certify a
 * rate, so it fails an agent only when its successes are far over its bound (binomial tail below
 * {@link QUICK_BATTERY_ALPHA}): a constant answer that is always right, a fixed schedule that
 * always works.
 */
export const QUICK_BATTERY: Readonly<Required<Pick<BatteryOptions, 'seeds' | 'training' | 'skip' | 'episodeTurns' | 'fitTrials' | 'strategyTraining' | 'certifyReferences' | 'skipAdaptive'>>> = Object.freeze({
  seeds: 6,
  training: 4,
  // The null policy has its own check-suite test; random and probing episodes are long.
  skip: Object.freeze(['null', 'random', 'blind-probe']),
  // Strategies that simulate candidate worlds (the generic adaptive agents, M4's and M6's
  // probers) cost seconds per episode: `verify` plays and measures them.
  skipAdaptive: true,
  // A constant answer, a fixed schedule or a short memorised plan shows within four turns;
  // longer plans are the full battery's to measure.
  episodeTurns: 4,
  // Two candidate plans (the most common script and the median one) on four training seeds.
  fitTrials: 8,
  // Every strategy fits on the same four seeds (one asking for more gets them in `verify`).
  strategyTraining: false,
  // The reference replayed on the first three judged seeds of each tier, not the training ones:
  // a 60-move reference costs seconds per seed (replaying it was most of the quick battery's
  // time: P6 40 of 51 CPU seconds at six seeds), and `verify` replays it on every seed it plays.
  certifyReferences: 3,
});

/**
 * Runs the quick battery on a family and lists what is wrong, one line per agent far over its
 * bound (or per tier that could not be judged); an empty list passes.
 */
export async function quickBatteryProblems(family: TaskFamily, opts: Pick<BatteryOptions, 'tiers' | 'strategies'> = {}): Promise<string[]> {
  // The easiest tier (where a memorised plan or a fixed schedule is likeliest to work) and the
  // hardest (its lever); the middle tiers are the full battery's.
  const all = tiersOf(family);
  const tiers = opts.tiers ?? [...new Set([all[0], all[all.length - 1]])];
  const reports = await runBattery(family, { ...QUICK_BATTERY, ...opts, tiers });
  const problems: string[] = [];
  for (const r of reports) {
    if (r.error) problems.push(`${r.family} ${r.tier}: the battery could not run: ${r.error}`);
    for (const f of r.referenceFailures) problems.push(`${r.family} ${r.tier}: the reference fails on ${f.purpose} seed ${f.instance}: ${f.reason}`);
    for (const a of r.agents) {
      const p = binomialTail(a.successes, a.episodes, a.bound);
      if (a.verdict === 'fail') {
        problems.push(
          `${r.family} ${r.tier}: the sightless agent "${a.name}" (${a.description}) solved ${a.successes} of ${a.episodes} seeds (${a.solvedSeeds.join(', ')}); its bound is ${(a.bound * 100).toFixed(0)} % (chance of that many at the bound: ${p.toExponential(1)})`,
        );
      }
    }
  }
  return problems;
}
