/**
 * V2 shortcut filters and sightless strategies. See README.md for the shortcuts considered.
 */
import { certifyOddOneOut } from '../../../solvers/polycube-chirality.ts';
import { SpaceActError } from '../../../core/errors.ts';
import { readOddOneOut } from '../../kits/part-sight/readings.ts';
import { choiceGuesses } from '../../kits/sightless-guesses.ts';
import { tableFilters } from '../../kits/part-sight/table-question.ts';
import { sceneSight } from '../../kits/part-sight/table-scene.ts';
import type { SightlessStrategy } from '../../sightless.ts';
import type { AnswerPlace, Instance, TaskFamily } from '../../types.ts';
import { instanceSettings } from '../../levers.ts';
import { V2_LEVERS, TIERS, type V2Scene } from './scene.ts';
import { rulesText } from './rules.ts';
import { PART_SHOWN_PIXELS } from './table.ts';

type Filter = NonNullable<TaskFamily<V2Scene>['shortcutFilters']>[number];

/**
 * The V2 filters, run on every draw (re-drawn until all pass) and again by `spaceact verify`:
 * - `certificate`: exact — the shape is chiral, every part but one is a proper rotation of the
 *   others, the odd one is the mirror image, and it is the part the scene names as the answer;
 * - `physical`: every part stands still on its top (centre of mass over its footprint), and no
 *   wall overlaps a part, a letter stand or another wall;
 * - `every-cube-seen`: every cube of every part is clearly seen (one face, 75 % of samples, not
 *   at a grazing angle) from some view the camera tools reach (ray cast), so the answer can be
 *   worked out;
 * - `first-view`: every part shows at least 15 % of itself and every letter stand reads clearly
 *   in the first view;
 * - `first-view-pixels` (where walls stand): every part shows at least `PART_SHOWN_PIXELS` in the
 *   first view (ray-cast estimate), so the view rule's pixel floor holds behind the walls too;
 * - `first-view-open` (L7): the first view cannot tell any part from its mirror image, so it
 *   leaves every part possible as the answer (and walls, alike for all parts, say nothing);
 * - `text-says-nothing`: the rules text is the tier's fixed text, the same whatever the answer.
 */
export const SHORTCUT_FILTERS: Filter[] = [
  {
    name: 'certificate',
    check(instance) {
      const s = instance.scene;
      try {
        const cert = certifyOddOneOut(s.parts.map((p) => p.cells));
        return s.parts[cert.odd].letter === s.answer ? null : `the mirror image is part ${s.parts[cert.odd].letter}, the scene says ${s.answer}`;
      } catch (err) {
        if (err instanceof SpaceActError) return err.message;
        throw err;
      }
    },
  },
  ...tableFilters<V2Scene>(),
  {
    name: 'first-view-pixels',
    check(instance) {
      const s = instance.scene;
      if (s.walls.length === 0) return null;
      const sight = sceneSight(s);
      const faint = s.parts.findIndex((_, i) => sight.seenPixels(instance.camera.initial, i) < PART_SHOWN_PIXELS);
      return faint < 0 ? null : `part ${s.parts[faint].letter} shows fewer than ${PART_SHOWN_PIXELS} pixels in the first view`;
    },
  },
  {
    name: 'first-view-open',
    check(instance: Instance<V2Scene>) {
      if (instanceSettings(instance, TIERS, V2_LEVERS).walls !== 'hiding') return null;
      const s = instance.scene;
      const odd = s.parts.findIndex((p) => p.letter === s.answer);
      const r = readOddOneOut(sceneSight(s), instance.camera.initial, s.shape, odd);
      return r.ambiguous.length === s.parts.length ? null : `the first view tells parts ${s.parts.filter((_, i) => !r.ambiguous.includes(i)).map((p) => p.letter).join(', ')} from their mirror images`;
    },
  },
  {
    name: 'text-says-nothing',
    check: (instance) => (instance.rules === rulesText(instanceSettings(instance, TIERS, V2_LEVERS)) ? null : 'the rules text is not the tier’s fixed text'),
  },
];

/**
 * What a model that reads the rules and guesses could do: a fixed letter, the letter most often
 * right on other seeds, a letter the text names, a random letter. With the answer uniform over
 * 4 or 6 parts, each is right about 1/4 or 1/6 of the time; the bound leaves room for sampling.
 */
export const SIGHTLESS: SightlessStrategy[] = choiceGuesses(0.4);



/** Where the answer sits among the lettered candidates (`TaskFamily.answerPlace`). */
export function answerPlace(instance: Instance<V2Scene>): AnswerPlace {
  const s = instance.scene;
  return { count: s.parts.length, index: s.parts.findIndex((p) => p.letter === s.answer) };
}
