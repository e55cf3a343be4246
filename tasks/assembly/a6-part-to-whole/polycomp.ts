/**
 * The question series of A6 and its seeds. Seeds from {@link QUESTION_SEED_BASE} on are
 * question-form instances: seed `BASE + 3p + k` is problem `p` in presentation `k` (composite,
 * neutral labels, descriptive labels), so the three presentations of a problem are the same
 * problem and the same images. Problem `p`'s target family follows the polycube seed's mix —
 * of every 120 problems, 65 rectangular loops, 24 toy-like shapes, 14 block cleavages and 17
 * joinery cases, in a fixed shuffled order — and its answer letter is balanced: each run of
 * four problems uses A, B, C and D once each.
 *
 * The `polycomp` suite is problems 0–119 at L5 in all three presentations: 360 instances, as
 * the seed's 120 problems × 3 presentations (ours are drawn unconditionally, not a set selected
 * for being hard).
 */
import { SpaceActError } from '../../../core/errors.ts';
import { redrawRng } from '../../../solvers/redraw.ts';
import { Rng } from '../../../core/rng.ts';
import type { Tier } from '../../types.ts';
import { TIER_SPECS, type PhysicalSpec } from './physical.ts';
import { drawProblem } from './problem.ts';
import { questionScene } from './question.ts';
import { PRESENTATIONS, type Presentation, type QuestionScene } from './scene.ts';
import type { TargetKind } from './shapes.ts';

/** First seed of the question form; smaller seeds are the assembly form. */
export const QUESTION_SEED_BASE = 1000;
/** Problems in the series' family mix cycle, and in the `polycomp` suite. */
export const SERIES_LENGTH = 120;
/** The seed's mix of target families over 120 problems. */
export const SERIES_MIX: Readonly<Record<TargetKind, number>> = { loop: 65, toy: 24, cleavage: 14, joinery: 17 };
/** The tier of the `polycomp` suite. */
export const SUITE_TIER: Tier = 'L5';

/** Whether a seed is a question-form seed. */
export function isQuestionSeed(seed: number): boolean {
  return seed >= QUESTION_SEED_BASE;
}

/** Problem index and presentation of a question seed. */
export function questionSeedParts(seed: number): { problem: number; presentation: Presentation; baseSeed: number } {
  const q = seed - QUESTION_SEED_BASE;
  if (q < 0) throw new SpaceActError('invalid-argument', `seed ${seed} is not a question seed (those start at ${QUESTION_SEED_BASE})`, { seed });
  const problem = Math.floor(q / 3);
  return { problem, presentation: PRESENTATIONS[q % 3], baseSeed: QUESTION_SEED_BASE + 3 * problem };
}

/** The seed of problem `p` in presentation `presentation`. */
export function questionSeed(problem: number, presentation: Presentation): number {
  return QUESTION_SEED_BASE + 3 * problem + PRESENTATIONS.indexOf(presentation);
}

const KIND_ORDER: readonly TargetKind[] = (() => {
  const list: TargetKind[] = [];
  for (const [kind, n] of Object.entries(SERIES_MIX) as Array<[TargetKind, number]>) for (let i = 0; i < n; i++) list.push(kind);
  return new Rng('A6/series/kinds').shuffle(list);
})();

/** The target family of problem `p`. */
export function seriesKind(problem: number): TargetKind {
  return KIND_ORDER[problem % SERIES_LENGTH];
}

/** The answer of problem `p`: each block of four problems uses every letter once, in a seeded order. */
export function seriesAnswer(problem: number): number {
  return new Rng(`A6/series/answers/${Math.floor(problem / 4)}`).shuffle([0, 1, 2, 3])[problem % 4];
}

/** Most draws tried before giving up (not reached for the seeds in use). */
const MAX_ATTEMPTS = 300;

/**
 * Draws the question scene of (seed, tier); the three presentations of a problem share every
 * draw. `spec`: the tier's settings, or L5's with a lever on.
 */
export function drawQuestion(seed: number, tier: Tier, spec: PhysicalSpec = TIER_SPECS[tier]): { scene: QuestionScene; attempt: number } {
  const { problem: index, presentation, baseSeed } = questionSeedParts(seed);
  const kind = seriesKind(index);
  const answer = seriesAnswer(index);
  const reasons: string[] = [];
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const rng = redrawRng('A6', tier, baseSeed, attempt);
    const problem = drawProblem(rng, kind, spec, answer);
    if (typeof problem === 'string') {
      reasons.push(problem);
      continue;
    }
    const scene = questionScene(rng, problem, index, presentation, spec.turned);
    if (typeof scene === 'string') {
      reasons.push(scene);
      continue;
    }
    return { scene, attempt };
  }
  throw new SpaceActError('invalid-state', `A6 ${tier} seed ${seed}: no draw worked in ${MAX_ATTEMPTS} attempts (last: ${reasons[reasons.length - 1]})`, {
    rejections: reasons.slice(-10),
  });
}

/** The ids of the `polycomp` suite: problems 0–119 at L5, each in the three presentations. */
export function polycompInstances(): string[] {
  const ids: string[] = [];
  for (let p = 0; p < SERIES_LENGTH; p++) for (const pres of PRESENTATIONS) ids.push(`A6-${SUITE_TIER}-s${questionSeed(p, pres)}`);
  return ids;
}
