/**
 * V2 generator: a pure function of (family, tier, lever, seed). The answer's place comes from its own
 * stream (uniform over the parts at every tier); the shape, the poses, the turns, the layout and
 * the walls come from the draw's stream, re-drawn until the table drawer and every shortcut
 * filter (`filters.ts`) accept it.
 */
import { redrawRng } from '../../../solvers/redraw.ts';
import { answerPosition, generateLettered, letterAnswerTool } from '../../kits/part-sight/table-question.ts';
import type { FamilyDescriptor, Instance, Tier } from '../../types.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import { rulesText } from './rules.ts';
import { tierSettings } from '../../levers.ts';
import { LETTERS, TIERS, V2_LEVERS, type V2Scene } from './scene.ts';
import { drawOddOneOut } from './table.ts';

/**
 * Pure and memoised: the instance of (seed, tier, lever). A lever study (`V2-L5+occ-s100`) draws
 * from the L5 streams (the answer's place and the table) with the lever's settings.
 */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<V2Scene> {
  return generateLettered<V2Scene>(family, seed, tier, lever, () => {
    const plan = tierSettings('V2', TIERS, tier, lever, V2_LEVERS);
    const letters = LETTERS.slice(0, plan.parts);
    const odd = answerPosition('V2', seed, tier, plan.parts);
    return {
      draw(attempt) {
        const d = drawOddOneOut(redrawRng('V2', tier, seed, attempt), plan, odd, letters);
        if (typeof d === 'string') return d;
        const letterOf = (i: number): string => letters[i];
        const firstView = d.firstView ? { ambiguous: d.firstView.ambiguous.map(letterOf), answers: d.firstView.answers.map(letterOf) } : null;
        return { scene: { ...d.scene, shape: d.shape, answer: letterOf(d.odd), firstView }, camera: d.camera };
      },
      title: `Chiral odd-one-out: ${plan.parts} parts of ${plan.cubes} cubes${plan.walls === 'hiding' ? ', walled' : ''}`,
      rules: rulesText(plan),
      tool: letterAnswerTool(letters.split(''), 'the part that is the mirror image'),
      elevationRange: plan.elevationRange,
      filters: SHORTCUT_FILTERS,
      advice: 'Pick one part and work out its shape cube by cube; then for each other part, find the turn that would make it look the same. The part for which no turn works is the mirror image.',
    };
  });
}
