import type { Agent, AgentReply, Observation } from '../agents/types.ts';
import type { ReferenceSolution } from '../tasks/types.ts';

/**
 * Plays a given reference solution through the episode loop exactly as `ReferenceAgent`
 * plays the family's own: the next calls follow from how many calls the history shows as
 * executed. Verify uses it when a solution is supplied from outside (a tampered script in a
 * test, a candidate script being checked), so the family's solver is not asked.
 */
export class ScriptAgent implements Agent {
  readonly name = 'reference';
  readonly settings: Record<string, unknown> = { script: true };
  readonly needsImages = false;
  readonly reference: ReferenceSolution;

  constructor(solution: ReferenceSolution) {
    this.reference = solution;
  }

  start(): void {}

  async act(obs: Observation): Promise<AgentReply> {
    const calls = this.reference.calls;
    let done = 0;
    for (const h of obs.history) for (const r of h.results) if (r.status === 'ok') done++;
    const next = calls.slice(done, done + obs.actionCap);
    if (next.length === 0) {
      return { rationale: 'The script is complete.', note: obs.note, actions: [{ tool: 'view', args: { name: 'initial' } }] };
    }
    return { rationale: `Script, calls ${done + 1}–${done + next.length} of ${calls.length}.`, note: '', actions: next };
  }
}
