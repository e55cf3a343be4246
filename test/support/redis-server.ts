/**
 * A real `redis-server` (Debian's package, installed by `scripts/ensure-redis.sh`) on a free
 * loopback port, with no persistence, for the queue tests and `npm run bench`. Stop it with
 * {@link RedisServer.stop}.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The redis-server binary: `SPACEACT_REDIS_SERVER`, else the one on PATH, else Debian's path. */
export function redisServerBinary(): string {
  const named = process.env.SPACEACT_REDIS_SERVER;
  if (named && existsSync(named)) return named;
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir && existsSync(join(dir, 'redis-server'))) return join(dir, 'redis-server');
  if (existsSync('/usr/bin/redis-server')) return '/usr/bin/redis-server';
  throw new Error('no redis-server found: run scripts/ensure-redis.sh (it installs Debian\'s redis-server package)');
}

/** A free TCP port on 127.0.0.1 (asked of the kernel, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** A running redis-server on 127.0.0.1. */
export class RedisServer {
  private constructor(
    private readonly child: ChildProcess | null,
    readonly port: number,
    private readonly dir: string | null,
  ) {}

  /** `redis://127.0.0.1:PORT`. */
  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /**
   * Starts a server on a free loopback port and waits until it accepts connections; or, when
   * `SPACEACT_TEST_REDIS_URL` names one on loopback (`.ci/run` starts one and stops it), uses
   * that one and leaves it running on {@link stop}. `own`: always a server of its own (a test
   * that stops it); `port`: on that port (a server started again where one was stopped).
   */
  static async start(opts: { own?: boolean; port?: number } = {}): Promise<RedisServer> {
    const given = process.env.SPACEACT_TEST_REDIS_URL;
    // Under `mocha --parallel` (MOCHA_WORKER_ID set) two queue test files may run at once; a shared
    // server would let one file's workers take the other's jobs, so each file starts its own.
    const parallel = process.env.MOCHA_WORKER_ID !== undefined;
    if (given && !parallel && !opts.own && opts.port === undefined) {
      const u = new URL(given);
      if (u.hostname !== '127.0.0.1' || !u.port) throw new Error(`SPACEACT_TEST_REDIS_URL must be redis://127.0.0.1:PORT, not ${given}`);
      return new RedisServer(null, Number(u.port), null);
    }
    const dir = mkdtempSync(join(tmpdir(), 'spaceact-redis-'));
    for (let attempt = 0; ; attempt++) {
      const port = opts.port ?? (await freePort());
      const child = spawn(redisServerBinary(), ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--protected-mode', 'yes'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let log = '';
      const ready = await new Promise<boolean>((resolve) => {
        const onData = (d: Buffer): void => {
          log += d.toString();
          if (/Ready to accept connections/.test(log)) resolve(true);
        };
        child.stdout!.on('data', onData);
        child.stderr!.on('data', onData);
        child.once('exit', () => resolve(false));
      });
      if (ready) return new RedisServer(child, port, dir);
      // Another process took the port between asking and binding: try another.
      if (attempt >= 4 || opts.port !== undefined) throw new Error(`redis-server did not start:\n${log.slice(-2000)}`);
    }
  }

  /** Stops the server and removes its folder. */
  async stop(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await exited;
    }
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }
}
