/**
 * V2 generator: a pure function of (family, tier, seed). The answer's place comes from its own
 * stream (uniform over the parts at every tier); the shape, the poses, the turns, the layout and
 * the walls come from the draw's stream, re-drawn until the table drawer and every shortcut
 * filter (`filters.ts`) accept it.
 */
import { SpaceActError } from '../../../core/errors.ts';
import { redrawRng } from '../../../solvers/redraw.ts';
import { drawOddOneOut } from './table.ts';
import { answerPosition, describeMove, letterAnswerTool } from '../../kits/part-sight/table-question.ts';
import { rulesText } from './rules.ts';
import { makeInstance } from '../../instance.ts';
import type { FamilyDescriptor, Instance, Tier } from '../../types.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import { LETTERS, TIERS, type V2Scene } from './scene.ts';
import { coverViewsOf } from './solver.ts';

/** Draws before the generator gives up (never reached on the seeds tested). */
const MAX_DRAWS = 300;

/** Pure: draws (deterministically, re-drawing) until the drawer and every filter accept. */
function drawInstance(family: FamilyDescriptor, seed: number, tier: Tier): Instance<V2Scene> {
  const plan = TIERS[tier];
  const letters = LETTERS.slice(0, plan.parts);
  const odd = answerPosition('V2', seed, tier, plan.parts);
  const rejections: string[] = [];
  for (let attempt = 0; attempt < MAX_DRAWS; attempt++) {
    const d = drawOddOneOut(redrawRng('V2', tier, seed, attempt), plan, odd, letters);
    if (typeof d === 'string') {
      rejections.push(`attempt ${attempt}: ${d}`);
      continue;
    }
    const letterOf = (i: number): string => letters[i];
    const scene: V2Scene = {
      ...d.scene,
      shape: d.shape,
      answer: letterOf(d.odd),
      firstView: d.firstView ? { ambiguous: d.firstView.ambiguous.map(letterOf), answers: d.firstView.answers.map(letterOf) } : null,
    };
    const instance = makeInstance(family, tier, seed, {
      title: `Chiral odd-one-out: ${plan.parts} parts of ${plan.cubes} cubes${plan.walls === 'hiding' ? ', walled' : ''}`,
      rules: rulesText(tier),
      tools: [letterAnswerTool(letters.split(''), 'the part that is the mirror image')],
      camera: { initial: d.camera, elevationRange: plan.elevationRange },
      rulers: [],
      ground: { y: -0.02 },
      dynamic: false,
      scoring: 'graded' as const,
      scene,
      reveal: { plan: '' },
    });
    const failed = SHORTCUT_FILTERS.map((f) => [f.name, f.check(instance)] as const).find(([, m]) => m !== null);
    if (failed) {
      rejections.push(`attempt ${attempt}: ${failed[0]}: ${failed[1]}`);
      continue;
    }
    return instance;
  }
  throw new SpaceActError('invalid-state', `V2 ${tier} seed ${seed}: no draw passed in ${MAX_DRAWS} attempts (last: ${rejections[rejections.length - 1]})`);
}

const cache = new Map<string, Instance<V2Scene>>();

/** Pure and memoised: the instance of (seed, tier). */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier): Instance<V2Scene> {
  const key = `${tier}/${seed}`;
  let hit = cache.get(key);
  if (!hit) {
    hit = drawInstance(family, seed, tier);
    hit.reveal.plan = planText(hit);
    cache.set(key, hit);
  }
  return structuredClone(hit);
}

function planText(instance: Instance<V2Scene>): string {
  const views = coverViewsOf(instance);
  let at = instance.camera.initial;
  const steps = views.map((v) => {
    const s = describeMove(at, v);
    at = v;
    return s;
  });
  return [
    `Together with the first view, these ${views.length} views show every cube of every part: ${steps.map((s, i) => `(${i + 1}) ${s}`).join('; ') || 'none needed'}.`,
    'Pick one part and work out its shape cube by cube; then for each other part, find the turn that would make it look the same. The part for which no turn works is the mirror image.',
  ].join(' ');
}
