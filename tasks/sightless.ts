import type { Instance, ReferenceSolution, ToolCall } from './types.ts';

/**
 * What a sightless strategy is told about an instance: the text a model reads (rules, tools,
 * budgets, the id), never the scene, the answer or the reference.
 */
export type SightlessView = Pick<Instance, 'id' | 'family' | 'tier' | 'title' | 'rules' | 'tools' | 'budgets' | 'levers' | 'scoring' | 'dynamic'>;

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
  /** Learns from other seeds' instances and references; the result is passed to `next`. */
  fit?(training: Array<{ instance: Instance; reference: ReferenceSolution }>): Fit;
  /** The next turn's calls (1 to the action cap), or null to stop playing. */
  next(ctx: SightlessContext, fitted: Fit | undefined): ToolCall[] | null;
}
