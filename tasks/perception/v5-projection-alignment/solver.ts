/**
 * V5 reference: the shortest path that verifies of the inverse scramble, a 30°-only
 * breadth-first search and a pose-guided beam search (`search.ts`), as `rotate` calls.
 */
import type { Instance, ReferenceSolution } from '../../types.ts';
import { ACTIONS } from './rotation.ts';
import type { V5Scene } from './scene.ts';
import { findReference } from './search.ts';

const references = new Map<string, ReferenceSolution>();

/** The reference: the shortest verified path of three searches (not proven optimal), memoised per scene. */
export function reference(instance: Instance<V5Scene>): ReferenceSolution {
  const key = JSON.stringify([instance.id, instance.version, instance.scene]);
  const hit = references.get(key);
  if (hit) return structuredClone(hit);
  const ref = findReference(instance.scene);
  const len = (x: number | null): string => (x === null ? 'none' : String(x));
  const solution: ReferenceSolution = {
    calls: ref.path.map((i) => ({ tool: 'rotate', args: { axis: ACTIONS[i].axis, direction: ACTIONS[i].direction, angle_deg: ACTIONS[i].angle } })),
    optimal: false,
    method:
      `shortest verified path (${ref.source}, ${ref.path.length} rotations) of: the inverse scramble (${len(ref.lengths.inverse)}), ` +
      `a 30°-only breadth-first search (${len(ref.lengths.bfs30)} shorter than the inverse), a pose-guided beam search of width 256 (${len(ref.lengths.beam)}); ` +
      `IoU after the last step ${ref.ious[ref.ious.length - 1].toFixed(3)}`,
  };
  if (references.size > 200) references.clear();
  references.set(key, solution);
  return structuredClone(solution);
}
