import type { AdaptiveTools, SightlessResult, SightlessStrategy, SightlessView } from '../../tasks/sightless.ts';
import type { ToolCall } from '../../tasks/types.ts';
import { CpuCapSpent } from './simulate.ts';
import type { Agent, AgentReply, EpisodeStart, Observation } from '../types.ts';

/**
 * Plays a sightless strategy through the episode loop. It never asks for images and hands the
 * strategy only the text a model reads: the rules and tools, and the status, message and
 * structured data of its own earlier calls (never a call's diagnostics, which are hidden from
 * every agent). When the strategy stops, `done` turns true so the caller can end the episode.
 */
export class SightlessAgent implements Agent {
  readonly name: string;
  readonly settings: Record<string, unknown>;
  readonly needsImages = false;
  /** Set once the strategy returned null: it has nothing more to try. */
  done = false;
  /** Why the agent stopped early, when it gave up (its CPU cap was spent); null otherwise. */
  gaveUp: string | null = null;
  private view: SightlessView | null = null;

  constructor(
    private readonly strategy: SightlessStrategy,
    private readonly fitted: unknown,
    private readonly seed: number,
    /** The public code adaptive strategies may run (the battery lends it); its CPU cap ends the episode. */
    private readonly tools?: AdaptiveTools,
  ) {
    this.name = `sightless:${strategy.name}`;
    this.settings = { strategy: strategy.name, seed };
  }

  start(ctx: EpisodeStart): void {
    this.view = structuredClone(ctx.instance);
    this.done = false;
  }

  async act(obs: Observation): Promise<AgentReply> {
    const history: SightlessResult[][] = obs.history.map((h) =>
      h.results.map((r) => ({ call: r.call, status: r.status, message: r.message, ...(r.data ? { data: r.data } : {}) })),
    );
    let calls: ToolCall[] | null = null;
    if (this.tools && this.tools.cpuSeconds() > this.tools.cpuCap) {
      this.gaveUp = `gave up after ${this.tools.cpuSeconds().toFixed(1)} s of CPU (cap ${this.tools.cpuCap} s)`;
    }
    if (!this.done && !this.gaveUp) {
      try {
        calls = await this.strategy.next(
          { view: this.view!, seed: this.seed, turn: obs.turn, turnsLeft: obs.turnsLeft, actionCap: obs.actionCap, history, ...(this.tools ? { tools: this.tools } : {}) },
          this.fitted,
        );
      } catch (err) {
        if (!(err instanceof CpuCapSpent)) throw err;
        this.gaveUp = err.message;
      }
    }
    if (calls === null) {
      this.done = true;
      return { rationale: `${this.strategy.name}: ${this.gaveUp ?? 'nothing more to try'}.`, note: '', actions: [] };
    }
    return { rationale: `${this.strategy.name}: ${calls.length} call(s).`, note: '', actions: calls.slice(0, obs.actionCap) };
  }
}
