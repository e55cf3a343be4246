/**
 * V4 reference: move the camera to a view that shows both ends of the size and the ruler beside
 * it (found by ray casting over the views the camera tools reach, the nearest to the first view),
 * then answer the generator's size.
 */
import type { CameraSpec } from '../../../render/camera-spec.ts';
import { orbitCall } from '../../kits/part-sight/table-scene.ts';
import type { Instance, ReferenceSolution, ToolCall } from '../../types.ts';
import type { V4Scene } from './scene.ts';
import { checkedViews, readableFrom, RulerSight } from './sight.ts';

/** The view the reference reads from: the first view if it shows everything, else the checked view nearest it that does. */
export function readingView(instance: Instance<V4Scene>): CameraSpec | null {
  const sight = new RulerSight(instance.scene, instance.rulers);
  const first = instance.camera.initial;
  if (readableFrom(sight, first, instance.scene)) return first;
  const move = (v: CameraSpec): number => {
    let da = Math.abs(v.azimuth - first.azimuth) % 360;
    if (da > 180) da = 360 - da;
    return da + Math.abs(v.elevation - first.elevation);
  };
  const views = checkedViews(instance).sort((a, b) => move(a) - move(b));
  return views.find((v) => readableFrom(sight, v, instance.scene)) ?? null;
}

/** The reference: the camera move to the reading view (if the first view is not one), then the answer. */
export function reference(instance: Instance<V4Scene>): ReferenceSolution {
  const v = readingView(instance);
  const calls: ToolCall[] = [];
  if (v && v !== instance.camera.initial) calls.push(orbitCall(instance.camera.initial, v));
  calls.push({ tool: 'answer', args: { size_cm: instance.scene.answerCm } });
  return {
    calls,
    method: v
      ? `a view that shows both ends and the ruler clearly (ray cast over the reachable views${v === instance.camera.initial ? ': the first view' : `: azimuth ${v.azimuth}°, elevation ${v.elevation}°`}); the size is the generator's, equal to the span's length`
      : 'no reading view found',
  };
}


