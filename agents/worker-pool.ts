import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SpaceActError, type ErrorCode } from '../core/errors.ts';
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

/** Messages from the parent to a worker. */
export type ToWorker =
  | { type: 'init'; init: WorkerInit }
  | { type: 'run'; index: number; id: string }
  | { type: 'stop' }
  | { type: 'exit' };

/** Messages from a worker to the parent. */
export type FromWorker =
  | { type: 'start'; id: string }
  | { type: 'turn'; cost: number; id: string; turn: number; usage?: Usage }
  | { type: 'notice'; message: string }
  | { type: 'done'; index: number; result: EpisodeResult | null }
  | { type: 'failed'; index: number; error: { code?: ErrorCode; message: string; details?: Record<string, unknown> } };

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
 * Runs episodes in `workers` child processes (each with its own renderer and browser), handing
 * out instances in order as workers come free. Kept to a few lines of `child_process` rather
 * than a queue package: the only shared state is the next index and a stop flag. A stop
 * (cost limit) is forwarded to every worker, which ends after its turn in flight; a failed
 * episode stops the others the same way and is then rethrown.
 */
export async function runParallel(opts: ParallelOptions): Promise<void> {
  let next = 0;
  let stopSent = false;
  let failure: SpaceActError | null = null;
  const children: ChildProcess[] = [];
  // Workers run TypeScript through the same tsx loader as the CLI, found from here so that
  // the working directory does not matter.
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

  const broadcastStop = (): void => {
    if (stopSent) return;
    stopSent = true;
    for (const c of children) if (c.connected) c.send({ type: 'stop' } satisfies ToWorker);
  };

  const runWorker = (child: ChildProcess): Promise<void> =>
    new Promise<void>((resolve) => {
      let current = -1;
      const handOut = (): void => {
        if (failure || opts.shouldStop() || next >= opts.ids.length) {
          if (opts.shouldStop()) broadcastStop();
          current = -1;
          if (child.connected) child.send({ type: 'exit' } satisfies ToWorker);
          return;
        }
        current = next++;
        child.send({ type: 'run', index: current, id: opts.ids[current] } satisfies ToWorker);
      };
      child.on('message', (msg: FromWorker) => {
        if (msg.type === 'start') {
          opts.onEpisodeStart?.(msg.id);
        } else if (msg.type === 'turn') {
          opts.onTurnCost(msg.cost);
          opts.onTurn?.(msg.id, { turn: msg.turn, reply: msg.usage ? { usage: msg.usage } : {} });
          if (opts.shouldStop()) broadcastStop();
        } else if (msg.type === 'notice') {
          opts.onNotice?.(msg.message);
        } else if (msg.type === 'done') {
          if (msg.result) opts.onEpisode(msg.index, msg.result);
          handOut();
        } else if (msg.type === 'failed') {
          failure ??= new SpaceActError(msg.error.code ?? 'invalid-state', msg.error.message, msg.error.details ?? {});
          broadcastStop();
          handOut();
        }
      });
      child.on('exit', (code, signal) => {
        if (current >= 0 && !failure) {
          failure = new SpaceActError('io', `the worker running ${opts.ids[current]} exited (${signal ?? `code ${code}`}) before finishing it`, {
            instance: opts.ids[current],
          });
          broadcastStop();
        }
        resolve();
      });
      child.send({ type: 'init', init: opts.init } satisfies ToWorker);
      handOut();
    });

  const done: Array<Promise<void>> = [];
  for (let w = 0; w < opts.workers; w++) {
    const child = fork(WORKER_ENTRY, [], { execArgv: ['--import', tsx], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
    children.push(child);
    done.push(runWorker(child));
  }
  try {
    await Promise.all(done);
  } finally {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill();
  }
  if (failure) throw failure;
}
