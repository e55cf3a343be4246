/**
 * A6 shortcut filters, random-success bounds and sightless strategies: exactly one option
 * forms the target, no option is singled out by how often its pieces recur among the others,
 * and the assembly form's correct pair can be lowered into the outline. See README.md for the
 * shortcuts considered.
 */
import type { SightlessStrategy } from '../../sightless.ts';
import type { Instance, InstanceFilter } from '../../types.ts';
import { planAssembly } from './physical.ts';
import { LETTERS, optionsFormingTarget, recurrenceTell } from './problem.ts';
import type { A6Scene } from './scene.ts';
import { optionsOf } from './solver.ts';

/**
 * Random success bound per form. The question form is a four-way choice: a uniform guess is
 * right with probability 1/4, and verify's 10 random episodes per instance then succeed
 * Binomial(10, 1/4) times — 2.5 on average, 7 or more with probability 0.35 %. Its bound is
 * 0.6 (at most 6 of 10), which keeps false alarms on question instances rare. The assembly
 * form keeps the default 0.1: a random `place` must pick the right tray, piece, turn and cell
 * at once (0 of 10 in verify on the released instances).
 */
export const randomSuccessBound = (instance: Instance): number => ((instance as Instance<A6Scene>).scene.form === 'question' ? 0.6 : 0.1);

/** Cheap static checks every instance must pass (the generator draws until they hold; verify reports them). */
export const SHORTCUT_FILTERS: InstanceFilter<A6Scene>[] = [
    {
      name: 'exactly-one-option-forms-target',
      check(inst) {
        const { target, options } = optionsOf(inst.scene);
        const forming = optionsFormingTarget(target, options);
        return forming.length === 1 && forming[0] === inst.scene.answer ? null : `options ${forming.map((i) => LETTERS[i]).join(', ') || 'none'} form the target`;
      },
    },
    {
      name: 'no-recurrence-tell',
      check(inst) {
        const { options } = optionsOf(inst.scene);
        return recurrenceTell(options, inst.scene.answer);
      },
    },
    {
      name: 'assemblable-by-lowering',
      check: (inst) => (inst.scene.form === 'physical' && !planAssembly(inst.scene) ? 'the correct pair cannot be lowered into the outline' : null),
    },
];

/** A6's own sightless strategies for the shortcut battery. */
export const SIGHTLESS: SightlessStrategy[] = [];
