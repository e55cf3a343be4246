/**
 * Peak memory of the browser while some work runs, read from Linux /proc (issue 23). Used by
 * bench/support/family-cost.ts for every family's main instance.
 *
 * Two sums over the browser's processes, both reported: resident memory (RSS, what `ps` and
 * `top` show; a page shared by several processes, such as the Chromium binary's, counts once in
 * each) and proportional memory (PSS, a shared page split between its users; what the browser
 * really holds). Chromium runs as one process (render/chromium.ts), so the two differ only by
 * the pages it shares with other programs.
 */
import { readdirSync, readFileSync } from 'node:fs';

const MB = 1024 * 1024;

/** Process ids of `root` and all its descendants (Linux /proc). */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid)!.push(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  const out: number[] = [];
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** A number from `/proc/<pid>/<file>` (`field:   123 kB`), in bytes; 0 when the process is gone. */
export function procBytes(pid: number, file: string, field: string): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/${file}`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The browser's peak memory over some work, in MB. */
export interface BrowserPeak {
  /** Largest sum over its processes of resident memory (shared pages counted in each). */
  rssMB: number;
  /** Largest sum over its processes of proportional memory (shared pages split). */
  pssMB: number;
  /** Sum of the processes' own lifetime peaks (VmHWM), which no sample can miss. */
  hwmSumMB: number;
  /** Most processes seen at once (1 when Chromium runs as one process). */
  processes: number;
}

/**
 * Runs `work` while sampling every 100 ms the memory of the browser whose root process id
 * `rootPid()` gives (undefined while none runs).
 */
export async function browserPeak<T>(rootPid: () => number | undefined, work: () => Promise<T>): Promise<{ value: T } & BrowserPeak> {
  let rss = 0;
  let pss = 0;
  let processes = 0;
  let pids: number[] = [];
  const sample = (): void => {
    const root = rootPid();
    if (root === undefined) return;
    pids = processTree(root);
    processes = Math.max(processes, pids.length);
    rss = Math.max(rss, pids.reduce((t, p) => t + procBytes(p, 'status', 'VmRSS'), 0));
    pss = Math.max(pss, pids.reduce((t, p) => t + procBytes(p, 'smaps_rollup', 'Pss'), 0));
  };
  const timer = setInterval(sample, 100);
  try {
    const value = await work();
    sample();
    const hwm = pids.reduce((t, p) => t + procBytes(p, 'status', 'VmHWM'), 0);
    return { value, rssMB: rss / MB, pssMB: pss / MB, hwmSumMB: hwm / MB, processes };
  } finally {
    clearInterval(timer);
  }
}

/** Node's own peak resident memory so far, in MB (the kernel's high-water mark of this process). */
export function nodePeakRssMB(): number {
  return process.resourceUsage().maxRSS / 1024;
}
