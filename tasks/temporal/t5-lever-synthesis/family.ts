/**
 * T5 lever synthesis: place the fulcrum and the counterweight of a lever so that it lifts a crate
 * to a marked height.
 *
 * **Scene.** A wooden lever hangs like a balance beam from the pin of a fulcrum that slides along
 * the floor behind it (a real revolute joint with limits, a damped hinge); an orange crate is
 * bolted on its load end, a steel counterweight clamped on its top. A white marker post left of
 * the lever carries a green target band and a height ruler; a white board under the lever carries
 * the distance ruler. At L7 the crate is heavier than its stated contents make it.
 *
 * **Tools.** `set_fulcrum(distance_m)` and `set_counterweight(distance_m)` latch the lever level
 * and move the fulcrum or the counterweight (swept motion); `release()` opens the latch;
 * `wait(seconds)` lets the world run. Budget: eight actions.
 *
 * **What it takes.** Reading the lever's length, the crate's size and the band's height off the
 * rulers, and solving the moment balance about the pin (tan θ = Σ m u / Σ m v) for a fulcrum and a
 * counterweight place that rest the crate's centre in the band; at L7, one probe release read in
 * the strobe frames to find the crate's real mass.
 */
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate } from './generate.ts';
import type { T5Scene } from './scene.ts';
import { reference } from './solver.ts';
import { leverInfo } from '../../levers.ts';
import { T5_LEVERS } from './scene.ts';

/** What T5 is: id, version, category, title, summary and tiers. */
export const T5_DESCRIPTOR: FamilyDescriptor = {
  id: 'T5',
  version: 1,
  category: 'T',
  title: 'Lever synthesis',
  summary:
    'Place the fulcrum and the counterweight of a lever that hangs like a balance beam so that it lifts a crate to a green band: the lever rests where the moments about its pin balance. Lengths and sizes are read off the rulers, densities are stated; eight actions, placements, releases and waits all counted. At L7 the crate is heavier than it is said to be, and a probe release shows by how much.',
  tiers: {
    L1: { levers: [], description: 'Lever 0.9–1.3 m, crate 7–13 cm; a 3 cm band anywhere the lever can rest the crate, 3 cm clear of the highest and lowest.' },
    L3: { levers: [], description: 'As L1 with a 2.5 cm band.' },
    L5: { levers: [], description: 'As L1 with a 2 cm band.' },
    L7: { levers: ['+change'], description: 'L5 with the crate 1.35–1.7 times as heavy as its stated contents make it; the balance worked with the stated density misses the band.' },
  },
};

/** T5 Lever synthesis: the registration object, assembled from the role files. */
export const t5LeverSynthesis: TaskFamily<T5Scene> = {
  ...T5_DESCRIPTOR,
  levers: leverInfo(T5_LEVERS),
  generate: (seed, tier, lever) => generate(T5_DESCRIPTOR, seed, tier, lever),
  build,
  reference,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
};
