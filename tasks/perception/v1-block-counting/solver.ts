/**
 * V1 reference: a greedy cover of the reachable views that together show every cube clearly
 * (ray-cast visibility), reached with `orbit` calls, then the answer.
 */
import type { CameraSpec } from '../../../render/camera-spec.ts';
import { SpaceActError } from '../../../core/errors.ts';
import type { Instance, ReferenceSolution, ToolCall } from '../../types.ts';
import type { V1Scene } from './scene.ts';
import { clearlySeen, viewsOf } from './sightings.ts';

/** A camera move, as the agent's tools express it, from one orbit camera to another. */
export function orbitCall(from: CameraSpec, to: CameraSpec): ToolCall {
  let da = to.azimuth - from.azimuth;
  da = ((((da + 180) % 360) + 360) % 360) - 180;
  return { tool: 'orbit', args: { azimuth_deg: da, elevation_deg: to.elevation - from.elevation } };
}

/**
 * Views that together show every cube clearly: a greedy cover over the reachable views, each
 * step taking the view that clearly shows the most cubes not yet covered (ties: the smaller
 * camera move). Every cube is clearly visible in some reachable view (a generator filter), so
 * the cover is complete.
 */
export function coverViews(instance: Instance<V1Scene>): CameraSpec[] {
  const cubes = instance.scene.blocks.filter((b) => b.kind === 'cube').map((b) => b.name);
  const views = viewsOf(instance);
  const left = new Set(cubes);
  const chosen: CameraSpec[] = [];
  let current = instance.camera.initial;
  while (left.size) {
    let best = -1;
    let bestGain = 0;
    let bestMove = Infinity;
    views.forEach((v, i) => {
      const gain = [...left].filter((n) => clearlySeen(instance, v, n)).length;
      const move = Math.abs(orbitCall(current, v).args.azimuth_deg as number) + Math.abs(v.elevation - current.elevation);
      if (gain > bestGain || (gain === bestGain && gain > 0 && move < bestMove)) {
        best = i;
        bestGain = gain;
        bestMove = move;
      }
    });
    if (best < 0) throw new SpaceActError('invalid-state', `${instance.id}: some cubes are clearly visible from no reachable view`);
    for (const n of cubes) if (clearlySeen(instance, views[best], n)) left.delete(n);
    chosen.push(views[best]);
    current = views[best];
  }
  return chosen;
}

/**
 * The reference: the camera moves of a greedy view cover (each view clearly shows cubes the
 * earlier ones did not), then the answer. Only the answer is an action.
 */
export function reference(instance: Instance<V1Scene>): ReferenceSolution {
  const views = coverViews(instance);
  const calls: ToolCall[] = [];
  let current = instance.camera.initial;
  for (const v of views) {
    calls.push(orbitCall(current, v));
    current = v;
  }
  calls.push({ tool: 'answer', args: { count: instance.scene.cubeCount } });
  return {
    calls,
    method: `${views.length} reachable views that together show every cube clearly (greedy cover, ray-cast visibility with three-mesh-bvh); the count is the generator's`,
  };
}
