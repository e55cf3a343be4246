/**
 * M1 chiral peg-in-hole.
 *
 * The agent holds a peg (kinematic, moved only by swept moves) over a plate with several
 * through-holes. The peg's shaft has a chiral pentomino cross-section (F, L, N, P or Y: no
 * mirror symmetry and no rotational symmetry) and a cap that overhangs it all round, so the
 * peg goes in shaft first or not at all. One hole has the shaft's outline (grown by the
 * clearance); the decoys are its mirror image — which only a flipped peg could enter, and the
 * cap forbids flipping — and outlines with one square moved. The agent must see the
 * cross-section, pick the hole of the same handedness, turn the peg to fit it, and lower it in.
 *
 * Tools (metric, relative, in the working frame shown by coloured arrows): `translate` moves the
 * peg in a straight line; `rotate` turns it about an axis through its own centre. Every move is
 * a swept check (`World.moveSwept`): touching the plate or its rails, or leaving the workspace,
 * stops the move and rolls it back. No dynamics are involved, so moves take no world time and
 * there is no statics check. The episode ends when the shaft is in the matching hole at least
 * `INSERT_DEPTH` (scene.ts) deep.
 *
 * Tiers: L1 three holes turned by quarter turns, 4 mm clearance, peg upright; L3 four holes
 * turned by any angle, the variant's mirror image as a further decoy, 2 mm; L5 five holes,
 * 0.8 mm, and the peg starts tipped over (shaft sideways or up) so getting it upright and the
 * right way round needs turns about horizontal axes; L7 is L5 with `+rot`: the working frame is
 * turned about the vertical by 30–60° either way, shown only by the in-scene axis arrows.
 * Positions and angles are drawn continuously; no size is in the text (issue 36); the action
 * budget counts refused calls.
 */
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build, worldOptions } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate, M1_LEVERS } from './generate.ts';
import type { M1Scene } from './scene.ts';
import { reference } from './solver.ts';
import { leverInfo } from '../../levers.ts';

/** What M1 is: id, version, category, title, summary and tiers. */
export const M1_DESCRIPTOR: FamilyDescriptor = {
  id: 'M1',
  version: 4,
  category: 'M',
  title: 'Chiral peg-in-hole',
  summary:
    'Insert a held peg with a chiral pentomino cross-section and an overhanging cap into the one hole of a plate that matches it, among its mirror image and one-square variants. Tests seeing handedness, mental rotation and precise metric control; every move is swept for collision and rolled back on contact.',
  tiers: {
    L1: { levers: [], description: 'Three holes (match, mirror image, one variant) turned by quarter turns; 4 mm clearance; the peg starts upright, a quarter or half turn off.' },
    L3: { levers: [], description: 'Four holes turned by any angle, adding the variant\'s mirror image; 2 mm clearance; the peg starts upright, at least 30° off.' },
    L5: { levers: [], description: 'Five holes; 0.8 mm clearance; the peg starts tipped over (shaft sideways or up) and must be turned about horizontal axes.' },
    L7: { levers: ['+rot'], description: 'L5 with the working frame turned about the vertical by 30–60° either way, shown only by the axis arrows.' },
  },
};

/** M1 chiral peg-in-hole: insert an asymmetric peg into its only matching hole, every move swept. */
export const m1ChiralPeg: TaskFamily<M1Scene> = {
  ...M1_DESCRIPTOR,
  levers: leverInfo(M1_LEVERS),
  generate: (seed, tier, lever) => generate(M1_DESCRIPTOR, seed, tier, lever),
  worldOptions,
  build,
  reference,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
};
