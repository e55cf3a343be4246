/**
 * B4 overhang stack: stack loose blocks (no studs) in one column at a table's edge so that a
 * block reaches past a marker beyond the edge, and the stack stands.
 *
 * **Scene.** A table whose edge lies somewhere along a black-and-white ruler (it reads
 * centimetres from its 0 mark); a red post with a ball on top stands on the floor past the edge,
 * below the table top; the supply of coloured blocks of one cross-section lies on the table
 * behind the stacking line. At L5/L7 their lengths differ.
 *
 * **Tools.** `place(block, x_m)` lifts a block, carries it over the stacking line and lowers it
 * onto the top of the stack with its centre at `x_m` (swept motion: anything in the way stops
 * it); the exact statics check of the loose-block kit refuses a placement that would leave any
 * level's load outside its resting patch (less the rule's margin), and the world's settle check
 * confirms the rest in Rapier. `remove()` takes the top block back. Every call counts against a
 * budget of the reference's placements plus two, refused ones included.
 *
 * **What it takes.** Reading the block lengths, the edge and the marker off the ruler, and
 * building the harmonic column that reaches far enough: the marker is placed past what any
 * column of fewer blocks can reach, and at L5/L7 past what any other choice of blocks can.
 */
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate } from './generate.ts';
import type { B4Scene } from './scene.ts';
import { reference } from './solver.ts';

/** What B4 is: id, version, category, title, summary and tiers. */
export const B4_DESCRIPTOR: FamilyDescriptor = {
  id: 'B4',
  version: 1,
  category: 'B',
  title: 'Overhang stack',
  summary:
    'Stack loose blocks (no studs, friction only) in one column at a table edge so that a block reaches past a red marker post beyond the edge and the stack stands. Tests reading lengths and positions off a ruler in the picture (the text gives none), statics of a harmonic stack (every level\'s load over its support, with a small margin from tipping), choosing and ordering blocks of different lengths, and at L7 a turned first view. A budget of the reference\'s placements plus two, refused ones counted, leaves no room to find the edge by probing.',
  tiers: {
    L1: { levers: [], description: 'Three blocks of one length; the marker needs all three (90–97 % of the farthest column\'s overhang); 5 actions.' },
    L3: { levers: [], description: 'Four blocks of one length; the marker needs all four (93–98 %); 6 actions.' },
    L5: { levers: [], description: 'Six blocks of three lengths (two long, two middling, two short): the marker needs four, and only one choice of four reaches it (93–98 % of the farthest column); 6 actions.' },
    L7: { levers: ['+rot'], description: 'L5 with the first view turned 35–60° to one side of straight in front, so the ruler is seen at a slant.' },
  },
};

/** B4 overhang stack: the registration object, assembled from the role files. */
export const b4OverhangStack: TaskFamily<B4Scene> = {
  ...B4_DESCRIPTOR,
  generate: (seed, tier) => generate(B4_DESCRIPTOR, seed, tier),
  build,
  reference,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
};
