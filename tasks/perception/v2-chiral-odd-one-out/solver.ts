/**
 * V2 reference: the exact certificate (every part but one a proper rotation of the first copy,
 * the odd one its mirror image, the shape chiral), and camera moves through views that together
 * show every cube clearly (ray cast), then the answer.
 */
import { certifyOddOneOut } from '../../../solvers/polycube-chirality.ts';
import { coverThenAnswer } from '../../kits/part-sight/table-question.ts';
import type { Instance, ReferenceSolution } from '../../types.ts';
import type { V2Scene } from './scene.ts';

/** The reference: the certified answer after a cover of every cube by reachable views. */
export function reference(instance: Instance<V2Scene>): ReferenceSolution {
  const s = instance.scene;
  const cert = certifyOddOneOut(s.parts.map((p) => p.cells));
  const letter = s.parts[cert.odd].letter;
  const { calls, views } = coverThenAnswer({ ...instance, scene: { ...s, answer: letter } });
  return {
    calls,
    // One action, and the certificate leaves exactly one right letter.
    optimal: true,
    unique: true,
    method: `exact: parts ${s.parts.filter((_, i) => i !== cert.odd).map((p) => p.letter).join(', ')} are proper rotations of one chiral shape (witness rotations found among the 24), part ${letter} is its mirror image; ${views.length} camera moves show every cube clearly (ray cast)`,
  };
}
