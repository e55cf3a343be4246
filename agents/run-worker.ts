/**
 * Entry of a worker process of a parallel run (`agents/worker-pool.ts` forks it through tsx).
 * It keeps one renderer, runs the episodes it is handed one at a time with the same code as a
 * serial run, and reports each new turn's cost and each finished episode. If the parent goes
 * away (killed), the worker exits at once: it loses at most its turn in flight.
 */
import { Renderer } from '../render/renderer.ts';
import { SpaceActError } from '../core/errors.ts';
import { agentFactory } from './agent-registry.ts';
import { fsErrorLine } from './fs-errors.ts';
import { runLoggedEpisodeResult } from './runner.ts';
import type { FromWorker, ToWorker, WorkerInit } from './worker-pool.ts';

let init: WorkerInit | null = null;
let renderer: Renderer | null = null;
let stop = false;
let queue: Promise<void> = Promise.resolve();

function send(msg: FromWorker): void {
  if (process.connected) process.send!(msg);
}

async function runOne(index: number, id: string): Promise<void> {
  const cfg = init!;
  if (!renderer && !cfg.mode.blind && cfg.render !== 'never') renderer = new Renderer();
  const factory = agentFactory(cfg.agent.name);
  send({ type: 'start', id });
  try {
    const result = await runLoggedEpisodeResult(
      id,
      {
        makeAgent: () => factory(cfg.agent.options),
        mode: cfg.mode,
        out: cfg.out,
        render: cfg.render,
        historyImages: cfg.historyImages,
        keepAbandoned: cfg.keepAbandoned,
        shouldStop: () => stop,
        onNotice: (message) => send({ type: 'notice', message }),
        onTurn: (r) => send({ type: 'turn', cost: r.reply.usage?.cost ?? 0, id, turn: r.turn, ...(r.reply.usage ? { usage: r.reply.usage } : {}) }),
      },
      renderer,
    );
    send({ type: 'done', index, result });
  } catch (err) {
    const fsLine = fsErrorLine(err);
    const e = err instanceof SpaceActError
      ? { code: err.code, message: err.message, details: err.details }
      : fsLine
        ? { code: 'io' as const, message: fsLine }
        : { message: `${id}: ${err instanceof Error ? err.stack ?? err.message : String(err)}` };
    send({ type: 'failed', index, error: e });
  }
}

async function shutdown(code: number): Promise<void> {
  try {
    await renderer?.close();
  } finally {
    process.exit(code);
  }
}

process.on('message', (msg: ToWorker) => {
  switch (msg.type) {
    case 'init':
      init = msg.init;
      break;
    case 'run':
      queue = queue.then(() => runOne(msg.index, msg.id));
      break;
    case 'stop':
      stop = true;
      break;
    case 'exit':
      queue = queue.then(() => shutdown(0));
      break;
  }
});

// The parent died (kill -9 included): stop now rather than write logs nobody will read.
// (The browser is killed by the renderer's own exit hook.)
process.on('disconnect', () => {
  process.exit(1);
});
