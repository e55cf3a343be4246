/**
 * Real `spaceact` processes for the queue tests (coordinators, workers, local runs), with their
 * output collected, and polling helpers that wait for a condition rather than for a time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = join(ROOT, 'bin', 'spaceact.mjs');

/** A running CLI process. */
export interface Proc {
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  out: () => string;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>;
}

/** Starts `spaceact ARGS` (or another checkout's CLI) with `env` added to this environment. */
export function spaceact(args: string[], env: NodeJS.ProcessEnv = {}, cli = CLI): Proc {
  const child = spawn(process.execPath, [cli, ...args], { cwd: dirname(dirname(cli)), env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, out })));
  return { child, out: () => out, done };
}

/** Kills a process that still runs (SIGKILL) and waits for it. */
export function kill(p: Proc | undefined): Promise<unknown> {
  if (!p || p.child.exitCode !== null || p.child.signalCode !== null) return Promise.resolve();
  p.child.kill('SIGKILL');
  return p.done;
}

/**
 * Polls `test` every 100 ms until it holds. Fails when one of `procs` ends first, or after
 * `limitMs` (a generous bound against a hung test, never a claim about speed).
 */
export async function until(test: () => boolean | Promise<boolean>, procs: Proc[], what: string, limitMs = 400_000): Promise<void> {
  const started = Date.now();
  for (;;) {
    if (await test()) return;
    for (const p of procs) {
      if (p.child.exitCode !== null || p.child.signalCode !== null) {
        throw new Error(`${what}: a process ended first (${p.child.signalCode ?? p.child.exitCode}):\n${p.out().slice(-3000)}`);
      }
    }
    if (Date.now() - started > limitMs) throw new Error(`${what}: not within ${limitMs / 1000} s:\n${procs.map((p) => p.out().slice(-1500)).join('\n---\n')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The JSON lines of an episode log. */
export function logLines(out: string, id: string): Array<Record<string, unknown>> {
  const file = join(out, 'episodes', id, 'log.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.endsWith('}')).map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Each turn's state hash and calls, and the final state hash: what must match a serial run. */
export function trajectory(out: string, id: string): unknown {
  const lines = logLines(out, id);
  const turns = lines.filter((l) => l.type === 'turn').map((t) => ({ turn: t.turn, stateHash: t.stateHash, actions: (t.reply as { actions: unknown }).actions, results: t.results }));
  const end = lines.find((l) => l.type === 'end') as { outcome: { finalStateHash: string } } | undefined;
  return { turns, final: end?.outcome.finalStateHash };
}

/** `summary.json` of a run folder. */
export function summaryOf(out: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Record<string, unknown>;
}

/** Every file under `dir`, relative to it. */
export function filesUnder(dir: string, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) found.push(...filesUnder(p, `${prefix}${name}/`));
    else found.push(`${prefix}${name}`);
  }
  return found;
}

/** Every key and value stored in Redis, as raw bytes. */
export async function everythingIn(url: string): Promise<Buffer[]> {
  const redis = new Redis(url);
  const found: Buffer[] = [];
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scanBuffer(cursor, 'COUNT', 1000);
      cursor = next.toString();
      for (const key of keys) {
        found.push(key);
        const type = await redis.type(key);
        if (type === 'string') found.push((await redis.getBuffer(key))!);
        else if (type === 'hash') for (const [field, value] of Object.entries(await redis.hgetallBuffer(key))) found.push(Buffer.from(field), value);
        else if (type === 'list') found.push(...(await redis.lrangeBuffer(key, 0, -1)));
        else if (type === 'set') found.push(...(await redis.smembersBuffer(key)));
        else if (type === 'zset') found.push(...(await redis.zrangeBuffer(key, 0, -1)));
        else if (type === 'stream') for (const [, fields] of await redis.xrangeBuffer(key, '-', '+')) found.push(...fields);
      }
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return found;
}
