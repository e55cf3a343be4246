/**
 * V3 reference: the exact certificate (exactly one candidate is a proper rotation of the
 * reference under the 24 cube rotations), and camera moves through views that together show
 * every cube clearly (ray cast), then the answer.
 */
import { certifyRotatedCopy } from '../../../solvers/polycube-chirality.ts';
import { coverThenAnswer } from '../../kits/part-sight/table-question.ts';
import type { Instance, ReferenceSolution } from '../../types.ts';
import type { V3Scene } from './scene.ts';

/** The reference: the certified answer after a cover of every cube by reachable views. */
export function reference(instance: Instance<V3Scene>): ReferenceSolution {
  const s = instance.scene;
  const [ref, ...candidates] = s.parts;
  const cert = certifyRotatedCopy(ref.cells, candidates.map((c) => c.cells));
  const letter = candidates[cert.copy].letter;
  const { calls, views } = coverThenAnswer({ ...instance, scene: { ...s, answer: letter } });
  return {
    calls,
    // One action, and the certificate leaves exactly one right letter.
    optimal: true,
    unique: true,
    method: `exact: candidate ${letter} is a proper rotation of the reference (24 cube rotations), ${candidates
      .map((c, i) => (i === cert.copy ? null : `${c.letter} is ${cert.relations[i] === 'mirror' ? 'its mirror image' : 'another shape'}`))
      .filter(Boolean)
      .join(', ')}; ${views.length} camera moves show every cube clearly (ray cast)`,
  };
}
