/**
 * M4 helical wire: work a ring along a bent or helical wire and off its free end; the world's
 * topology rule keeps the ring on the wire everywhere else.
 */
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build, worldOptions } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate } from './generate.ts';
import type { M4Scene } from './scene.ts';
import { reference } from './solver.ts';
import { leverInfo } from '../../levers.ts';
import { M4_LEVERS } from './scene.ts';

/** What M4 is: id, version, category, title, summary and tiers. */
export const M4_DESCRIPTOR: FamilyDescriptor = {
  id: 'M4',
  version: 4,
  category: 'M',
  title: 'Helical wire',
  summary:
    'Work a held ring along a stiff wire — one bend, two bends in different planes, or a helix — and off its free end. The ring\'s hole is a few millimetres wider than the wire, so it must be kept square to the wire and centred through every bend; a topology rule of the world refuses any motion that would take it off the wire other than at the free end. Tests following a 3D curve with 6-DoF moves read from pictures; every motion is swept.',
  tiers: {
    L1: { levers: [], description: 'A riser and one bend heading any way round the vertical (riser, heading, run and bend radius drawn continuously); 5 mm clearance between the wire and the ring\'s hole; 15 actions.' },
    L3: { levers: [], description: 'A riser and two bends in different planes (the second turning 70–110° sideways); 4 mm clearance; 24 actions.' },
    L5: { levers: [], description: 'A riser bending into 1.4–2.1 turns of a helix of continuous radius, pitch and phase; 3 mm clearance; 64 actions.' },
    L7: { levers: ['+rot'], description: 'L5 with the working frame turned about the vertical by 30–60° either way (any angle), shown only by the axis arrows.' },
  },
};

/** M4 Helical wire: the registration object, assembled from the role files. */
export const m4HelicalWire: TaskFamily<M4Scene> = {
  ...M4_DESCRIPTOR,
  levers: leverInfo(M4_LEVERS),
  generate: (seed, tier, lever) => generate(M4_DESCRIPTOR, seed, tier, lever),
  worldOptions,
  build,
  reference,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
};
