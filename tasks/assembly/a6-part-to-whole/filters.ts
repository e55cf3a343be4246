/**
 * A6 shortcut filters, random-success bounds and sightless strategies: exactly one option
 * forms the target, no option is singled out by how often its pieces recur among the others,
 * and the assembly form's correct pair can be lowered into the outline. See README.md for the
 * shortcuts considered.
 */
import { Rng } from '../../../core/rng.ts';
import { canonical, shapeKey, type Cell } from '../../../solvers/polycube.ts';
import type { ShortcutTell, SightlessStrategy } from '../../sightless.ts';
import type { AnswerPlace, Instance, InstanceFilter, ToolCall } from '../../types.ts';
import { planAssembly } from './physical.ts';
import { LETTERS, optionsFormingTarget, recurrence, recurrenceTell } from './problem.ts';
import type { A6Scene } from './scene.ts';
import { optionsOf, reference } from './solver.ts';
import { QUESTION_SEED_BASE } from './polycomp.ts';

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

/** Whether a piece differs from its mirror image (no proper rotation maps one onto the other). */
function chiral(cells: readonly Cell[]): boolean {
  const mirrored = cells.map(([x, y, z]) => [-x, y, z] as Cell);
  return shapeKey(canonical(cells)) !== shapeKey(canonical(mirrored));
}

/** Chiral pieces per option. */
function chiralCounts(inst: Instance<A6Scene>): number[] {
  return optionsOf(inst.scene).options.map((o) => o.pieces.filter(chiral).length);
}

/**
 * The calls of a tell that picked option `choice`: the answer (question form), or, when it picked
 * the right tray, the reference assembly — the tell is charged only for choosing, as if the
 * assembly then went right — and otherwise a commit with the board empty.
 */
function callsFor(inst: Instance<A6Scene>, choice: number): ToolCall[] {
  if (inst.scene.form === 'question') return [{ tool: 'answer', args: { choice: LETTERS[choice] } }];
  return choice === inst.scene.answer ? reference(inst).calls : [{ tool: 'commit', args: {} }];
}

/** The option a cue points at: among those with the extreme value, one drawn per instance (ties broken evenly). */
function extreme(inst: Instance<A6Scene>, values: number[], want: 'max' | 'min', name: string): number {
  const target = want === 'max' ? Math.max(...values) : Math.min(...values);
  const tied = values.map((v, i) => (v === target ? i : -1)).filter((i) => i >= 0);
  return new Rng(`A6/tell/${name}/${inst.id}`).pick(tied);
}

function tell(name: string, description: string, feature: (i: Instance<A6Scene>) => number[], want: 'max' | 'min'): ShortcutTell {
  return {
    name,
    description,
    // Four options: chance plus the battery's margin for a guess among listed options.
    bound: 0.35,
    calls: (instance) => {
      const inst = instance as Instance<A6Scene>;
      return callsFor(inst, extreme(inst, feature(inst), want, name));
    },
  };
}

/**
 * A6's tells: structural cues a model could read off the options without assembling anything —
 * which option's pieces recur among the others most (or least), which has the most (or fewest)
 * chiral pieces. Ties are broken evenly, so a cue that ties the answer with others earns only its
 * share; the generator rejects problems where a cue singles out the answer, and the battery holds
 * each cue to chance plus a margin over many seeds.
 */
export const TELLS: ShortcutTell[] = [
  tell('recurs-most', 'picks the option whose pieces recur most among the other options', (i) => recurrence(optionsOf(i.scene).options), 'max'),
  tell('recurs-least', 'picks the option whose pieces recur least among the other options', (i) => recurrence(optionsOf(i.scene).options), 'min'),
  tell('most-chiral', 'picks the option with the most chiral (handed) pieces', chiralCounts, 'max'),
  tell('fewest-chiral', 'picks the option with the fewest chiral pieces', chiralCounts, 'min'),
];

/**
 * The battery judges both forms: the assembly form (seeds below 1000) and the question form
 * (seeds from 1000 on), half each, and trains on other seeds of both.
 */
export function batterySeeds(count: number, purpose: 'judged' | 'training', judged: number): number[] {
  const physical = Math.ceil(count / 2);
  const base = purpose === 'judged' ? 0 : Math.ceil(judged / 2) + 200;
  return [
    ...Array.from({ length: physical }, (_, i) => base + i),
    ...Array.from({ length: count - physical }, (_, i) => QUESTION_SEED_BASE + base + i),
  ];
}

/** Where the answer sits: the tray (assembly form) or the option letter (question form) (`TaskFamily.answerPlace`). */
export function answerPlace(instance: Instance<A6Scene>): AnswerPlace {
  const s = instance.scene;
  return { count: s.form === 'physical' ? s.trays.length : s.options.length, index: s.answer };
}
