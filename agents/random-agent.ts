import { Rng } from '../core/rng.ts';
import type { ToolCall } from '../tasks/types.ts';
import { numberOption } from '../core/options.ts';
import type { AgentOptions } from './types.ts';
import { sampleCall } from './schema-sampler.ts';
import type { Agent, AgentReply, EpisodeStart, Observation } from './types.ts';

/**
 * The random valid baseline: each turn 1..cap calls, each a uniformly chosen tool with
 * arguments drawn from its schema. The generator is seeded by (seed, instance, turn), so an
 * episode is reproducible and a resumed one continues exactly as the uninterrupted one would.
 */
export class RandomAgent implements Agent {
  readonly name = 'random';
  readonly settings: Record<string, unknown>;
  readonly needsImages = false;
  private readonly seed: number;
  private instanceId = '';

  constructor(seed = 0) {
    this.seed = seed;
    this.settings = { seed };
  }

  /** From command-line options: `seed` (default 0). */
  static fromOptions(opts: AgentOptions): RandomAgent {
    return new RandomAgent(numberOption(opts, 'seed', { min: 0, max: 2 ** 31, integer: true }) ?? 0);
  }

  start(ctx: EpisodeStart): void {
    this.instanceId = ctx.instance.id;
  }

  act(obs: Observation): Promise<AgentReply> {
    const rng = new Rng(`random/${this.seed}/${this.instanceId}/${obs.turn}`);
    const n = rng.int(1, obs.actionCap);
    const actions: ToolCall[] = [];
    for (let i = 0; i < n; i++) {
      const call = sampleCall(rng.pick(obs.tools), rng, obs.tools);
      if (call) actions.push(call);
    }
    return Promise.resolve({ rationale: `${actions.length} random valid call(s).`, note: '', actions });
  }
}
