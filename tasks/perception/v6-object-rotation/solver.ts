/**
 * V6 reference: the label the generator derived from the turntable stops; the shortcut filter
 * `one-right-answer` re-derives it independently from the pictures' stops.
 */
import type { Instance, ReferenceSolution } from '../../types.ts';
import type { V6Scene } from './scene.ts';

/** The reference: commit the label the generator derived from the turntable stops. */
export function reference(instance: Instance<V6Scene>): ReferenceSolution {
  const q = instance.scene.question;
  return {
    calls: [{ tool: 'answer', args: { ...q.answer } }],
    method: 'the label derived from the turntable stops (θ = 5°·min(k, 72 − k) for stops k apart), re-derived independently from the pictures\' stops by the one-right-answer filter',
  };
}
