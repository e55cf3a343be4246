/**
 * V4 ruler reading: report a size (a gap, a height, the length of an opening) read off the
 * rulers in the scene, within a stated tolerance. Every file of the family by role: family.ts
 * (this: descriptor and registration), scene.ts, generate.ts, episode.ts, solver.ts, filters.ts,
 * sight.ts (ray-cast visibility) and README.md.
 */
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate } from './generate.ts';
import { leverInfo } from '../../levers.ts';
import { V4_LEVERS, type V4Scene } from './scene.ts';
import { reference } from './solver.ts';

/** What V4 is: id, version, category, title, summary and tiers. */
export const V4_DESCRIPTOR: FamilyDescriptor = {
  id: 'V4',
  version: 4,
  category: 'V',
  title: 'Ruler reading',
  summary:
    'Report a size in centimetres — the gap between two blocks, the height of a block, the length of the opening in a frame — read off the rulers lying or standing in the scene, within a stated tolerance. Sizes are drawn at millimetre steps over ranges 24 or more tolerance widths (±) wide and never near a multiple of 5 cm; every instance is ray-cast verified to show both ends and the ruler from some reachable view, and from L5 on to hide one end (and at L5 part of the ruler) from the first view.',
  tiers: {
    L1: { levers: [], description: 'A gap or a height; the ruler lies (or stands) right beside what is measured, its start a few centimetres before it; tolerance ±0.5 cm.' },
    L3: { levers: [], description: 'A gap, a height or the opening of a frame; the ruler is 7–16 cm away, parallel; two decoy blocks; tolerance ±0.4 cm.' },
    L5: { levers: [], description: 'A gap or an opening, as L3, with a grey board hiding one end of it, and part of the ruler beside it, from the first view; tolerance ±0.3 cm.' },
    L7: { levers: ['+rot'], description: 'L5 with the measured size turned 25°–65° from both rulers, which lie in an L beside the scene.' },
  },
};

/** V4 ruler reading: the registration object, assembled from the role files. */
export const v4RulerReading: TaskFamily<V4Scene> = {
  ...V4_DESCRIPTOR,
  levers: leverInfo(V4_LEVERS),
  generate: (seed, tier, lever) => generate(V4_DESCRIPTOR, seed, tier, lever),
  build,
  reference,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
  // A random valid answer is uniform over 0–100 cm, right within ±0.5 cm at most 1 % of the time;
  // verify's 10 episodes then reach 3 right with probability about 1e-4, so 0.2 (2 of 10) keeps
  // false alarms rare where the default 0.1 would trip on a second lucky hit (2 of 10: 0.4 %).
  randomSuccessBound: 0.2,
  certify: {},
  textVaries: [
    {
      what: 'question',
      reason:
        'Which size is asked (a height, a gap, an opening) and the colours naming the blocks it is asked about: the question must say what to measure, and colours name bodies the way letters do; it carries no size, position or range — the size is read off the rulers.',
      values: (i) => [i.scene.question],
    },
  ],
};
