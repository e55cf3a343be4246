/**
 * Entry of a worker process of a parallel run (`agents/worker-pool.ts` forks it through the
 * process pool). It keeps one renderer — started only if the run renders — runs the episodes
 * it is handed one at a time with the same code as a serial run, and reports each new turn's
 * cost and each finished episode. If the parent goes away (killed), the worker exits at once:
 * it loses at most its turn in flight.
 */
import { Renderer } from '../render/renderer.ts';
import { SpaceActError } from '../core/errors.ts';
import { agentFactory } from './agent-registry.ts';
import { fsErrorLine } from './fs-errors.ts';
import { serveJobs, type JobError } from './process-pool.ts';
import { runLoggedEpisodeResult, type EpisodeResult } from './runner.ts';
import type { RunWorkerEvent, WorkerInit } from './worker-pool.ts';

let renderer: Renderer | null = null;

serveJobs<WorkerInit, string, EpisodeResult | null, RunWorkerEvent>(
  async (id, ctx) => {
    const cfg = ctx.init;
    if (!renderer && !cfg.mode.blind && cfg.render !== 'never') renderer = new Renderer();
    const factory = agentFactory(cfg.agent.name);
    ctx.emit({ type: 'start', id });
    return runLoggedEpisodeResult(
      id,
      {
        makeAgent: () => factory(cfg.agent.options),
        mode: cfg.mode,
        out: cfg.out,
        render: cfg.render,
        historyImages: cfg.historyImages,
        keepAbandoned: cfg.keepAbandoned,
        shouldStop: ctx.stopRequested,
        onNotice: (message) => ctx.emit({ type: 'notice', message }),
        onTurn: (r) => ctx.emit({ type: 'turn', cost: r.reply.usage?.cost ?? 0, id, turn: r.turn, ...(r.reply.usage ? { usage: r.reply.usage } : {}) }),
      },
      renderer,
    );
  },
  {
    close: async () => {
      await renderer?.close();
    },
    describeError(err, id): JobError {
      if (err instanceof SpaceActError) return { code: err.code, message: err.message, details: err.details };
      const fsLine = fsErrorLine(err);
      if (fsLine) return { code: 'io', message: fsLine };
      return { message: `${id}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}` };
    },
  },
);
