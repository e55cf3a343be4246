import { SpaceActError } from '../core/errors.ts';
import type { ReferenceSolution, ToolCall } from '../tasks/types.ts';
import type { Agent, AgentReply, EpisodeStart, Observation, PrivilegedChannel } from './types.ts';

/**
 * Plays a reference solution through the episode loop, so that verifying an instance runs
 * exactly what a model faces. Like every agent it sees only the public view of the instance;
 * being an oracle baseline it declares itself `privileged`, and the loop hands it the family's
 * verified solution through the privileged channel. A solution given to the constructor is
 * played instead (a candidate or tampered script in a test). Stateless between turns: the next
 * calls follow from how many calls the history shows as executed, so a resumed episode
 * continues where it stopped.
 */
export class ReferenceAgent implements Agent {
  readonly name = 'reference';
  readonly settings: Record<string, unknown>;
  readonly needsImages = false;
  readonly privileged = true;
  private solution: ReferenceSolution | null;
  private readonly given: boolean;

  constructor(solution?: ReferenceSolution) {
    this.solution = solution ?? null;
    this.given = solution !== undefined;
    this.settings = this.given ? { script: true } : {};
  }

  async start(ctx: EpisodeStart, privileged?: PrivilegedChannel): Promise<void> {
    if (this.given) return;
    if (!privileged) throw new SpaceActError('invalid-state', `the reference agent was given no solution for ${ctx.instance.id} (the loop grants it to privileged agents)`);
    this.solution = await privileged.reference();
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
