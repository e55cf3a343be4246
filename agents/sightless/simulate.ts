import { TaskEnv } from '../../tasks/env.ts';
import { referenceSolution } from '../../tasks/reference-cache.ts';
import type { AdaptiveTools, SimulatedOutcome, SimulatedWorld } from '../../tasks/sightless.ts';
import type { Instance, TaskFamily, Tier, ToolCall } from '../../tasks/types.ts';

/** A live candidate world: the real engine ({@link TaskEnv}) with the family's own code, no rendering. */
class EnvWorld implements SimulatedWorld {
  private freed = false;
  constructor(
    readonly instance: Instance,
    private readonly env: TaskEnv,
  ) {}

  execute(call: ToolCall): SimulatedOutcome & { solved: boolean; ended: boolean } {
    const r = this.env.execute(call);
    return { status: r.status, message: r.message, solved: this.env.solved(), ended: this.env.terminated };
  }

  preview(call: ToolCall): SimulatedOutcome & { solved: boolean } {
    const p = this.env.preview(call);
    return { status: p.result.status, message: p.result.message, solved: p.solved };
  }

  free(): void {
    if (this.freed) return;
    this.freed = true;
    this.env.free();
  }
}

/** Thrown inside an adaptive strategy's work once its episode's CPU cap is spent; the agent gives up. */
export class CpuCapSpent extends Error {
  /** True when the tier's shared work (pool, probing tree) was spent, not the episode's own cap. */
  readonly tierShared: boolean;
  constructor(
    readonly seconds: number,
    readonly cap: number,
    what = 'the episode',
    tierShared = false,
  ) {
    super(`gave up: ${what} had cost ${seconds.toFixed(1)} s of CPU (cap ${cap} s)`);
    this.tierShared = tierShared;
  }
}

/** Key of the tier's shared CPU seconds in a tier memo. */
const TIER_CPU = 'cpu:shared';
/** Key of the tier's precomputation CPU seconds in a tier memo (see {@link EpisodeTools.precompute}). */
const PRECOMPUTE_CPU = 'cpu:precompute';

/** Opens a simulated world of `instance` (rendering off). */
export async function openWorld(family: TaskFamily, instance: Instance): Promise<SimulatedWorld> {
  return new EnvWorld(instance, await TaskEnv.create(family, instance));
}

/** CPU seconds of this process so far (user + system). */
export function processCpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** What {@link adaptiveTools} needs from the battery. */
export interface AdaptiveToolsOptions {
  family: TaskFamily;
  tier: Tier;
  /** Seeds the battery judges, trains on or has released: never handed out for sampling. */
  reserved: ReadonlySet<number>;
  /** Shared by one strategy over the tier's episodes. */
  tierMemo: Map<string, unknown>;
  /** Per-episode CPU cap, seconds. */
  cpuCap: number;
  /**
   * CPU seconds the tier's shared work (the candidate pool, the probing tree) may cost in all,
   * beside the episodes' own caps; past it, work not yet done is given up.
   */
  tierCpuCap: number;
}

/** First seed of the range adaptive strategies sample the generator from (far past every judged, training and released seed). */
export const SAMPLE_SEED_BASE = 1_000_000;

/**
 * The public code lent to adaptive sightless strategies for one episode (see
 * {@link AdaptiveTools}). Every world it opens is freed by {@link EpisodeTools.close}.
 */
export class EpisodeTools implements AdaptiveTools {
  readonly family: TaskFamily;
  readonly tier: Tier;
  readonly tierMemo: Map<string, unknown>;
  readonly episodeMemo = new Map<string, unknown>();
  readonly cpuCap: number;
  private readonly tierCpuCap: number;
  /** When the outermost shared work of this episode started (CPU seconds), while it runs. */
  private uncappedStart = 0;
  private readonly reserved: ReadonlySet<number>;
  private readonly opened = new Set<SimulatedWorld>();
  private readonly cpuStart = processCpuSeconds();
  /** CPU spent on uncapped tier-shared work during this episode (not held against its cap). */
  private uncappedCpu = 0;
  private uncappedDepth = 0;
  /** CPU spent on precomputation during this episode (see {@link precompute}). */
  private precomputeCpu = 0;
  private precomputeDepth = 0;

  constructor(o: AdaptiveToolsOptions) {
    this.family = o.family;
    this.tier = o.tier;
    this.tierMemo = o.tierMemo;
    this.cpuCap = o.cpuCap;
    this.tierCpuCap = o.tierCpuCap;
    this.reserved = o.reserved;
  }

  sampleSeeds(count: number): number[] {
    const out: number[] = [];
    for (let s = SAMPLE_SEED_BASE; out.length < count; s++) if (!this.reserved.has(s)) out.push(s);
    return out;
  }

  async open(instance: Instance): Promise<SimulatedWorld> {
    this.checkCap();
    const w = await openWorld(this.family, instance);
    const free = w.free.bind(w);
    w.free = () => {
      this.opened.delete(w);
      free();
    };
    this.opened.add(w);
    return w;
  }

  async simulate(instance: Instance, calls: ToolCall[]): Promise<Array<SimulatedOutcome & { solved: boolean }>> {
    this.checkCap();
    const w = await openWorld(this.family, instance);
    try {
      const out: Array<SimulatedOutcome & { solved: boolean }> = [];
      for (const c of calls) {
        const r = w.execute(c);
        out.push({ status: r.status, message: r.message, solved: r.solved });
        if (r.ended) break;
      }
      return out;
    } finally {
      w.free();
    }
  }

  reference(instance: Instance) {
    this.checkCap();
    return referenceSolution(this.family, instance);
  }

  /** Throws {@link CpuCapSpent} once the episode's capped CPU is over its cap. */
  checkCap(): void {
    if (this.precomputeDepth > 0) return;
    if (this.uncappedDepth > 0) {
      const spent = ((this.tierMemo.get(TIER_CPU) as number | undefined) ?? 0) + processCpuSeconds() - this.uncappedStart;
      if (spent > this.tierCpuCap) throw new CpuCapSpent(spent, this.tierCpuCap, 'the tier\'s shared work', true);
      return;
    }
    const s = this.cpuSeconds();
    if (s > this.cpuCap) throw new CpuCapSpent(s, this.cpuCap);
  }

  async shared<T>(key: string, compute: () => T | Promise<T>, opts: { uncapped?: boolean } = {}): Promise<T> {
    if (this.tierMemo.has(key)) return this.tierMemo.get(key) as T;
    // Work an earlier episode of the tier gave up on is not tried again by every later one
    // (the tier would cost its cap per episode): they give up at once.
    const abandoned = this.tierMemo.get(`abandoned:${key}`) as { seconds: number; cap: number; tierShared: boolean } | undefined;
    if (abandoned !== undefined) {
      throw new CpuCapSpent(abandoned.seconds, abandoned.cap, abandoned.tierShared ? "the tier's shared work" : 'the episode', abandoned.tierShared);
    }
    const counted = opts.uncapped && this.uncappedDepth === 0;
    const before = processCpuSeconds();
    if (counted) this.uncappedStart = before;
    if (opts.uncapped) this.uncappedDepth++;
    try {
      const value = await compute();
      this.tierMemo.set(key, value);
      return value;
    } catch (err) {
      if (err instanceof CpuCapSpent) this.tierMemo.set(`abandoned:${key}`, { seconds: err.seconds, cap: err.cap, tierShared: err.tierShared });
      throw err;
    } finally {
      if (opts.uncapped) this.uncappedDepth--;
      // Work nested in uncapped work is counted once, by the outermost call.
      if (counted) {
        const spent = processCpuSeconds() - before;
        this.uncappedCpu += spent;
        this.tierMemo.set(TIER_CPU, ((this.tierMemo.get(TIER_CPU) as number | undefined) ?? 0) + spent);
      }
    }
  }

  async precompute<T>(key: string, compute: () => T | Promise<T>): Promise<T> {
    if (this.tierMemo.has(key)) return this.tierMemo.get(key) as T;
    const outermost = this.precomputeDepth === 0 && this.uncappedDepth === 0;
    const before = processCpuSeconds();
    this.precomputeDepth++;
    try {
      const value = await compute();
      this.tierMemo.set(key, value);
      return value;
    } finally {
      this.precomputeDepth--;
      // Counted once, by the outermost call; precomputation nested in capped or uncapped work
      // is that work's (it cannot happen in the strategies here, but the sum stays right).
      if (outermost) {
        const spent = processCpuSeconds() - before;
        this.precomputeCpu += spent;
        this.tierMemo.set(PRECOMPUTE_CPU, ((this.tierMemo.get(PRECOMPUTE_CPU) as number | undefined) ?? 0) + spent);
      }
    }
  }

  /** CPU seconds this episode spent precomputing for the tier (held against no cap). */
  precomputedSeconds(): number {
    return this.precomputeCpu;
  }

  cpuSeconds(): number {
    return processCpuSeconds() - this.cpuStart - this.uncappedCpu - this.precomputeCpu;
  }

  /** Frees every world still open (the episode is over). */
  close(): void {
    for (const w of [...this.opened]) w.free();
  }
}
