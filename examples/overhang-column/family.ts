/**
 * B7 overhang column, written on the loose-block kit: stack loose blocks in one column at a
 * table's edge so that a block reaches past a marker post beyond it, and the stack stands.
 */
import type { FamilyDescriptor, TaskFamily } from '../../tasks/types.ts';
import { leverInfo } from '../../tasks/levers.ts';
import { build } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate } from './generate.ts';
import { B7_LEVERS, type B7Scene } from './scene.ts';
import { reference } from './solver.ts';

/** What B7 is. */
export const B7_DESCRIPTOR: FamilyDescriptor = {
  id: 'B7',
  version: 1,
  category: 'B',
  title: 'Overhang column',
  summary: 'Stack loose blocks in one column at a table edge so that a block reaches past a marker post and the stack stands; lengths, edge and marker are read off a ruler. Budget: the reference\'s placements plus two.',
  tiers: {
    L1: { levers: [], description: 'Three blocks of one length; the marker needs all three; 5 actions.' },
    L3: { levers: [], description: 'Four blocks of one length; the marker needs all four; 6 actions.' },
    L5: { levers: [], description: 'Six blocks of three lengths; the marker needs four; 6 actions.' },
    L7: { levers: ['+rot'], description: 'L5 seen first from 35–60° to one side.' },
  },
};

/** B7: the registration object. */
export const b7OverhangColumn: TaskFamily<B7Scene> = {
  ...B7_DESCRIPTOR,
  levers: leverInfo(B7_LEVERS),
  generate: (seed, tier, lever) => generate(B7_DESCRIPTOR, seed, tier, lever),
  build,
  reference,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
};
