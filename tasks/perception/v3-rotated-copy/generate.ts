/**
 * V3 generator: a pure function of (family, tier, lever, seed). The copy's place comes from its own
 * stream (uniform over the candidates at every tier); the shape, the poses, the near misses, the
 * layout and the walls come from the draw's stream, re-drawn until the table drawer and every
 * shortcut filter (`filters.ts`) accept it.
 */
import { redrawRng } from '../../../solvers/redraw.ts';
import { answerPosition, generateLettered, letterAnswerTool } from '../../kits/part-sight/table-question.ts';
import type { FamilyDescriptor, Instance, Tier } from '../../types.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import { rulesText } from './rules.ts';
import { tierSettings } from '../../levers.ts';
import { LETTERS, TIERS, V3_LEVERS, type V3Scene } from './scene.ts';
import { drawRotatedCopy } from './table.ts';

/**
 * Pure and memoised: the instance of (seed, tier, lever). A lever study (`V3-L5+occ-s100`) draws
 * from the L5 streams (the answer's place and the table) with the lever's settings.
 */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<V3Scene> {
  return generateLettered<V3Scene>(family, seed, tier, lever, () => {
    const plan = tierSettings('V3', TIERS, tier, lever, V3_LEVERS);
    const letters = LETTERS.slice(0, plan.candidates);
    const copy = answerPosition('V3', seed, tier, plan.candidates);
    return {
      draw(attempt) {
        const d = drawRotatedCopy(redrawRng('V3', tier, seed, attempt), plan, copy, letters);
        if (typeof d === 'string') return d;
        const firstView = d.firstView ? { answers: d.firstView.answers.map((i) => letters[i]) } : null;
        return { scene: { ...d.scene, answer: letters[d.copy], turn: d.turn, made: d.made, firstView }, camera: d.camera };
      },
      title: `Rotated copy: ${plan.candidates} candidates of ${plan.cubes} cubes${plan.hideEvery ? ', walled' : ''}`,
      rules: rulesText(plan),
      tool: letterAnswerTool(letters.split(''), 'the candidate that is the turned copy of the reference'),
      elevationRange: plan.elevationRange,
      filters: SHORTCUT_FILTERS,
      advice: 'Work out the reference cube by cube; for each candidate, find a turn that would make it look like the reference. The mirror image needs a reflection, and a candidate with a cube moved has a cube where the reference has none.',
    };
  });
}
