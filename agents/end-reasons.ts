import type { EpisodeOutcome } from './types.ts';

/** What ended an episode, in words a person reads (reports, the play page). */
export const END_REASON_TEXT: Record<EpisodeOutcome['endReason'], string> = {
  solved: 'solved',
  commit: 'the agent committed',
  failed: 'failed for good',
  'gave-up': 'the agent gave up',
  'turn-budget': 'the turn budget ran out',
  'action-budget': 'the action budget ran out',
  abandoned: 'abandoned',
  stopped: 'stopped',
};

/** An end reason in words; one this build does not know (an older or newer log) as it is. */
export function endReasonText(reason: string): string {
  return Object.hasOwn(END_REASON_TEXT, reason) ? END_REASON_TEXT[reason as EpisodeOutcome['endReason']] : reason;
}
