/**
 * V2 rules text, kept apart from the generator so the filters can check it without an
 * import cycle: it depends on the tier only, never on the answer.
 */
import { LETTERS } from './scene.ts';
import type { OddOneOutPlan } from './table.ts';

/**
 * The rules text: the same for every instance of a tier or lever study (it depends on the
 * settings only, never on the answer).
 */
export function rulesText(plan: OddOneOutPlan): string {
  const letters = LETTERS.slice(0, plan.parts).split('');
  const lines = [
    `${plan.parts} parts stand on a table, each built from ${plan.cubes} equal cubes (3 cm) glued face to face. Each part has a letter on a small white stand in front of it: ${letters.join(', ')}${plan.parts > 4 ? ' (the back row, on a wooden step, left to right, then the front row)' : ', left to right'}, as seen from the first view.`,
    `All the parts but one are the same solid, only turned: any one of them could be picked up and turned to look exactly like any other. The remaining part is the mirror image of that solid: no turn makes it look like the others.`,
    'Question: which part is the mirror image?',
  ];
  if (plan.walls !== 'none') lines.push(`Grey walls stand in front of the parts; they are not parts, and they hide ${plan.walls === 'hiding' ? 'much' : 'the lowest cubes'} of each part from low views.`);
  lines.push(
    'The camera tools (orbit, zoom, pan, view) only move the camera; elevation goes from 0° (level with the table) to 90° (straight down). Nothing in the scene can be moved, so no action can cause a violation.',
    `Answer with answer({"option": X}), X one of ${letters.join(', ')}. It ends the episode: a right answer solves the task, any other does not.`,
  );
  return lines.join('\n');
}
