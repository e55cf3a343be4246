/**
 * T4 catcher: place a catcher where a launched ball comes down.
 *
 * **Scene.** A table with a launcher at its edge, a shelf beyond it (low at L1/L3, raised at
 * L5/L7) with an orange catcher — an open box a little wider than the ball — and a stop at its far
 * end; a ruler along the shelf from the table's edge and one up the table's front face. How fast
 * the ball leaves, and at L7 that it does not leave along the drawn barrel, is shown only by the
 * ball's flight in the strobe frames.
 *
 * **Tools.** `place_catcher(distance_m)` and `fire()` put the ball back in the cradle (swept
 * motion); the first slides the catcher along the shelf, the second fires; neither takes world
 * time. `wait(seconds)` lets the world run. Budget: five actions.
 *
 * **What it takes.** Reading the ball's horizontal and vertical speed from a probe's strobe
 * frames against the rulers, the drop from the table's ruler, and solving the drag-free flight
 * for where the ball crosses the catcher's rim.
 */
import { leverInfo } from '../../levers.ts';
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate } from './generate.ts';
import { T4_LEVERS, type T4Scene } from './scene.ts';
import { reference } from './solver.ts';

/** What T4 is: id, version, category, title, summary and tiers. */
export const T4_DESCRIPTOR: FamilyDescriptor = {
  id: 'T4',
  version: 2,
  category: 'T',
  title: 'Catcher',
  summary:
    'Place a catcher on a shelf where a ball fired off a table comes down. The launch speed (and the angle from L3) are not told: a probe shot shown in strobe frames 0.25 s apart, read against the rulers, gives them away. The first picture shows one shot; five actions, placements, firings and waits all counted. At L7 the launcher fires off the axis its barrel is drawn along.',
  tiers: {
    L1: { levers: [], description: 'Level launch off a table 0.42–0.58 m high onto a low shelf; the ball comes down 0.3–1.4 m from the table.' },
    L3: { levers: [], description: 'Launch 12–40° upward off a table 0.30–0.48 m high onto a low shelf; the ball comes down 0.3–1.4 m away.' },
    L5: { levers: [], description: 'As L3 onto a raised shelf 0.10–0.26 m high, the table 0.36–0.52 m high.' },
    L7: { levers: ['+change'], description: 'L5 with the barrel drawn at 15–35°, the ball leaving 7–12° above or below it; the angle read off the barrel misses the catcher.' },
  },
};

/** T4 catcher: the registration object, assembled from the role files. */
export const t4Catcher: TaskFamily<T4Scene> = {
  ...T4_DESCRIPTOR,
  levers: leverInfo(T4_LEVERS),
  generate: (seed, tier, lever) => generate(T4_DESCRIPTOR, seed, tier, lever),
  build,
  reference,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
};
