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

/** What M4 is: id, version, category, title, summary and tiers. */
export const M4_DESCRIPTOR: FamilyDescriptor = {
  id: 'M4',
  version: 1,
  category: 'M',
  title: 'Helical wire',
  summary:
    'Work a held ring along a stiff wire — one bend, two bends in different planes, or a helix — and off its free end. The ring\'s hole is a few millimetres wider than the wire, so it must be kept square to the wire and centred through every bend; a topology rule of the world refuses any motion that would take it off the wire other than at the free end. Tests following a 3D curve with 6-DoF moves read from pictures; every motion is swept.',
  tiers: {
    L1: { levers: [], description: 'A riser and one bend, heading any of eight ways (every 45°); 5 mm clearance between the wire and the ring\'s hole.' },
    L3: { levers: [], description: 'A riser and two bends in different planes; 4 mm clearance.' },
    L5: { levers: [], description: 'A riser bending into 1.5–2 turns of a helix; 3 mm clearance.' },
    L7: { levers: ['+rot'], description: 'L5 with the working frame turned about the vertical by ±30–60°, shown only by the axis arrows.' },
  },
};

/** M4 Helical wire: the registration object, assembled from the role files. */
export const m4HelicalWire: TaskFamily<M4Scene> = {
  ...M4_DESCRIPTOR,
  generate: (seed, tier) => generate(M4_DESCRIPTOR, seed, tier),
  worldOptions,
  build,
  reference,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
};
