/**
 * T2 ice slope: launch a puck along a sheet of ice so that it comes to rest in a green band.
 *
 * **Scene.** A long sheet of ice, level (L1) or tilted slightly up or down (L3+), with a launch
 * pad, a green band somewhere along it and a bumper at the far end; a ruler runs beside it from
 * the pad. How slippery the ice is, and at L7 that a stretch of it is different, is shown only by
 * the puck's motion in the strobe frames.
 *
 * **Tools.** `launch(speed_mps)` puts the puck back on the pad (swept motion) and pushes it; it
 * takes no world time. `wait(seconds)` lets the world run. Budget: two launches with their waits
 * and one more wait.
 *
 * **What it takes.** Reading a stopping point (or the deceleration in the strobe frames) off the
 * ruler after a probe, and scaling the speed by the square root of the distances; at L7 noticing
 * that the ice slows the puck differently past some point.
 */
import { leverInfo } from '../../levers.ts';
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate } from './generate.ts';
import { T2_LEVERS, type T2Scene } from './scene.ts';
import { reference } from './solver.ts';

/** What T2 is: id, version, category, title, summary and tiers. */
export const T2_DESCRIPTOR: FamilyDescriptor = {
  id: 'T2',
  version: 1,
  category: 'T',
  title: 'Ice slope',
  summary:
    'Launch a puck along a sheet of ice so that it comes to rest inside a green band. The friction (and the tilt from L3) are not told: a probe launch shown in strobe frames 0.25 s apart, read against the ruler, gives them away; the stopping distance grows with the square of the speed. Five actions: two launches with their waits and one more wait. At L7 an undisclosed stretch of different ice lies between the pad and the band.',
  tiers: {
    L1: { levers: [], description: 'Level ice, friction 0.03–0.25; a 5 cm band 0.5–1.7 m from the pad.' },
    L3: { levers: [], description: 'Ice tilted 1.5–3.5° up or down from the pad; a 5 cm band 0.5–1.7 m away.' },
    L5: { levers: [], description: 'As L3 with a 5 cm band 0.9–1.8 m away.' },
    L7: { levers: ['+change'], description: 'L5 with a stretch of ice from 30–60 % of the way to the band on with 30–45 % less or 50–90 % more friction, drawn the same; the speed a probe on the first stretch suggests misses the band.' },
  },
};

/** T2 ice slope: the registration object, assembled from the role files. */
export const t2IceSlope: TaskFamily<T2Scene> = {
  ...T2_DESCRIPTOR,
  levers: leverInfo(T2_LEVERS),
  generate: (seed, tier, lever) => generate(T2_DESCRIPTOR, seed, tier, lever),
  build,
  reference,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
};
