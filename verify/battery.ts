import { SpaceActError } from '../core/errors.ts';
import { runEpisode } from '../agents/loop.ts';
import { DEFAULT_MODE } from '../agents/modes.ts';
import { NullAgent } from '../agents/null.ts';
import { RandomAgent } from '../agents/random-agent.ts';
import { scoreEpisode } from '../agents/scoring.ts';
import { SightlessAgent } from '../agents/sightless/agent.ts';
import { SHARED_STRATEGIES } from '../agents/sightless/shared.ts';
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
  passed: boolean;
  /** Up to five judged seeds it solved, to reproduce a failure. */
  solvedSeeds: number[];
}

/** The battery's record for one family and tier. */
export interface BatteryReport {
  family: string;
  tier: Tier;
  /** Judged seeds, in order. */
  seeds: number[];
  /** Training seeds fitted strategies learned from. */
  training: number[];
  agents: BatteryAgentResult[];
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
  /** Replaces the shared strategies (tests). */
  strategies?: readonly SightlessStrategy[];
  /** Leave out the baselines (null, random) and these strategies by name (the quick battery). */
  skip?: readonly string[];
  /** Called after each family × tier. */
  onReport?(r: BatteryReport): void;
}

/** The seeds of one purpose: the family's own choice, or {@link defaultBatterySeeds}; checked disjoint. */
function seedsOf(family: TaskFamily, count: number, purpose: 'judged' | 'training', judged: number): number[] {
  const out = family.batterySeeds ? family.batterySeeds(count, purpose, judged) : defaultBatterySeeds(count, purpose, judged);
  if (out.length !== count || out.some((x) => !Number.isInteger(x) || x < 0)) {
    throw new SpaceActError('invalid-state', `${family.id}: batterySeeds(${count}, ${purpose}) must give ${count} whole seeds`);
  }
  return out;
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
 * The result is deterministic: the same options give the same report (but `seconds`).
 */
export async function runBattery(family: TaskFamily, opts: BatteryOptions = {}): Promise<BatteryReport[]> {
  const seeds = opts.seeds ?? DEFAULT_BATTERY_SEEDS;
  const trainingCount = opts.training ?? DEFAULT_BATTERY_TRAINING;
  const randomTurns = opts.randomTurns ?? DEFAULT_BATTERY_RANDOM_TURNS;
  const strategies = [...(opts.strategies ?? SHARED_STRATEGIES)];
  const reports: BatteryReport[] = [];
  for (const tier of opts.tiers ?? tiersOf(family)) {
    const started = performance.now();
    const report: BatteryReport = {
      family: family.id,
      tier,
      seeds: seedsOf(family, seeds, 'judged', seeds),
      training: seedsOf(family, trainingCount, 'training', seeds),
      agents: [],
      passed: false,
      notApplicable: [],
      seconds: 0,
    };
    try {
      const judgedSet = new Set(report.seeds);
      const overlap = report.training.filter((x) => judgedSet.has(x));
      if (overlap.length) throw new SpaceActError('invalid-state', `${family.id}: training seeds ${overlap.slice(0, 5).join(', ')} are also judged`);
      await judgeTier(family, tier, report, { seeds, trainingCount, randomTurns, strategies, skip: new Set(opts.skip ?? []), cap: opts.episodeTurns ?? Infinity, fitTrials: opts.fitTrials });
      report.passed = report.agents.every((a) => a.passed);
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

async function judgeTier(
  family: TaskFamily,
  tier: Tier,
  report: BatteryReport,
  o: { seeds: number; trainingCount: number; randomTurns: number; strategies: SightlessStrategy[]; skip: ReadonlySet<string>; cap: number; fitTrials?: number },
): Promise<void> {
  const judged: Instance[] = [];
  for (const s of report.seeds) judged.push(family.generate(s, tier));
  let training: TrainingExample[] | null = null;
  const trainingSet = async (): Promise<TrainingExample[]> => {
    if (!training) {
      training = [];
      for (const seed of report.training) {
        const instance = family.generate(seed, tier);
        training.push({ instance, reference: await referenceSolution(family, instance) });
      }
    }
    return training;
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
  ): Promise<void> => {
    let successes = 0;
    let scoreSum = 0;
    let boundSum = 0;
    const solvedSeeds: number[] = [];
    for (let k = 0; k < judged.length; k++) {
      const instance = judged[k];
      const seed = report.seeds[k];
      const out = await episode(instance, seed);
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
    report.agents.push({
      name,
      source,
      description,
      episodes: n,
      successes,
      rate,
      meanScore: graded && n ? Math.round((scoreSum / n) * 10) / 10 : null,
      bound,
      passed: rate <= bound + 1e-12,
      solvedSeeds,
    });
  };

  if (!o.skip.has('null')) await record('null', 'baseline', 'commits at once with default arguments, or does nothing', () => 0, (instance) =>
    play(family, instance, new NullAgent(), instance.budgets.turns, o.cap),
  );
  if (!o.skip.has('random')) await record('random', 'baseline', `1–5 random valid calls per turn for ${o.randomTurns} turns`, (i) => randomBound(family, i), (instance, seed) =>
    play(family, instance, new RandomAgent(seed), Math.min(o.randomTurns, instance.budgets.turns), o.cap),
  );

  const view0 = sightlessView(judged[0]);
  const runStrategy = async (s: SightlessStrategy, source: 'shared' | 'family'): Promise<void> => {
    if (o.skip.has(s.name)) return;
    if (s.applies && !s.applies(view0)) {
      report.notApplicable.push(s.name);
      return;
    }
    const fitted = s.fit ? await s.fit(await trainingSet(), fitTools) : undefined;
    await record(s.name, source, s.description, (i) => (s.boundFor ? s.boundFor(sightlessView(i)) : s.bound), (instance, seed) =>
      play(family, instance, new SightlessAgent(s, fitted, seed), Math.min(s.maxTurns ?? Infinity, instance.budgets.turns), o.cap),
    );
  };
  for (const s of o.strategies) await runStrategy(s, 'shared');
  for (const s of family.sightless ?? []) await runStrategy(s, 'family');
  for (const t of family.tells ?? []) await runTell(t);

  async function runTell(t: ShortcutTell): Promise<void> {
    if (o.skip.has(t.name)) return;
    const fitted = t.fit ? t.fit(await trainingSet()) : undefined;
    await record(t.name, 'tell', t.description, () => t.bound, (instance, seed) => {
      const calls = t.calls(instance, fitted);
      const per = instance.budgets.actionsPerTurn;
      return play(family, instance, new SightlessAgent(scriptStrategy(calls), undefined, seed), Math.ceil(calls.length / per) + 1, o.cap);
    });
  }
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

/** Significance below which the quick battery calls an agent over its bound. */
export const QUICK_BATTERY_ALPHA = 0.01;

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
export const QUICK_BATTERY: Readonly<Required<Pick<BatteryOptions, 'seeds' | 'training' | 'skip' | 'episodeTurns' | 'fitTrials'>>> = Object.freeze({
  seeds: 6,
  training: 4,
  // The null policy has its own check-suite test; random and probing episodes are long.
  skip: Object.freeze(['null', 'random', 'blind-probe']),
  // A constant answer, a fixed schedule or a short memorised plan shows within four turns;
  // longer plans are the full battery's to measure.
  episodeTurns: 4,
  // Two candidate plans (the most common script and the median one) on four training seeds.
  fitTrials: 8,
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
    for (const a of r.agents) {
      const p = binomialTail(a.successes, a.episodes, a.bound);
      if (p < QUICK_BATTERY_ALPHA) {
        problems.push(
          `${r.family} ${r.tier}: the sightless agent "${a.name}" (${a.description}) solved ${a.successes} of ${a.episodes} seeds (${a.solvedSeeds.join(', ')}); its bound is ${(a.bound * 100).toFixed(0)} % (chance of that many at the bound: ${p.toExponential(1)})`,
        );
      }
    }
  }
  return problems;
}
