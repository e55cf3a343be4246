/**
 * Parallel runs (`run --concurrency N`): episodes handed out to worker processes through the
 * shared process pool (agents/process-pool.ts, which parallel verification uses too). Each
 * worker (agents/run-worker.ts) keeps one renderer and browser, and only when the run renders.
 */
import { fileURLToPath } from 'node:url';
import { runProcessPool } from './process-pool.ts';
import type { Mode } from './modes.ts';
import type { RenderWhen } from './run-defaults.ts';
import type { AgentSpec } from './run-types.ts';
import type { EpisodeResult } from './runner.ts';
import type { Usage } from './types.ts';

/** What every worker is told once: enough to rebuild the agent and run episodes. */
export interface WorkerInit {
  agent: AgentSpec;
  mode: Mode;
  out: string;
  render: RenderWhen;
  historyImages: number;
  keepAbandoned: boolean;
}

/** What a run worker reports while an episode runs. */
export type RunWorkerEvent =
  | { type: 'start'; id: string }
  | { type: 'turn'; cost: number; id: string; turn: number; usage?: Usage }
  | { type: 'notice'; message: string };

/** Options of {@link runParallel}. */
export interface ParallelOptions {
  ids: string[];
  workers: number;
  init: WorkerInit;
  /** Polled before each episode is handed out and after each turn; true stops the run. */
  shouldStop(): boolean;
  onTurnCost(cost: number): void;
  /** An episode started in a worker. */
  onEpisodeStart?(id: string): void;
  /** A new turn was logged in a worker (for the progress line). */
  onTurn?(id: string, turn: { turn: number; reply: { usage?: Usage } }): void;
  /** A finished episode (called in completion order; the caller orders the summary). */
  onEpisode(index: number, result: EpisodeResult): void;
  /** Something a worker repaired or dropped (see `RunOptions.onNotice`). */
  onNotice?(message: string): void;
}

const WORKER_ENTRY = fileURLToPath(new URL('./run-worker.ts', import.meta.url));

/**
 * Runs episodes in `workers` child processes, handing out instances in order as workers come
 * free. A stop (cost limit) is forwarded to every worker, which ends after its turn in flight;
 * a failed episode stops the others the same way and is then rethrown.
 */
export async function runParallel(opts: ParallelOptions): Promise<void> {
  await runProcessPool<WorkerInit, string, EpisodeResult | null, RunWorkerEvent>({
    entry: WORKER_ENTRY,
    jobs: opts.ids,
    workers: opts.workers,
    init: opts.init,
    shouldStop: () => opts.shouldStop(),
    describe: (_, id) => id,
    onEvent(_, event) {
      if (event.type === 'start') opts.onEpisodeStart?.(event.id);
      else if (event.type === 'turn') {
        opts.onTurnCost(event.cost);
        opts.onTurn?.(event.id, { turn: event.turn, reply: event.usage ? { usage: event.usage } : {} });
      } else opts.onNotice?.(event.message);
    },
    onResult(index, result) {
      // null: the episode was stopped before it began (a cost limit reached meanwhile).
      if (result) opts.onEpisode(index, result);
    },
  });
}
