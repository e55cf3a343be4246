import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { numberOption, stringOption } from '../../core/options.ts';
import { checkRedisUrl, DEFAULT_LOCK_SECONDS, shownUrl } from '../../agents/queue/protocol.ts';
import { QueueWorker, workerName } from '../../agents/queue/worker.ts';

const CLI = fileURLToPath(new URL('../../bin/spaceact.mjs', import.meta.url));

function say(line: string): void {
  process.stdout.write(`${new Date().toISOString()} ${workerName()} ${line}\n`);
}

/** Runs one queue worker in this process until SIGINT/SIGTERM (or its parent going away). */
async function runOne(url: string, lockSeconds: number): Promise<void> {
  const worker = await QueueWorker.start({ url, lockSeconds, log: say });
  say(`waiting for episodes on ${shownUrl(url)}`);
  let closing: Promise<void> | null = null;
  const stop = (why: string): Promise<void> => {
    if (closing) {
      // A second signal: leave now; the episode in flight goes back to the queue when its lock expires.
      process.exit(130);
    }
    say(`${why}: the episode in flight stops after its turn in flight and goes back to the queue (again to leave at once)`);
    closing = worker.close();
    return closing;
  };
  await new Promise<void>((resolve) => {
    const onSignal = (signal: string): void => void stop(signal).then(resolve);
    process.on('SIGINT', () => onSignal('SIGINT'));
    process.on('SIGTERM', () => onSignal('SIGTERM'));
    // Forked by `spaceact worker --concurrency N`, whose death (kill -9 included) ends this one too.
    if (process.send) process.on('disconnect', () => void stop('the parent process went away').then(resolve));
  });
  // A forked worker's channel to its parent would keep this process alive once closed.
  if (process.connected) {
    process.removeAllListeners('disconnect');
    process.disconnect?.();
  }
}

/** Runs `n` one-at-a-time workers as child processes (each its own core and browser), restarting any that dies. */
async function runMany(n: number, url: string, lockSeconds: number): Promise<void> {
  let stopping = false;
  const children = new Set<ChildProcess>();
  let exited!: () => void;
  const allDone = new Promise<void>((resolve) => (exited = resolve));
  const start = (): void => {
    const child = fork(CLI, ['worker', '--queue', url, '--concurrency', '1', '--lock-seconds', String(lockSeconds)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    children.add(child);
    child.on('exit', (code, signal) => {
      children.delete(child);
      if (!stopping) {
        say(`a worker process exited (${signal ?? `code ${code}`}); starting another in 5 s`);
        setTimeout(() => !stopping && start(), 5000).unref();
      } else if (children.size === 0) exited();
    });
  };
  for (let i = 0; i < n; i++) start();
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) process.exit(130);
    stopping = true;
    for (const c of children) c.kill(signal === 'SIGINT' ? 'SIGTERM' : signal);
    if (children.size === 0) exited();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  await allDone;
}

/** `spaceact worker --queue redis://HOST:PORT [--concurrency N]`: play episodes of queue runs. */
export function register(program: Command): void {
  program
    .command('worker')
    .description('play episodes of queue runs (`spaceact run … --queue URL`) with this machine\'s browser and environment (API keys); the coordinator writes the logs')
    .requiredOption('--queue <url>', 'the Redis the run\'s coordinator uses, e.g. redis://10.0.0.5:6379')
    .option('--concurrency <n>', 'episodes at once, each in its own process with its own Chromium', '1')
    .option('--lock-seconds <s>', 'how long the queue waits for a worker that stopped answering before its episode goes to another worker', String(DEFAULT_LOCK_SECONDS))
    .action(async (opts: Record<string, string | undefined>) => {
      const url = checkRedisUrl(stringOption(opts, 'queue')!);
      const n = numberOption(opts, 'concurrency', { min: 1, max: 64, integer: true })!;
      const lockSeconds = numberOption(opts, 'lockSeconds', { min: 1, max: 86_400 })!;
      if (n === 1) await runOne(url, lockSeconds);
      else await runMany(n, url, lockSeconds);
    });
}
