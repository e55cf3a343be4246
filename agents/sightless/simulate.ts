import { canonicalJson } from '../../core/canonical-json.ts';
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

/** How often {@link EpisodeTools.checkCap} reads the CPU time at most, wall milliseconds. */
const CAP_CHECK_INTERVAL_MS = 5;

/** Key of the tier's live candidate worlds in a tier memo (see {@link LiveWorlds}). */
const LIVE_WORLDS = 'live-worlds';

/** How many candidate worlds a tier keeps live at most (the least recently used is freed). */
export const LIVE_WORLD_CAPACITY = 600;

/** One candidate world kept live, with the calls it has played and what each returned. */
interface LiveWorld {
  world: EnvWorld;
  /** Canonical JSON of each call played, in order. */
  keys: string[];
  outcomes: Array<SimulatedOutcome & { solved: boolean }>;
  /** True once a call ended its episode (later calls are not run). */
  ended: boolean;
}

/**
 * A tier's candidate worlds kept live between simulations (issue 36: reconstruct-then-plan's
 * probing tree replayed a node's whole history from a fresh world for every candidate at every
 * split, so its cost grew with the square of the episode's length and many of M2's, A1's and P2's
 * episodes went on unfiltered past the tier's cap). The probing tree files every candidate
 * under one child of each split, so a candidate's world only ever moves forward along one
 * history: a simulation that extends it runs only the new calls. A history that diverges from
 * the one played (rare: an episode gone unfiltered) replays from a fresh world. Outcomes equal a
 * fresh replay's because the engine is deterministic (a test compares them). At most `capacity`
 * worlds are kept; the least recently used is freed first. {@link free} releases them all.
 */
export class LiveWorlds {
  private readonly worlds = new Map<Instance, LiveWorld>();
  /** Canonical keys of the last call lists seen (one list is simulated for every candidate of a split). */
  private keyCache = new WeakMap<ToolCall[], string[]>();

  constructor(
    private readonly family: TaskFamily,
    readonly capacity = LIVE_WORLD_CAPACITY,
  ) {}

  /** How many worlds are live. */
  get size(): number {
    return this.worlds.size;
  }

  private keysOf(calls: ToolCall[]): string[] {
    let k = this.keyCache.get(calls);
    if (!k) this.keyCache.set(calls, (k = calls.map((c) => canonicalJson(c))));
    return k;
  }

  /**
   * The live world of `instance` having played `calls` (or ended within them). `exact` asks for
   * a world standing right after `calls`: when the live one has played further, a fresh world
   * is opened for the caller, who must free it (`borrowed` false).
   */
  async advance(instance: Instance, calls: ToolCall[], beforeRun: () => void, exact = false): Promise<{ live: LiveWorld; borrowed: boolean }> {
    const keys = this.keysOf(calls);
    let live = this.worlds.get(instance);
    if (live) {
      this.worlds.delete(instance);
      let common = 0;
      const n = Math.min(live.keys.length, keys.length);
      while (common < n && live.keys[common] === keys[common]) common++;
      if (common < live.keys.length) {
        if (common === keys.length) {
          // `calls` is a prefix of what the live world has played: its outcomes are known.
          this.worlds.set(instance, live);
          if (!exact) return { live, borrowed: true };
          // A world standing right after `calls` is wanted: the caller gets a fresh one.
          beforeRun();
          const own = await this.open(instance);
          try {
            this.run(own, calls, keys);
          } catch (err) {
            own.world.free();
            throw err;
          }
          return { live: own, borrowed: false };
        }
        // Diverged: this history is not the one the live world followed.
        live.world.free();
        live = undefined;
      }
    }
    if (!live) {
      beforeRun();
      live = await this.open(instance);
    }
    this.worlds.set(instance, live);
    this.evict();
    beforeRun();
    try {
      this.run(live, calls, keys);
    } catch (err) {
      // A world whose call threw is in no known state: never reuse it.
      this.worlds.delete(instance);
      live.world.free();
      throw err;
    }
    return { live, borrowed: true };
  }

  private async open(instance: Instance): Promise<LiveWorld> {
    return { world: new EnvWorld(instance, await TaskEnv.create(this.family, instance, { images: false })), keys: [], outcomes: [], ended: false };
  }

  private run(live: LiveWorld, calls: ToolCall[], keys: string[]): void {
    for (let i = live.keys.length; i < calls.length && !live.ended; i++) {
      const r = live.world.execute(calls[i]);
      live.keys.push(keys[i]);
      live.outcomes.push({ status: r.status, message: r.message, solved: r.solved });
      if (r.ended) live.ended = true;
    }
  }

  private evict(): void {
    for (const [instance, live] of this.worlds) {
      if (this.worlds.size <= this.capacity) break;
      this.worlds.delete(instance);
      live.world.free();
    }
  }

  /** Frees every live world. */
  free(): void {
    for (const live of this.worlds.values()) live.world.free();
    this.worlds.clear();
    this.keyCache = new WeakMap();
  }
}

/** Frees what a strategy's tier memo holds live (its candidate worlds); the battery calls it when the tier is done. */
export function releaseTierMemo(tierMemo: Map<string, unknown>): void {
  const live = tierMemo.get(LIVE_WORLDS);
  if (live instanceof LiveWorlds) live.free();
  tierMemo.delete(LIVE_WORLDS);
}

/** Opens a simulated world of `instance` (rendering off). */
export async function openWorld(family: TaskFamily, instance: Instance): Promise<SimulatedWorld> {
  return new EnvWorld(instance, await TaskEnv.create(family, instance, { images: false }));
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
  /** When the CPU caps are next read (wall milliseconds; see {@link checkCap}). */
  private nextCapCheck = 0;

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
    const { live } = await this.liveWorlds().advance(instance, calls, () => this.checkCap());
    return live.outcomes.slice(0, calls.length);
  }

  async previewAfter(instance: Instance, calls: ToolCall[], probes: ToolCall[]): Promise<SimulatedOutcome[]> {
    this.checkCap();
    const { live, borrowed } = await this.liveWorlds().advance(instance, calls, () => this.checkCap(), true);
    try {
      return probes.map((p) => {
        const r = live.world.preview(p);
        return { status: r.status, message: r.message };
      });
    } finally {
      if (!borrowed) live.world.free();
    }
  }

  /** The tier's live candidate worlds (kept in the tier memo; the battery frees them with {@link releaseTierMemo}). */
  private liveWorlds(): LiveWorlds {
    let live = this.tierMemo.get(LIVE_WORLDS) as LiveWorlds | undefined;
    if (!live) this.tierMemo.set(LIVE_WORLDS, (live = new LiveWorlds(this.family)));
    return live;
  }

  reference(instance: Instance) {
    this.checkCap();
    return referenceSolution(this.family, instance);
  }

  /** Throws {@link CpuCapSpent} once the episode's capped CPU is over its cap. */
  checkCap(): void {
    if (this.precomputeDepth > 0) return;
    // Reading the process's CPU time is a system call that cost 8 % of a probing tree's time when
    // made before every simulated call; a cap overshot by a few milliseconds changes nothing.
    const now = performance.now();
    if (now < this.nextCapCheck) return;
    this.nextCapCheck = now + CAP_CHECK_INTERVAL_MS;
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
