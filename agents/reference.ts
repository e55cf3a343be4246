import { getFamily } from '../tasks/registry.ts';
import type { ReferenceSolution, ToolCall } from '../tasks/types.ts';
import type { Agent, AgentReply, EpisodeStart, Observation } from './types.ts';

/**
 * Plays the family's reference solution through the episode loop, so that verifying an
 * instance runs exactly what a model faces. It is stateless between turns: the next calls
 * follow from how many calls the history shows as executed, so a resumed episode continues
 * where it stopped.
 */
export class ReferenceAgent implements Agent {
  readonly name = 'reference';
  readonly settings: Record<string, unknown> = {};
  readonly needsImages = false;
  private solution: ReferenceSolution | null = null;

  async start(ctx: EpisodeStart): Promise<void> {
    this.solution = await getFamily(ctx.instance.family).reference(ctx.instance);
  }

  /** The solution found at `start` (for verify reports). */
  get reference(): ReferenceSolution | null {
    return this.solution;
  }

  async act(obs: Observation): Promise<AgentReply> {
    const calls = this.solution?.calls ?? [];
    let done = 0;
    for (const h of obs.history) for (const r of h.results) if (r.status === 'ok') done++;
    const next: ToolCall[] = calls.slice(done, done + obs.actionCap);
    if (next.length === 0) {
      // The plan is exhausted but the episode goes on: look again rather than invent a move.
      return { rationale: 'The reference plan is complete.', note: obs.note, actions: [{ tool: 'view', args: { name: 'initial' } }] };
    }
    const total = calls.length;
    return {
      rationale: `Reference plan, calls ${done + 1}–${done + next.length} of ${total}.`,
      note: `reference: ${done + next.length}/${total} calls sent`,
      actions: next,
    };
  }
}
