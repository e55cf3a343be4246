import { instanceView, type InstanceView } from './instance-view.ts';
import type { Instance, ReferenceSolution, TaskFamily, Tier, ToolCall } from './types.ts';

/**
 * What a sightless strategy is told about an instance: exactly what every agent is told (the
 * public instance view: rules, tools, budgets, the id), never the scene, the answer or the
 * reference.
 */
export type SightlessView = InstanceView;

/** The sightless view of an instance (a copy; nothing of the scene). */
export function sightlessView(instance: Instance): SightlessView {
  return instanceView(instance);
}

/** The text outcome of one earlier call, as a model would read it. */
export interface SightlessResult {
  call: ToolCall;
  status: 'ok' | 'violation' | 'invalid' | 'not-run';
  message: string;
  data?: Record<string, unknown>;
}

/** Everything a sightless strategy has at the start of a turn. */
export interface SightlessContext {
  view: SightlessView;
  /** The battery's seed for this episode (strategies with random choices draw from it). */
  seed: number;
  /** 1-based turn number. */
  turn: number;
  turnsLeft: number;
  /** Calls allowed this turn. */
  actionCap: number;
  /** The results of every earlier turn's calls, oldest turn first. */
  history: SightlessResult[][];
  /**
   * What an adversary who knows the benchmark's public code could run beside the episode: the
   * family's generator, engine and solver on instances it makes up (never the judged one). The
   * battery lends it to every strategy; adaptive strategies reconstruct the world with it.
   */
  tools?: AdaptiveTools;
}

/** What one call did in a simulated world, as a model would read it. */
export interface SimulatedOutcome {
  status: SightlessResult['status'];
  message: string;
}

/** A candidate world kept live for simulation: the real engine with the family's own code. */
export interface SimulatedWorld {
  readonly instance: Instance;
  /** Runs a call; the world moves on as the real one would. `ended` once the episode would end. */
  execute(call: ToolCall): SimulatedOutcome & { solved: boolean; ended: boolean };
  /** The outcome of a call without moving on (the world is put back exactly). */
  preview(call: ToolCall): SimulatedOutcome & { solved: boolean };
  /** Releases the world. */
  free(): void;
}

/**
 * The public code an adaptive sightless strategy may run (see {@link SightlessContext.tools}):
 * the family's generator over seeds no battery episode is judged or trained on, the real
 * engine on candidate instances, and the family's solver. Work shared by the episodes of one
 * tier (a candidate pool, the candidates' references) goes in `tierMemo`.
 */
export interface AdaptiveTools {
  family: TaskFamily;
  tier: Tier;
  /**
   * `count` seeds the strategy may generate candidates from: disjoint from every seed the
   * battery judges or trains on (and from the released seed), the same list every time.
   */
  sampleSeeds(count: number): number[];
  /** A live simulated world of `instance` (rendering off); freed with the episode if not before. */
  open(instance: Instance): Promise<SimulatedWorld>;
  /**
   * Plays `calls` on a world of `instance` and returns each call's outcome (stops when it ends).
   * The outcomes are those of a fresh world; a tier keeps its candidates' worlds live, so a
   * history that extends the one last simulated for the same instance object runs only its new
   * calls, and one that is a prefix of it runs none.
   */
  simulate(instance: Instance, calls: ToolCall[]): Promise<Array<SimulatedOutcome & { solved: boolean }>>;
  /**
   * The outcome of each of `probes`, previewed (run, then undone exactly) one after another on
   * a world of `instance` that has played `calls` — what a look-ahead would read there. Uses
   * the instance's live world as {@link simulate} does.
   */
  previewAfter(instance: Instance, calls: ToolCall[], probes: ToolCall[]): Promise<SimulatedOutcome[]>;
  /** The family's reference solution of a candidate instance (computed once per process). */
  reference(instance: Instance): Promise<ReferenceSolution>;
  /** Shared by this strategy over every episode of the tier. */
  tierMemo: Map<string, unknown>;
  /**
   * The value under `key` in `tierMemo`, computed once per tier: work every episode of the tier
   * may share (a candidate pool, a node of the probing tree, a candidate's reference). Its CPU
   * counts against the cap of the episode that computes it, unless `uncapped` (the tier's
   * candidate pool, made once for all its episodes); it always counts in the tier's average.
   */
  shared<T>(key: string, compute: () => T | Promise<T>, opts?: { uncapped?: boolean }): Promise<T>;
  /**
   * The value under `key` in `tierMemo`, computed once per tier, for work that depends only on
   * the family's public code and the tier — never on the episode played (the generator's
   * candidate pool, each candidate's outcomes under a fixed probe schedule). It is held against
   * no CPU cap: its size is fixed by the strategy (so many candidates, so many calls each), and
   * an agent that gave up because a slow generator spent its cap would be weak evidence. The
   * battery reports its CPU apart (`precomputeSeconds`).
   */
  precompute<T>(key: string, compute: () => T | Promise<T>): Promise<T>;
  /** Scratch of this episode only. */
  episodeMemo: Map<string, unknown>;
  /** CPU seconds this episode has cost so far (the strategy's own work and the simulations). */
  cpuSeconds(): number;
  /** The episode's CPU cap, seconds: past it the agent gives up and the record says so. */
  cpuCap: number;
}

/** One training example: an instance of another seed and its reference solution. */
export interface TrainingExample {
  instance: Instance;
  reference: ReferenceSolution;
}

/**
 * What the battery lends to `fit`: playing a fixed script on a training instance through the
 * real episode loop (e.g. to pick, among candidate schedules, the one that solves most).
 */
export interface FitTools {
  /** Plays `calls` on `instance` (a training instance) and says whether it solved. */
  trial(instance: Instance, calls: ToolCall[]): Promise<boolean>;
  /** How many trial episodes the strategy should play at most (the quick battery lends fewer). */
  maxTrials?: number;
}

/**
 * A way to attempt a task without looking at any image — what a model that reads the rules and
 * guesses could do (a constant answer, a memorised plan, probing with refused moves, a fixed
 * timing). The shortcut battery in `verify` runs every family's strategies, with the shared
 * ones, over many seeds per tier; each must stay at or under its `bound` success rate.
 *
 * A strategy may learn from *other* seeds (`fit`): the battery passes full instances and their
 * reference solutions drawn with seeds disjoint from the ones it is judged on, as a model
 * could learn from published examples of the family.
 */
export interface SightlessStrategy<Fit = unknown> {
  /** Short stable name, e.g. `fixed-schedule`. */
  name: string;
  /** What it tries, in one sentence, for reports. */
  description: string;
  /** Largest success rate allowed over many seeds of any tier (e.g. chance plus a margin). */
  bound: number;
  /**
   * A bound that depends on the instance (e.g. chance among its listed options plus a
   * margin); the battery holds the strategy to the mean of it over the instances it plays.
   */
  boundFor?(view: SightlessView): number;
  /** Whether the strategy has anything to try on this kind of instance (default: yes). */
  applies?(view: SightlessView): boolean;
  /** Most turns one episode may take (default: the instance's budget). */
  maxTurns?: number;
  /**
   * It simulates candidate worlds and costs seconds of CPU per episode: the check-suite's quick
   * battery leaves it to `spaceact verify`, which holds it to the battery's CPU caps.
   */
  adaptive?: boolean;
  /**
   * Training seeds per tier this strategy needs to fit well (e.g. enough examples to find the
   * firing time most of them share); the battery lends it at least this many, more than its
   * default when asked. The quick battery keeps to its own small count.
   */
  training?: number;
  /** Learns from other seeds' instances and references; the result is passed to `next`. */
  fit?(training: TrainingExample[], tools: FitTools): Fit | Promise<Fit>;
  /**
   * The next turn's calls (1 to the action cap), or null to stop playing. May be async (an
   * adaptive strategy simulates candidate worlds first).
   */
  next(ctx: SightlessContext, fitted: Fit | undefined): ToolCall[] | null | Promise<ToolCall[] | null>;
}

/**
 * A superficial cue a model could read off the pictures without reasoning about them — the
 * number of cubes visible in the first view plus one, the option whose pieces recur most.
 * Unlike a sightless strategy it is given the whole instance, because the cue is something
 * seen; it must stay a cue (a count, a majority, a size), never the solver's answer. The
 * battery plays its calls through the loop and holds its success rate to `bound`.
 */
export interface ShortcutTell<Fit = unknown> {
  name: string;
  description: string;
  bound: number;
  /** Learns from other seeds (e.g. the best offset c in "visible + c"). */
  fit?(training: TrainingExample[]): Fit;
  /** The calls this cue leads to on `instance`. */
  calls(instance: Instance, fitted: Fit | undefined): ToolCall[];
}
