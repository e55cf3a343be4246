/**
 * What a V5 instance is built from (its scene data) and what every part derives from it —
 * the solid, its symmetry group, the target silhouette, the 24 action rotations — computed once
 * per scene and kept in a small cache (pure memo: equal scenes give equal models).
 */
import { extrude, type IconSolid } from './extrusion.ts';
import { maskIoU, silhouette } from './projection.ts';
import {
  ACTIONS,
  actionQuaternions,
  applyRotation,
  IDENTITY,
  type Action,
  type Quaternion,
} from './rotation.ts';
import type { V5Scene } from './scene.ts';
import { detectSymmetry, type SymmetryGroup } from './symmetry.ts';

/** Everything derived from a scene. */
export interface V5Model {
  solid: IconSolid;
  /** Lazily detected: only pose errors and the beam search need it. */
  symmetry(): SymmetryGroup;
  /** Silhouette of the target pose (the identity). */
  target: Uint8Array;
  /** The 24 action rotations in the scene's working frame, in {@link ACTIONS} order. */
  actions: Quaternion[];
  /** Initial orientation: the scramble applied to the identity. */
  initial: Quaternion;
  /** Projection IoU at an orientation (memoised per orientation). */
  iou(q: readonly number[]): number;
}

/** Parses an action label such as `x-10`. */
export function parseAction(label: string): Action {
  const m = /^([xyz])([+-])(1|5|10|30)$/.exec(label);
  if (!m) throw new RangeError(`not an action label: ${label}`);
  return { axis: m[1] as Action['axis'], direction: m[2] as Action['direction'], angle: Number(m[3]) as Action['angle'] };
}

/** Index in {@link ACTIONS} of an action label. */
export function actionIndexOf(label: string): number {
  const a = parseAction(label);
  return ACTIONS.findIndex((b) => b.axis === a.axis && b.direction === a.direction && b.angle === a.angle);
}

const CACHE_SIZE = 4;
const cache = new Map<string, V5Model>();

function orientationKey(q: readonly number[]): string {
  return q.join(',');
}

/** The model of a scene (cached; the few most recent scenes are kept). */
export function modelOf(scene: V5Scene): V5Model {
  const key = JSON.stringify([scene.icon, scene.sampleSeed, scene.scramble, scene.frame]);
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const solid = extrude(scene.icon, scene.sampleSeed);
  const target = silhouette(solid, IDENTITY);
  const actions = actionQuaternions(scene.frame);
  let initial: Quaternion = IDENTITY;
  for (const label of scene.scramble) initial = applyRotation(actions[actionIndexOf(label)], initial);
  let group: SymmetryGroup | null = null;
  const ious = new Map<string, number>();
  const model: V5Model = {
    solid,
    symmetry: () => (group ??= detectSymmetry(solid)),
    target,
    actions,
    initial,
    iou(q) {
      const k = orientationKey(q);
      let v = ious.get(k);
      if (v === undefined) {
        v = maskIoU(silhouette(solid, q), target);
        if (ious.size > 5000) ious.clear();
        ious.set(k, v);
      }
      return v;
    },
  };
  cache.set(key, model);
  while (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return model;
}
