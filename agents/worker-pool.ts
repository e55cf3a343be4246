/**
 * Parallel runs (`run --concurrency N`): episodes handed out to worker processes through the
 * shared process pool (agents/process-pool.ts, which parallel verification uses too). Each
 * worker (agents/run-worker.ts) keeps one renderer and browser, and only when the run renders.
 */
import { runProcessPool } from './process-pool.ts';
import type { EpisodeResult } from './episode-runner.ts';
import type { DispatchOptions, WorkerInit } from './run-types.ts';
import type { Usage } from './types.ts';
import { siblingModule } from '../core/package-root.ts';

export type { WorkerInit } from './run-types.ts';

/** What a run worker reports while an episode runs. */
export type RunWorkerEvent =
  | { type: 'start'; id: string }
  | { type: 'turn'; cost: number; id: string; turn: number; usage?: Usage }
  | { type: 'notice'; message: string };

/** Options of {@link runParallel}. */
export interface ParallelOptions extends DispatchOptions {
  workers: number;
}

const WORKER_ENTRY = siblingModule(import.meta.url, './run-worker');

/**
 * Runs episodes in `workers` child processes, handing out instances in order as workers come
 * free; runs past one machine go through the Redis queue instead (`queue/coordinator.ts`), with
 * the same callbacks. A stop (cost limit) is forwarded to every worker, which ends after its
 * turn in flight; a failed episode stops the others the same way and is then rethrown.
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
