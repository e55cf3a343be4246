/**
 * V3 rules text, kept apart from the generator so the filters can check it without an
 * import cycle: it depends on the tier only, never on the answer.
 */
import { LETTERS } from './scene.ts';
import type { RotatedCopyPlan } from './table.ts';

/**
 * The rules text: the same for every instance of a tier or lever study (it depends on the
 * settings only, never on the answer).
 */
export function rulesText(plan: RotatedCopyPlan): string {
  const letters = LETTERS.slice(0, plan.candidates).split('');
  const lines = [
    `Parts built from ${plan.cubes} equal cubes (3 cm) glued face to face stand on a table. The reference part stands on a wooden plinth at the back, with the letter R in front of it; ${plan.candidates} candidate parts stand in a row before it, lettered ${letters.join(', ')} from left to right as seen from the first view.`,
    'Exactly one candidate is the reference itself, only turned: picked up and turned, it would look exactly like the reference. Each other candidate differs: it is the reference\'s mirror image, or the reference with one cube moved to another place.',
    'Question: which candidate is the turned copy of the reference?',
  ];
  if (plan.hideEvery) lines.push('Grey walls stand before the candidates; they are not parts, and they hide much of each candidate from low views.');
  lines.push(
    'The camera tools (orbit, zoom, pan, view) only move the camera; elevation goes from 0° (level with the table) to 90° (straight down). Nothing in the scene can be moved, so no action can cause a violation.',
    `Answer with answer({"option": X}), X one of ${letters.join(', ')}. It ends the episode: a right answer solves the task, any other does not.`,
  );
  return lines.join('\n');
}
