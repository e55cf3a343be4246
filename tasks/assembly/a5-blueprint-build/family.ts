/**
 * A5 blueprint build: rebuild a structure of cubes shown only as an orthographic line drawing
 * with dimension lines, placing loose cubes one at a time onto a build plate. See README.md for
 * the scene fields, the uniqueness certificate and the shortcuts considered.
 */
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate } from './generate.ts';
import { A5_LEVERS, type A5Scene } from './scene.ts';
import { reference } from './solver.ts';
import { leverInfo } from '../../levers.ts';

/** What A5 is: id, version, category, title, summary and tiers. */
export const A5_DESCRIPTOR: FamilyDescriptor = {
  id: 'A5',
  version: 1,
  category: 'A',
  title: 'Blueprint build',
  summary:
    'A target structure of cubes is shown only as a blueprint: orthographic line drawings (front, top, right side) with dimension lines, rendered by the renderer\'s drawing view. Rebuild it on a build plate by lowering loose cubes one at a time, each resting on the plate or on the cube below, and commit; solved when the cubes on the plate form exactly the structure (anywhere on the plate, same orientation). Tests reading orthographic projections and combining views into a 3D shape; every blueprint is certified to have exactly one buildable reading by enumerating every stack of cubes with the same drawings.',
  tiers: {
    L1: { levers: [], description: '6 cubes within a 3×3×3 block; front, top and right-side drawings.' },
    L3: { levers: [], description: '9 cubes within a 4×4×3 block; front, top and right-side drawings; one spare cube.' },
    L5: {
      levers: [],
      description: '12 cubes within a 4×4×4 block; front, top and right-side drawings, each of them needed: without any one view another structure matches the other two; two spare cubes.',
    },
    L7: { levers: ['+blueprint'], description: 'L5 with only the front and top drawings: the structure is certified unique from those two alone, so depths must be inferred from where the lines fall.' },
  },
};

/** A5 blueprint build: rebuild a cube structure from its orthographic line drawings. */
export const a5BlueprintBuild: TaskFamily<A5Scene> = {
  ...A5_DESCRIPTOR,
  levers: leverInfo(A5_LEVERS),
  generate: (seed, tier, lever) => generate(A5_DESCRIPTOR, seed, tier, lever),
  build,
  reference,
  certify: { unique: true },
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
};
