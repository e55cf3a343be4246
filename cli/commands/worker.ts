import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Command } from 'commander';
import { numberOption, stringOption } from '../../core/options.ts';
import { agentFactory } from '../../agents/agent-registry.ts';
import { checkRedisUrl, DEFAULT_LOCK_SECONDS, shownUrl } from '../../agents/queue/protocol.ts';
import { KEYLESS_AGENTS, QueueWorker, workerName } from '../../agents/queue/worker.ts';
import { OneJobAtATime } from '../../agents/queue/one-at-a-time.ts';
import { VerifyQueueWorker } from '../../verify/queue.ts';
import type { AgentOptions } from '../../agents/types.ts';
import { AGENT_OPTIONS, agentOptions } from './run.ts';
import { PACKAGE_ROOT } from '../../core/package-root.ts';

const CLI = join(PACKAGE_ROOT, 'bin', 'spaceact.mjs');

function say(line: string): void {
  process.stdout.write(`${new Date().toISOString()} ${workerName()} ${line}\n`);
}

/**
 * The agents this worker plays and the options it builds each with, from its own flags only
 * (a job names an agent's kind, never an option): the keyless agents always, `random` and
 * `greedy` with `--seed`/`--greedy-samples`, `openai` when `--model` is given.
 */
export function workerAgents(opts: Record<string, unknown>): Record<string, AgentOptions> {
  const agents: Record<string, AgentOptions> = { ...KEYLESS_AGENTS };
  for (const kind of Object.keys(AGENT_OPTIONS)) {
    if (kind === 'openai' && opts.model === undefined) continue;
    const own = Object.fromEntries(AGENT_OPTIONS[kind].filter((k) => opts[k] !== undefined).map((k) => [k, opts[k]]));
    agents[kind] = agentOptions(kind, own);
  }
  return agents;
}

/** Runs one queue worker in this process until SIGINT/SIGTERM (or its parent going away). */
async function runOne(url: string, lockSeconds: number, agents: Record<string, AgentOptions>): Promise<void> {
  // Episodes of queue runs and pieces of queue verifications, one job at a time.
  const gate = new OneJobAtATime();
  const worker = await QueueWorker.start({ url, lockSeconds, log: say, agents, gate });
  const verifier = await VerifyQueueWorker.start({ url, lockSeconds, log: say, gate, name: workerName() });
  say(`waiting for episodes and verification jobs on ${shownUrl(url)} (agents: ${Object.keys(agents).map((k) => (k === 'openai' ? `openai:${String(agents[k].model)}` : k)).join(', ')})`);
  let closing: Promise<void> | null = null;
  const stop = (why: string): Promise<void> => {
    if (closing) {
      // A second signal: leave now; the episode in flight goes back to the queue when its lock expires.
      process.exit(130);
    }
    say(`${why}: the episode in flight stops after its turn in flight and goes back to the queue (again to leave at once)`);
    gate.close();
    closing = Promise.all([worker.close(), verifier.close()]).then(() => {});
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
  // Closed: anything still holding the event loop (a connection to a Redis that is gone) does not keep the process.
  setTimeout(() => process.exit(process.exitCode ?? 0), 2000).unref();
}

/** Runs `n` one-at-a-time workers as child processes (each its own core and browser), restarting any that dies. */
async function runMany(n: number, childArgs: string[]): Promise<void> {
  let stopping = false;
  const children = new Set<ChildProcess>();
  let exited!: () => void;
  const allDone = new Promise<void>((resolve) => (exited = resolve));
  const start = (): void => {
    const child = fork(CLI, ['worker', ...childArgs, '--concurrency', '1'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
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

/** `spaceact worker --queue redis://HOST:PORT [--concurrency N]`: play episodes of queue runs and check pieces of queue verifications. */
export function register(program: Command): void {
  program
    .command('worker')
    .description('play episodes of queue runs (`spaceact run … --queue URL`) with this machine\'s browser and environment (API keys), and check pieces of queue verifications (`spaceact verify … --queue URL`), one job at a time per process; the coordinator writes the logs and the verdicts')
    .requiredOption('--queue <url>', 'the Redis the run\'s coordinator uses, e.g. redis://10.0.0.5:6379')
    .option('--concurrency <n>', 'jobs at once, each in its own process (an episode with its own Chromium)', '1')
    .option('--lock-seconds <s>', 'how long the queue waits for a worker that stopped answering before its episode goes to another worker', String(DEFAULT_LOCK_SECONDS))
    // The agent's options are this worker's own: a job names only the agent's kind.
    .option('--seed <n>', 'random/greedy: seed (with the instance id); openai: retry jitter seed')
    .option('--greedy-samples <n>', 'greedy: calls drawn from the schemas per turn')
    .option('--model <name>', 'openai: the model this worker plays (without it, this worker takes no openai episodes)')
    .option('--base-url <url>', 'openai: endpoint root (default $OPENAI_BASE_URL or https://api.openai.com/v1); jobs never name one')
    .option('--api-key-env <NAME>', 'openai: environment variable holding the key (default OPENAI_API_KEY); jobs never name one')
    .option('--temperature <t>', 'openai: sampling temperature')
    .option('--max-output-tokens <n>', 'openai: output-token limit per request')
    .option('--max-tokens-field <field>', 'openai: max_completion_tokens (default) or max_tokens')
    .option('--reasoning-effort <level>', 'openai: none, minimal, low, medium, high or xhigh')
    .option('--timeout <seconds>', 'openai: per-request deadline (default 300)')
    .option('--api-attempts <n>', 'openai: requests per answer before the episode is abandoned (default 6)')
    .option('--backoff-base <seconds>', 'openai: first retry delay, doubling (default 1)')
    .option('--backoff-cap <seconds>', 'openai: longest retry delay (default 30)')
    .option('--reply-retries <n>', 'openai: re-asks after an invalid reply (default 2)')
    .option('--history-turns <k>', 'openai: earlier turns shown as text (default 8)')
    .option('--prices <file>', 'openai: JSON price table on this machine')
    .option('--cache <dir>', 'openai: response cache folder on this machine')
    .action(async (opts: Record<string, string | undefined>, command: Command) => {
      const url = checkRedisUrl(stringOption(opts, 'queue')!);
      const n = numberOption(opts, 'concurrency', { min: 1, max: 64, integer: true })!;
      const lockSeconds = numberOption(opts, 'lockSeconds', { min: 1, max: 86_400 })!;
      const agents = workerAgents(opts);
      // Bad options fail here, before any job is taken (an openai worker's key is checked too: it plays).
      for (const [kind, options] of Object.entries(agents)) await agentFactory(kind)(options).close?.();
      if (n === 1) await runOne(url, lockSeconds, agents);
      else {
        // Every child gets this command's own flags (the agents' options included), one episode at a time.
        const args = command.args.length ? [] : process.argv.slice(process.argv.indexOf('worker') + 1);
        const childArgs: string[] = [];
        for (let i = 0; i < args.length; i++) {
          if (args[i] === '--concurrency') i++;
          else if (!args[i].startsWith('--concurrency=')) childArgs.push(args[i]);
        }
        await runMany(n, childArgs);
      }
    });
}
