/**
 * V6 object rotation: one-turn questions about an object turning on a turntable under a fixed
 * camera — the object-rotation benchmark's eight question types. See README.md for the scene
 * fields, the move metric and the shortcuts considered; `stats.ts` gives the benchmark's
 * per-type figures of a run (`spaceact stats DIR`).
 */
import { instanceId } from '../../../core/catalog.ts';
import type { FamilyDescriptor, TaskFamily, Tier } from '../../types.ts';
import { build } from './episode.ts';
import { answerPlace, randomSuccessBound, SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate } from './generate.ts';
import { leverInfo } from '../../levers.ts';
import { QUESTION_TYPES, V6_LEVERS } from './questions.ts';
import type { V6Scene } from './scene.ts';
import { reference } from './solver.ts';
import { ROTATION_RUN_STATS } from './stats.ts';

/** Questions of each type in the `rotation` suites. */
export const SUITE_PER_TYPE = 18;

/**
 * Ids of one tier's suite: seeds 0 … 8·SUITE_PER_TYPE − 1, which hold question 0 … SUITE_PER_TYPE − 1
 * of every type (see `questionSlot`).
 */
function suiteIds(tier: Tier): string[] {
  return Array.from({ length: QUESTION_TYPES.length * SUITE_PER_TYPE }, (_, seed) => instanceId('V6', tier, seed));
}

/** What V6 is: id, version, category, title, summary and tiers. */
export const V6_DESCRIPTOR: FamilyDescriptor = {
  id: 'V6',
  version: 3,
  category: 'V',
  title: 'Object rotation',
  summary:
    'One-turn questions about an object turning on a turntable under a fixed camera: whether it turned, by how much (coarse range, against 90°, exact angle as a choice or as a number), which picture is a named view, which of two pairs turned further, and what it looks like after a stated turn. Objects are generated furniture-like assemblies screened for rotational symmetry by ray-cast views at all 72 stops; angles are θ = 5°·min(k, 72 − k); classes and answer positions are balanced over each type\'s questions.',
  tiers: {
    L1: { levers: [], description: 'The seed benchmark\'s nine reference angles (0°, 30°, 45°, 60°, 90°, 120°, 135°, 150°, 180°); view-matching candidates are exact cardinal views; post-rotation candidates at least 30° apart.' },
    L3: { levers: [], description: 'Angles on a 15° grid (13 values); exact-angle options are the true angle and 8 others drawn from the grid; post-rotation candidates at least 30° apart.' },
    L5: { levers: [], description: 'Angles on the full 5° grid (37 values); post-rotation candidates only 15° apart; view-matching candidates up to 10° off their named view.' },
    L7: { levers: ['+occ'], description: 'L5 plus a screen in front of the turntable that never turns and hides the lower 30 % of the object at the axis; objects are re-screened for symmetry on what stays visible.' },
  },
};

/** V6 object rotation: the eight azimuth-rotation question types of the object-rotation benchmark, on turntable renders of generated furniture. */
export const v6ObjectRotation: TaskFamily<V6Scene> = {
  ...V6_DESCRIPTOR,
  levers: leverInfo(V6_LEVERS),
  generate: (seed, tier, lever) => generate(V6_DESCRIPTOR, seed, tier, lever),
  build,
  reference,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
  answerPlace,
  randomSuccessBound,
  certify: {},
  // The question type, as the title names it: questions of one type read alike over seeds.
  textForm: (i) => i.title,
  textVaries: [
    {
      what: 'question',
      reason:
        "Each seed asks one of the benchmark's eight question types: the title names the type, the rules carry its question, its options and how to answer, and the answer tool's schema lists the options. They say what is asked and which answers are allowed, never which option is right (balanced over each type's questions); the angle is read off the pictures.",
      values: (i) => {
        const lines = i.rules.split('\n');
        // Every line between the constant opening (and the L7 screen sentence) and the constant
        // closing line is the question's own text.
        const own = lines.filter((l, k) => k > 0 && !l.startsWith('A grey screen stands') && !l.startsWith('You have one turn and one action'));
        const answer = i.tools.find((t) => t.name === 'answer');
        return [i.title.replace(/^Object rotation: /, ''), own.join('\n'), ...own, ...(answer ? [answer.description, JSON.stringify(answer.parameters)] : [])];
      },
    },
    {
      what: 'option',
      reason: "An option's own description in the answer schema (an angle, a class of angles): the listed answers, never which is right.",
      whole: true,
      values: (i) => {
        const descriptions: string[] = [];
        const walk = (x: unknown): void => {
          if (Array.isArray(x)) x.forEach(walk);
          else if (x && typeof x === 'object') for (const [k, v] of Object.entries(x)) (k === 'description' && typeof v === 'string' ? descriptions.push(v) : walk(v));
        };
        walk(i.tools.find((t) => t.name === 'answer')?.parameters);
        return descriptions;
      },
    },
  ],
  runStats: ROTATION_RUN_STATS,
  suites: {
    rotation: {
      description: `object-rotation questions at L1 (the seed's nine reference angles): ${SUITE_PER_TYPE} of each of the 8 types, balanced classes and answer positions`,
      instances: () => suiteIds('L1'),
    },
    'rotation-fine': {
      description: `object-rotation questions at L5 (5° grid): ${SUITE_PER_TYPE} of each of the 8 types`,
      instances: () => suiteIds('L5'),
    },
  },
};
