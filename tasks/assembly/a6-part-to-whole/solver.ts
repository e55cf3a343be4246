/**
 * A6 reference and certificate: exactly one option forms the target (the polycube toolkit's
 * exact cover over every option), and the reference either answers it (question form) or
 * lowers its two pieces in an order that stands (assembly form, planned in `physical.ts`).
 */
import { SpaceActError } from '../../../core/errors.ts';
import type { Instance, ReferenceSolution } from '../../types.ts';
import { planAssembly } from './physical.ts';
import { LETTERS, optionsFormingTarget, type Option } from './problem.ts';
import type { A6Scene, PhysicalScene } from './scene.ts';

/** The options of a scene as certification sees them, and its target. */
export function optionsOf(s: A6Scene): { target: PhysicalScene['target']; options: Option[] } {
  if (s.form === 'physical') return { target: s.target, options: s.trays.map((t) => ({ pieces: [t.pieces[0].cells, t.pieces[1].cells], made: '' })) };
  return { target: s.target, options: s.options.map((o) => ({ pieces: [o[0].cells, o[1].cells], made: '' })) };
}

/** Certifies that exactly the answer forms the target; the method text for the reference. */
function certificate(instance: Instance<A6Scene>): string {
  const { target, options } = optionsOf(instance.scene);
  const forming = optionsFormingTarget(target, options);
  if (forming.length !== 1 || forming[0] !== instance.scene.answer) {
    throw new SpaceActError('invalid-state', `${instance.id}: options ${forming.map((i) => LETTERS[i]).join(', ') || 'none'} form the target, not exactly ${LETTERS[instance.scene.answer]}`, {
      instance: instance.id,
    });
  }
  return `polycube exact cover: option ${LETTERS[instance.scene.answer]} forms the ${target.length}-cube target, options ${LETTERS.filter((_, i) => i !== instance.scene.answer).join(', ')} form it in 0 packings (24 rotations, integer translations, no mirroring)`;
}

/** The reference: the answer (question form), or the correct tray's pieces lowered in a working order (assembly form). */
export function reference(instance: Instance<A6Scene>): ReferenceSolution {
  const s = instance.scene;
  const method = certificate(instance);
  if (s.form === 'question') {
    // One call, and the only right one.
    return { calls: [{ tool: 'answer', args: { option: LETTERS[s.answer] } }], optimal: true, unique: true, method };
  }
  const plan = planAssembly(s);
  if (!plan) throw new SpaceActError('invalid-state', `${instance.id}: the correct pair cannot be lowered into the outline`, { instance: instance.id });
  return {
    calls: plan.steps.map((st) => ({ tool: 'place', args: { piece: st.piece, turns: st.turns, cell: st.cell } })),
    // Two pieces need two placements, and only one tray can fill the outline.
    optimal: true,
    unique: true,
    method: `${method}; ${plan.packings} packing(s) of the outline by tray ${s.trays[s.answer].letter}, the first that can be lowered piece by piece is played`,
  };
}

