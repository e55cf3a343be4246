/**
 * V3 shortcut filters and sightless strategies. See README.md for the shortcuts considered.
 */
import { SpaceActError } from '../../../core/errors.ts';
import { certifyRotatedCopy, closeNearMiss, smallestTurn } from '../../../solvers/polycube-chirality.ts';
import { readRotatedCopy } from '../../kits/part-sight/readings.ts';
import { consistentPlacement } from '../../kits/part-sight/alternatives.ts';
import { choiceGuesses } from '../../kits/sightless-guesses.ts';
import { tableFilters } from '../../kits/part-sight/table-question.ts';
import { sceneSight } from '../../kits/part-sight/table-scene.ts';
import { mirrorCells } from '../../../solvers/polycube-chirality.ts';
import type { SightlessStrategy } from '../../sightless.ts';
import type { AnswerPlace, Instance, TaskFamily } from '../../types.ts';
import { instanceSettings } from '../../levers.ts';
import { V3_LEVERS, TIERS, type V3Scene } from './scene.ts';
import { rulesText } from './rules.ts';

type Filter = NonNullable<TaskFamily<V3Scene>['shortcutFilters']>[number];

/**
 * The V3 filters, run on every draw (re-drawn until all pass) and again by `spaceact verify`:
 * - `certificate`: exact — exactly one candidate is a proper rotation of the reference (the 24
 *   cube rotations), and it is the one the scene names; the shape is chiral, so its mirror image
 *   is a true near miss;
 * - `tier-turn`: the copy's smallest turn from the reference meets the tier (L1 about the
 *   vertical by 60° or more; L3 90° or more about a tilted axis; L5/L7 120° or more about an axis
 *   tilted 30° or more), and at L5/L7 every one-cube near miss keeps the reference's bounding box
 *   and neighbour counts;
 * - `physical`, `every-cube-seen`, `first-view`: as in V2 (parts stand; every cube clearly seen
 *   from some reachable view; every part at least 15 % shown and every letter clear at first);
 * - `first-view-open` (L7): the first view cannot tell any candidate from its mirror image, and
 *   leaves at least two candidates possible as the answer;
 * - `text-says-nothing`: the rules text is the tier's fixed text, whatever the answer.
 */
export const SHORTCUT_FILTERS: Filter[] = [
  {
    name: 'certificate',
    check(instance) {
      const [ref, ...candidates] = instance.scene.parts;
      try {
        const cert = certifyRotatedCopy(ref.cells, candidates.map((c) => c.cells));
        if (candidates[cert.copy].letter !== instance.scene.answer) return `the copy is ${candidates[cert.copy].letter}, the scene says ${instance.scene.answer}`;
        return cert.relations.includes('mirror') ? null : 'no candidate is the mirror image';
      } catch (err) {
        if (err instanceof SpaceActError) return err.message;
        throw err;
      }
    },
  },
  {
    name: 'tier-turn',
    check(instance) {
      const plan = instanceSettings(instance, TIERS, V3_LEVERS);
      const s = instance.scene;
      const [ref, ...candidates] = s.parts;
      const copy = candidates.find((c) => c.letter === s.answer)!;
      const t = smallestTurn(ref, copy);
      if (!t) return 'the copy is not a proper rotation';
      const ok = plan.turn === 'yaw' ? t.axisTiltDeg < 1e-6 && t.angleDeg >= 60 - 1e-6 : plan.turn === 'tip' ? t.axisTiltDeg > 1 && t.angleDeg >= 90 - 1e-6 : t.axisTiltDeg >= 30 && t.angleDeg >= 120 - 1e-6;
      if (!ok) return `the copy turns ${t.angleDeg.toFixed(0)}° about an axis ${t.axisTiltDeg.toFixed(0)}° from the vertical, not what ${instance.tier} asks (${plan.turn})`;
      if (plan.closeMoves && candidates.some((c, i) => s.made[i] === 'moved' && !closeNearMiss(ref.cells, c.cells))) return 'a one-cube near miss changes the bounding box or the neighbour counts';
      return null;
    },
  },
  ...tableFilters<V3Scene>(),
  {
    name: 'first-view-open',
    check(instance) {
      if (!instanceSettings(instance, TIERS, V3_LEVERS).hideEvery) return null;
      const s = instance.scene;
      const sight = sceneSight(s);
      const cam = instance.camera.initial;
      const told = s.parts.slice(1).findIndex((c, i) => !consistentPlacement(sight, cam, i + 1, mirrorCells(c.cells)));
      if (told >= 0) return `the first view tells candidate ${s.parts[told + 1].letter} from its mirror image`;
      const copy = s.parts.slice(1).findIndex((c) => c.letter === s.answer);
      const r = readRotatedCopy(sight, cam, s.parts[0].cells, s.parts.slice(1).map((_, i) => i + 1), copy);
      return r.answers.length >= 2 ? null : 'the first view decides the question';
    },
  },
  {
    name: 'text-says-nothing',
    check: (instance) => (instance.rules === rulesText(instanceSettings(instance, TIERS, V3_LEVERS)) ? null : 'the rules text is not the tier’s fixed text'),
  },
];

/**
 * What a model that reads the rules and guesses could do: a fixed letter, the letter most often
 * right on other seeds, a letter the text names, a random letter. With the answer uniform over 3
 * or 4 candidates, each is right about 1/3 or 1/4 of the time; the bound leaves room for sampling.
 */
export const SIGHTLESS: SightlessStrategy[] = choiceGuesses(0.45);

/** Where the answer sits among the lettered candidates (`TaskFamily.answerPlace`). */
export function answerPlace(instance: Instance<V3Scene>): AnswerPlace {
  const s = instance.scene;
  // The first part is the reference; the candidates follow it.
  const candidates = s.parts.slice(1);
  return { count: candidates.length, index: candidates.findIndex((p) => p.letter === s.answer) };
}
