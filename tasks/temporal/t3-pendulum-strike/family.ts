/**
 * T3 pendulum strike: release a falling ball inside the phase window of a swinging pendulum so
 * that it strikes the drum-shaped bob.
 *
 * **Scene.** A gantry with a pendulum (a rod on a revolute joint at the pivot, a drum fixed to
 * it) swinging in the plane facing the camera, a steel ball in a clamp above the drum's path, a
 * ruler up the right-hand post (0 at the pivot) and one along a strip under the swing. Length,
 * amplitude and phase are drawn per seed; at L5 the drop line is off centre; at L7 the rod is
 * heavier than it looks, so the period is shorter than its length suggests.
 *
 * **Tools.** `wait(seconds)` lets the world run; `release()` opens the clamp, once, taking no
 * world time. Budget: ten actions, every wait and release counted.
 *
 * **What it takes.** Reading the length and swing off the rulers, the phase and the period off
 * the strobe frames (the large-amplitude period, not 2π√(L/g)), the fall time from the gap, and
 * timing the release to about ±10 ms.
 */
import { leverInfo } from '../../levers.ts';
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build, worldOptions } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate } from './generate.ts';
import { T3_LEVERS, type T3Scene } from './scene.ts';
import { reference } from './solver.ts';

/** What T3 is: id, version, category, title, summary and tiers. */
export const T3_DESCRIPTOR: FamilyDescriptor = {
  id: 'T3',
  version: 2,
  category: 'T',
  title: 'Pendulum strike',
  summary:
    'A pendulum swings; a steel ball hangs in a clamp above its path. Release the ball so that it falls onto the drum-shaped bob: the release window is a few tens of milliseconds wide, once per pass. The length and swing are read off the rulers, the phase and period off strobe frames 0.25 s apart (the clock is frozen while the model thinks); the period is the large-amplitude one. Verified by a phase-window solver in the engine, the period certified against the elliptic integral. At L7 the rod is heavier than it looks.',
  tiers: {
    L1: { levers: [], description: 'Pendulum 0.35–0.60 m long swinging 35–50°; the ball falls straight below the pivot from 6–12 cm above the drum; windows 21–38 ms wide.' },
    L3: { levers: [], description: 'Pendulum 0.35–0.60 m swinging 40–60° (the period 3–7 % longer than 2π√(L/g)) and a smaller drum; the ball falls from 8–18 cm above the drum, below the pivot.' },
    L5: { levers: [], description: 'As L3 with the drop line off centre by 10–35 % of the swing (the drum passes under it at uneven intervals).' },
    L7: { levers: ['+change'], description: 'L5 with the rod heavier than it looks (density 4,000–9,000 kg/m³ instead of a light rod): the period is 4.6–10.9 % shorter than the length suggests, so timing from the ruler alone misses; the strobe frames show it.' },
  },
};

/** T3 pendulum strike: the registration object, assembled from the role files. */
export const t3PendulumStrike: TaskFamily<T3Scene> = {
  ...T3_DESCRIPTOR,
  levers: leverInfo(T3_LEVERS),
  generate: (seed, tier, lever) => generate(T3_DESCRIPTOR, seed, tier, lever),
  worldOptions,
  build,
  reference,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
};
