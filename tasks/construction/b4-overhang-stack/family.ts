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
 * onto the top of the stack with its centre at `x_m` — at L7 straight down onto whatever is under
 * it, so blocks can lie side by side (swept motion: anything in the way stops it); the exact
 * statics check of the loose-block kit (the column rule; at L7 the contact-force linear program)
 * refuses a placement after which the blocks would not stand with the rule's margin, and the
 * world's settle check confirms the rest in Rapier. `remove()` takes the last block back. Every
 * call counts against a budget of the reference's placements plus two, refused ones included.
 *
 * **What it takes.** Reading the block lengths, the edge and the marker off the ruler, and
 * building the harmonic column that reaches far enough: the marker is placed past what any
 * column of fewer blocks can reach, at L5 past what any other choice of blocks can, and at L7
 * past what any column can: a short block must hold a long one down as a counterweight.
 */
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate } from './generate.ts';
import { leverInfo } from '../../levers.ts';
import { B4_LEVERS, type B4Scene } from './scene.ts';
import { reference } from './solver.ts';

/** What B4 is: id, version, category, title, summary and tiers. */
export const B4_DESCRIPTOR: FamilyDescriptor = {
  id: 'B4',
  version: 3,
  category: 'B',
  title: 'Overhang stack',
  summary:
    'Stack loose blocks (no studs, friction only) at a table edge so that a block reaches past a red marker post beyond the edge and the blocks stand: one column up to L5, and at L7, where the marker lies past what any column of the supply can reach, a counterweighted arrangement (a block on the table, one on its far end reaching out, a short one on its back end holding it down). Tests reading lengths and positions off a ruler in the picture (the text gives none), statics of a harmonic stack and of counterweights (the contact forces must balance every block, with a small margin from tipping), choosing and ordering blocks of different lengths, and at L7 a turned first view. A budget of the reference\'s placements plus two, refused ones counted, leaves no room to find the edge by probing.',
  tiers: {
    L1: { levers: [], description: 'Three blocks of one length; the marker needs all three (90–97 % of the farthest column\'s overhang); 5 actions.' },
    L3: { levers: [], description: 'Four blocks of one length; the marker needs all four (93–98 %); 6 actions.' },
    L5: { levers: [], description: 'Six blocks of three lengths (two long, two middling, two short): the marker needs four, and only one choice of four reaches it (93–98 % of the farthest column); 6 actions.' },
    L7: { levers: ['+counterweight', '+rot'], description: 'Three blocks, two long and one short: the marker lies past every column of the supply, and only a counterweighted arrangement reaches it (93–98.5 % of the farthest one); blocks may lie side by side; 5 actions; the first view turned 35–60° to one side.' },
  },
};

/** B4 overhang stack: the registration object, assembled from the role files. */
export const b4OverhangStack: TaskFamily<B4Scene> = {
  ...B4_DESCRIPTOR,
  levers: leverInfo(B4_LEVERS),
  generate: (seed, tier, lever) => generate(B4_DESCRIPTOR, seed, tier, lever),
  build,
  reference,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
};
