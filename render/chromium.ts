import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { SpaceActError } from '../core/errors.ts';
import { resolveChromium } from './browser-path.ts';
import { pageScript, RENDER_PAGE } from './page-bundle.ts';

/**
 * Chromium flags: software WebGL (SwiftShader through ANGLE, identical pixels on every run of
 * a machine) and no background traffic of any kind.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--enable-unsafe-swiftshader',
  '--use-angle=swiftshader',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
  // One process, less memory (issue 23). Every Chromium process has 67–180 MB of the same
  // binary and libraries resident, so five of them (browser with the software GPU, the page's
  // renderer, a WebUI renderer, the network and storage services) summed 890–920 MB of resident
  // memory; as one process 430–490 MB, with 9% less CPU time and the same image bytes. The
  // other flags stay: without --no-zygote two zygotes are still forked (+140 MB).
  '--single-process',
  '--in-process-gpu',
  '--renderer-process-limit=1',
  '--no-zygote',
  '--disable-extensions',
];

/** Launches tried before giving up: a browser that dies while starting is started again, as one that dies later is. */
export const LAUNCH_ATTEMPTS = 3;

/** Environment variables Chromium may see (and any `LC_*`): what it needs to run, find fonts and temporary space. */
const BROWSER_ENV = [
  'PATH', 'HOME', 'USER', 'LOGNAME', 'LANG', 'LANGUAGE', 'TZ', 'TMPDIR',
  'FONTCONFIG_FILE', 'FONTCONFIG_PATH', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_DATA_HOME', 'XDG_RUNTIME_DIR', 'LD_LIBRARY_PATH',
];

/**
 * The minimal environment Chromium is started with: the allow-listed variables above, never
 * API keys or anything else of the program's (a browser is a large attack surface and writes
 * crash dumps).
 */
export function browserEnvironment(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (v !== undefined && (BROWSER_ENV.includes(k) || /^LC_[A-Z]+$/.test(k))) out[k] = v;
  }
  return out;
}

const PAGE_HTML = '<!doctype html><html><head><meta charset="utf-8"><style>body{margin:0;background:#000}</style></head><body></body></html>';

/** A page that is ready to draw, and which launch of the browser it belongs to. */
export interface ReadyPage {
  page: Page;
  /** Increases with every launch; state mirrored from an older launch is gone. */
  generation: number;
}

/** Counters for tests and benchmarks. */
export interface ChromiumStats {
  launches: number;
  /** Network requests the page tried to make (all are refused). */
  requests: number;
  /** Milliseconds each launch took until the page was ready to draw. */
  launchMs: number[];
  /** Launches that failed and were tried again (or given up on). */
  launchFailures: number;
}

/** Waits for `work` at most `ms`; true if it fulfilled in time. Never rejects. */
function settleWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work.then(
      () => true,
      () => false,
    ),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

const live = new Set<ChromiumHost>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Chromium talks to us over a pipe and exits when it closes, but an 'exit' handler also
  // covers process.exit() called while the browser is still busy.
  process.on('exit', () => {
    for (const host of live) host.killNow();
  });
}

/**
 * One headless Chromium with one reusable page holding the renderer's script. Launched
 * lazily, relaunched after it dies, closed explicitly with {@link ChromiumHost.close}.
 */
export class ChromiumHost {
  private browser: Browser | null = null;
  private page: Page | null = null;
  private userDataDir: string | null = null;
  private crashed = false;
  private lastPageError = '';
  private generation = 0;
  private closed = false;
  private launching: Promise<ReadyPage> | null = null;
  private readonly stats: ChromiumStats = { launches: 0, requests: 0, launchMs: [], launchFailures: 0 };

  constructor(
    private readonly executablePath: string | undefined,
    private readonly launchTimeoutMs: number,
  ) {}

  /** The browser process id, if one is running. */
  get pid(): number | undefined {
    return this.browser?.process()?.pid ?? undefined;
  }

  /** The running browser's temporary profile folder, if one is running. */
  get profileDir(): string | null {
    return this.userDataDir;
  }

  /** The running browser, if any (benchmarks open a second page in it). */
  get runningBrowser(): Browser | null {
    return this.browser;
  }

  /** A copy of the counters. */
  counters(): ChromiumStats {
    return { ...this.stats, launchMs: [...this.stats.launchMs] };
  }

  /** True when the browser and its page can take work. */
  healthy(): boolean {
    return !!this.browser && this.browser.connected && !!this.page && !this.page.isClosed() && !this.crashed;
  }

  /** The last uncaught error the page reported, for error messages. */
  pageError(): string {
    return this.lastPageError;
  }

  /** The ready page, launching (or relaunching) the browser first when needed. */
  async ready(): Promise<ReadyPage> {
    if (this.closed) throw new SpaceActError('invalid-state', 'the renderer was closed; create a new Renderer');
    if (this.healthy()) return { page: this.page!, generation: this.generation };
    if (!this.launching) {
      this.launching = this.launch().finally(() => {
        this.launching = null;
      });
    }
    return this.launching;
  }

  /**
   * Launches the browser, trying again (up to {@link LAUNCH_ATTEMPTS} times, with a short
   * pause) when it dies or hangs while starting. A missing executable fails at once.
   */
  private async launch(): Promise<ReadyPage> {
    const executablePath = resolveChromium(this.executablePath);
    const script = await pageScript(RENDER_PAGE);
    let last: Error | null = null;
    for (let attempt = 1; attempt <= LAUNCH_ATTEMPTS; attempt++) {
      if (this.closed) break;
      try {
        return await this.launchOnce(executablePath, script);
      } catch (err) {
        last = err as Error;
        this.stats.launchFailures++;
        if (attempt < LAUNCH_ATTEMPTS) await new Promise((r) => setTimeout(r, 250 * attempt));
      }
    }
    throw new SpaceActError('browser', `could not start Chromium (${executablePath}) in ${LAUNCH_ATTEMPTS} attempts; last: ${last?.message ?? 'the renderer was closed'}`, {
      executablePath,
    });
  }

  private async launchOnce(executablePath: string, script: string): Promise<ReadyPage> {
    await this.kill();
    const t0 = performance.now();
    this.userDataDir = mkdtempSync(join(tmpdir(), 'spaceact-chromium-'));
    installExitHook();
    live.add(this);
    try {
      this.browser = await puppeteer.launch({
        executablePath,
        headless: true,
        pipe: true,
        args: CHROMIUM_ARGS,
        userDataDir: this.userDataDir,
        timeout: this.launchTimeoutMs,
        env: browserEnvironment(),
        // Signals belong to the program (e.g. `play` stops cleanly on Ctrl-C); Chromium still
        // exits with this process, because it talks to us over a pipe.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
      const page = (await this.browser.pages())[0] ?? (await this.browser.newPage());
      this.crashed = false;
      this.lastPageError = '';
      page.on('error', () => {
        this.crashed = true;
      });
      page.on('pageerror', (err) => {
        this.lastPageError = err instanceof Error ? err.message : String(err);
      });
      await page.setRequestInterception(true);
      page.on('request', (request) => {
        this.stats.requests++;
        void request.abort('blockedbyclient').catch(() => undefined);
      });
      await page.setContent(PAGE_HTML);
      await page.addScriptTag({ content: script });
      const ok = await page.evaluate(() => typeof (window as unknown as { __spaceact?: unknown }).__spaceact === 'object');
      if (!ok) throw new Error(`the page script did not start (WebGL unavailable?): ${this.lastPageError || 'no error reported'}`);
      this.page = page;
    } catch (err) {
      await this.kill();
      throw err;
    }
    this.generation++;
    this.stats.launches++;
    this.stats.launchMs.push(performance.now() - t0);
    return { page: this.page, generation: this.generation };
  }

  /** Ends the browser at once (SIGKILL to its process group) and removes its profile. */
  killNow(): void {
    const pid = this.pid;
    if (pid !== undefined) {
      try {
        // puppeteer starts Chromium as a process-group leader: the group holds its helpers too.
        process.kill(-pid, 'SIGKILL');
      } catch {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
    if (this.userDataDir) rmSync(this.userDataDir, { recursive: true, force: true });
    this.userDataDir = null;
    live.delete(this);
  }

  /** Ends the current browser, if any, without waiting for it to shut down politely. */
  async kill(): Promise<void> {
    const browser = this.browser;
    this.browser = null;
    this.page = null;
    if (!browser) {
      this.killNow();
      return;
    }
    const proc = browser.process();
    const pid = proc?.pid;
    if (pid !== undefined) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    if (proc && proc.exitCode === null && proc.signalCode === null) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 2000);
        proc.once('exit', () => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    // Lets puppeteer release its side of the connection; the process is already gone.
    await settleWithin(browser.close(), 2000);
    this.killNow();
  }

  /** Closes the browser and removes its profile. Safe to call more than once. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.launching) await this.launching.catch(() => undefined);
    const browser = this.browser;
    if (browser && browser.connected && (await settleWithin(browser.close(), 5000))) this.browser = null;
    await this.kill();
  }
}
