/**
 * The records of a run: the rows of `summary.json`, the summary itself, why a run stopped, and
 * the plain-data form of an agent that worker processes rebuild it from. Shared by the runner
 * and its worker pool (neither imports the other for them).
 */
import type { AgentOptions } from './types.ts';
import type { EpisodeOutcome } from './types.ts';

/** One row of `summary.json`. */
export interface SummaryEntry {
  instance: string;
  family: string;
  tier: string;
  agent: string;
  mode: string;
  solved: boolean;
  /** 0–100, or null for pass/fail families. */
  score: number | null;
  graded: boolean;
  turns: number;
  actions: number;
  violations: number;
  invalidReplies: number;
  abandoned: boolean;
  abandonReason?: string;
  endReason: EpisodeOutcome['endReason'];
  progress: number;
  referenceActions: number;
  inputTokens: number;
  outputTokens: number;
  cost?: number;
}

/** Why a run stopped before every episode finished. */
export interface RunStop {
  /**
   * `cost-limit`; `requested` (Ctrl-C, play stopped); `abandonments` (the circuit breaker:
   * too many episodes in a row abandoned); `error` (a failure that stops every episode, such
   * as a refused API key).
   */
  reason: 'cost-limit' | 'requested' | 'abandonments' | 'error';
  message: string;
  /** Dollars, for `cost-limit`. */
  limit?: number;
  spent?: number;
}

/** `summary.json`: what ran and one entry per finished episode, in the order the instances were given. */
export interface RunSummary {
  package: { name: string; version: string };
  agent: { name: string; settings: Record<string, unknown> };
  mode: string;
  episodes: SummaryEntry[];
  /** Totals over the finished episodes. */
  totals: { episodes: number; solved: number; abandoned: number; inputTokens: number; outputTokens: number; cost?: number };
  /** Instances not finished yet; rerunning with the same output folder continues them. */
  unfinished: string[];
  /**
   * Present when this invocation continued an earlier run of the same output folder:
   * `finished` episodes were reused as they were, `continued` unfinished ones went on from
   * their logged turns.
   */
  resumed?: { finished: number; continued: number };
  /** Present when the run stopped early. */
  stopped?: RunStop;
}

/** An agent named in the registry with plain-data options (what worker processes rebuild it from). */
export interface AgentSpec {
  name: string;
  options: AgentOptions;
}
