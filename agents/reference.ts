import { referenceSolution } from '../tasks/reference-cache.ts';
import { getFamily } from '../tasks/registry.ts';
import type { ReferenceSolution, ToolCall } from '../tasks/types.ts';
import type { Agent, AgentReply, EpisodeStart, Observation } from './types.ts';

/**
 * Plays a reference solution through the episode loop, so that verifying an instance runs
 * exactly what a model faces. By default the solution is the family's own solver's (looked up
 * in the registry); a solution given to the constructor is played instead (a family not yet
 * registered, a tampered script in a test). Stateless between turns: the next calls follow
 * from how many calls the history shows as executed, so a resumed episode continues where it
 * stopped.
 */
export class ReferenceAgent implements Agent {
  readonly name = 'reference';
  readonly settings: Record<string, unknown>;
  readonly needsImages = false;
  private solution: ReferenceSolution | null;
  private readonly given: boolean;

  constructor(solution?: ReferenceSolution) {
    this.solution = solution ?? null;
    this.given = solution !== undefined;
    this.settings = this.given ? { script: true } : {};
  }

  async start(ctx: EpisodeStart): Promise<void> {
    if (!this.given) this.solution = await referenceSolution(getFamily(ctx.instance.family), ctx.instance);
  }

  /** The solution being played (for verify reports). */
  get reference(): ReferenceSolution | null {
    return this.solution;
  }

  async act(obs: Observation): Promise<AgentReply> {
    const calls = this.solution?.calls ?? [];
    let done = 0;
    for (const h of obs.history) for (const r of h.results) if (r.status === 'ok') done++;
    const next: ToolCall[] = calls.slice(done, done + obs.actionCap);
    if (next.length === 0) {
      // The plan is exhausted but the episode goes on: look again (where the camera may move)
      // rather than invent a move.
      const look: ToolCall[] = obs.tools.some((t) => t.name === 'view') ? [{ tool: 'view', args: { name: 'initial' } }] : [];
      return { rationale: 'The reference plan is complete.', note: obs.note, actions: look };
    }
    const total = calls.length;
    return {
      rationale: `Reference plan, calls ${done + 1}–${done + next.length} of ${total}.`,
      note: `reference: ${done + next.length}/${total} calls sent`,
      actions: next,
    };
  }
}
