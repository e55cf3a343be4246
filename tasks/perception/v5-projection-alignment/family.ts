/**
 * V5 projection alignment: the rotation/projection seed as a SpaceAct world. A solid made by
 * extruding a generated icon inside a sphere floats in front of a fixed orthographic view; it
 * starts a few 30° turns away from the pose that shows the icon face-on, and the agent turns
 * it back with 24 discrete rotations (three world axes × two directions × 1°, 5°, 10°, 30°)
 * until its silhouette overlaps the target by projection IoU ≥ 0.90.
 *
 * Protocol points and where they live: icon drawing (icon.ts), icon processing, filters and
 * sphere-bounded extrusion (extrusion.ts), the closed mesh of the body (mesh.ts), the exact
 * rotation arithmetic and the 24 actions (rotation.ts), the point-splat projection and IoU
 * (projection.ts), symmetry detection and pose error (symmetry.ts), the reference searches
 * and the episode's stopping rules (search.ts), the observation panel (panel.ts) and the
 * stratified `rota` suite (rota-suite.ts). The role files — scene.ts, generate.ts, episode.ts,
 * solver.ts, filters.ts — assemble them; README.md documents the scene fields.
 */
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate, tiltedAxesText } from './generate.ts';
import { readRotaPool, ROTA_MIN_LENGTH, ROTA_POOL_SEEDS, ROTA_SIZE, selectRota } from './rota-suite.ts';
import { leverInfo } from '../../levers.ts';
import { V5_LEVERS, type V5Scene } from './scene.ts';
import { reference } from './solver.ts';

/** What V5 is: id, version, category, title, summary and tiers. */
export const V5_DESCRIPTOR: FamilyDescriptor = {
  id: 'V5',
  version: 1,
  category: 'V',
  title: 'Projection alignment',
  summary:
    'Turn an extruded icon with 24 discrete world-frame rotations (three axes, two directions, 1°, 5°, 10°, 30°) until its silhouette matches the face-on target with projection IoU ≥ 0.90, judging from target and current silhouettes and a depth-shaded view. Tests mental rotation and closed-loop 3D control from 2D feedback.',
  tiers: {
    L1: { levers: [], description: 'Start 2–3 random 30° turns away from the target.' },
    L3: { levers: [], description: 'Start 3–5 random 30° turns away from the target.' },
    L5: { levers: [], description: 'Start 4–8 random 30° turns away from the target (the pool of the rota suite).' },
    L7: {
      levers: ['+rot'],
      description: 'L5 with a tilted working frame: the three rotation axes are the picture axes turned 30–50° about the vertical and then 15–30° about the turned horizontal axis (stated in the rules).',
    },
  },
};

/** V5 projection alignment (the rotation/projection seed as a world config). */
export const v5ProjectionAlignment: TaskFamily<V5Scene> = {
  ...V5_DESCRIPTOR,
  levers: leverInfo(V5_LEVERS),
  generate: (seed, tier, lever) => generate(V5_DESCRIPTOR, seed, tier, lever),
  build,
  reference,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
  // The protocol shows the IoU after every rotation (RoTA's closed loop); its blind
  // hill-climber is in the battery beside the bound.
  shownMeasures: { reason: 'RoTA shows the projection IoU after every rotation by design', keys: ['iou', 'best_iou', 'iou_per_step', 'final_iou'] },
  textVaries: [
    {
      what: 'tilted rotation axes',
      reason:
        "At L7 rotate() turns about a tilted frame drawn per seed; the rules must define the tool's axes for a model to use it. The frame is the tool's convention, independent of the object's pose and of the turn back to the target.",
      values: (i) => {
        const t = tiltedAxesText(i.scene);
        return t ? [t] : [];
      },
    },
  ],
  suites: {
    rota: {
      description: `${ROTA_SIZE} L5 instances from a pool of ${ROTA_POOL_SEEDS[1] - ROTA_POOL_SEEDS[0] + 1} (seeds ${ROTA_POOL_SEEDS[0]}–${ROTA_POOL_SEEDS[1]}), stratified over reference path length (≥ ${ROTA_MIN_LENGTH}) with largest-remainder allocation and SHA-256 ranking`,
      instances: () => selectRota(readRotaPool(V5_DESCRIPTOR.version).entries),
    },
  },
};
