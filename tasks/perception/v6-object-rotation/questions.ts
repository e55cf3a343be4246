import { SpaceActError } from '../../../core/errors.ts';
import { Rng } from '../../../core/rng.ts';
import type { LeverTable } from '../../levers.ts';
import type { Tier } from '../../types.ts';
import { FRAME_STEP_DEG, FRAMES } from './symmetry.ts';

/** The eight question types, in the seed benchmark's order. */
export const QUESTION_TYPES = [
  'detection',
  'coarse',
  'threshold',
  'exact_mcq',
  'exact_open',
  'view_matching',
  'comparison',
  'post_rotation',
] as const;
/** One of {@link QUESTION_TYPES}. */
export type QuestionType = (typeof QUESTION_TYPES)[number];

/** Names for reports. */
export const QUESTION_NAMES: Record<QuestionType, string> = {
  detection: 'Rotation detection',
  coarse: 'Coarse angle',
  threshold: '90° threshold',
  exact_mcq: 'Exact angle (choice)',
  exact_open: 'Exact angle (open)',
  view_matching: 'View matching',
  comparison: 'Rotation comparison',
  post_rotation: 'Post-rotation view',
};

/** The nine reference angles of the seed benchmark, degrees. */
export const REFERENCE_ANGLES = [0, 30, 45, 60, 90, 120, 135, 150, 180];

/** What a tier asks: the rotation angles used, how close candidates may be, the screen. */
export interface TierPlan {
  /** Unsigned rotation angles θ the questions use, degrees, ascending, 0 and 180 included. */
  angles: number[];
  /** Turns in one direction (0°–360°, exclusive) that post-rotation candidates are drawn from. */
  fullTurn: number[];
  /** Smallest angle between any two post-rotation candidates (and the reference), degrees. */
  candidateSpacing: number;
  /** Offsets (degrees) a view-matching candidate may be off its named view. */
  viewJitter: number[];
  /** `+occ`: a screen in front of the turntable hides the lower part of the object. */
  occluder: boolean;
}

function multiples(step: number, hi: number, includeHi: boolean): number[] {
  const out: number[] = [];
  for (let a = 0; includeHi ? a <= hi : a < hi; a += step) out.push(a);
  return out;
}

/** Turns that are some angle of the grid, one way or the other, strictly between 0° and 360°. */
function fullTurnOf(angles: number[]): number[] {
  return [...new Set(angles.flatMap((a) => [a, 360 - a]))].filter((a) => a > 0 && a < 360).sort((x, y) => x - y);
}

/** Per tier: the angle grid (finer with each tier) and the lever. */
export const TIER_PLANS: Record<Tier, TierPlan> = {
  L1: { angles: REFERENCE_ANGLES, fullTurn: fullTurnOf(REFERENCE_ANGLES), candidateSpacing: 30, viewJitter: [0], occluder: false },
  L3: { angles: multiples(15, 180, true), fullTurn: fullTurnOf(multiples(15, 180, true)), candidateSpacing: 30, viewJitter: [0], occluder: false },
  L5: { angles: multiples(5, 180, true), fullTurn: fullTurnOf(multiples(5, 180, true)), candidateSpacing: 15, viewJitter: [-10, -5, 0, 5, 10], occluder: false },
  L7: { angles: multiples(5, 180, true), fullTurn: fullTurnOf(multiples(5, 180, true)), candidateSpacing: 15, viewJitter: [-10, -5, 0, 5, 10], occluder: true },
};

/**
 * The levers V6 supports as single-factor studies over L5 (`V6-L5+occ-s100`, tasks/levers.ts):
 * `+occ` is its L7's screen over the L5 question (the same question type, stops and angle; the
 * object is drawn again only where the L5 one fails the symmetry screen behind the screen).
 */
export const V6_LEVERS: LeverTable<TierPlan> = {
  '+occ': {
    description: 'L5 plus a screen in front of the turntable that never turns and hides the lower 30 % of the object at the axis; objects are re-screened for symmetry on what stays visible.',
    apply: (s) => ({ ...s, occluder: true }),
  },
};

const TIER_INDEX: Record<Tier, number> = { L1: 0, L3: 1, L5: 2, L7: 3 };

/**
 * Which question a seed asks, and its index among the questions of that type: seeds 8j … 8j+7
 * hold one question of every type, all with index j, so any run of whole eights of seeds is
 * balanced across types. The type order is shifted by 3 per tier so the release seed asks a
 * different type at each tier.
 */
export function questionSlot(seed: number, tier: Tier): { type: QuestionType; index: number } {
  return { type: QUESTION_TYPES[(seed + 3 * TIER_INDEX[tier]) % QUESTION_TYPES.length], index: Math.floor(seed / QUESTION_TYPES.length) };
}

/** The seed that asks question `index` of `type` at `tier` (inverse of {@link questionSlot}). */
export function seedOf(type: QuestionType, index: number, tier: Tier): number {
  const n = QUESTION_TYPES.length;
  const offset = (((QUESTION_TYPES.indexOf(type) - 3 * TIER_INDEX[tier]) % n) + n) % n;
  return n * index + offset;
}

/**
 * The balanced schedule of one attribute (a class, an answer position) over the questions of a
 * type: the questions are cut into cycles of `count`, and each cycle takes every value once in
 * a seeded order. So every value is used equally often in each cycle, any prefix is balanced to
 * within one, and different attributes (own seeds) are not tied to each other.
 */
export function scheduled(tier: Tier, type: string, attribute: string, index: number, count: number): number {
  const cycle = Math.floor(index / count);
  const order = new Rng(`V6/${tier}/${type}/${attribute}/${cycle}`).shuffle(Array.from({ length: count }, (_, i) => i));
  return order[index % count];
}

/**
 * The answer's position among `count` options for question `index` of its type: balanced like
 * {@link scheduled} (each cycle of `count` questions of one type at one tier uses every
 * position once, so the rotation suite is even), with one order shared by every type and tier
 * (per option count and cycle), read one place further on per tier and per seed within a block
 * of one question per type (`blockSlot`, the seed modulo the number of types) — so one seed's
 * questions at different tiers (a released set) land in different places, and so do the
 * consecutive seeds of one tier (which ask different types), not all on one letter.
 */
export function answerSlot(tier: Tier, index: number, count: number, blockSlot: number): number {
  const order = new Rng(`V6/answer-position/${count}/${Math.floor(index / count)}`).shuffle(Array.from({ length: count }, (_, i) => i));
  return order[(index + TIER_INDEX[tier] + blockSlot) % count];
}

/** The unsigned rotation between two turntable stops: θ = 5°·min(k, 72 − k), k = |i − j| mod 72. */
export function rotationBetween(i: number, j: number): number {
  const k = (((i - j) % FRAMES) + FRAMES) % FRAMES;
  return FRAME_STEP_DEG * Math.min(k, FRAMES - k);
}

/** A turntable stop, wrapped into 0…71. */
export function frameOf(f: number): number {
  return ((f % FRAMES) + FRAMES) % FRAMES;
}

/** One picture of a question: the object turned to `frame` (k·5° counter-clockwise from its front, seen from above). */
export interface QuestionView {
  /** Written in the picture's label bar. */
  label: string;
  frame: number;
}

/** A lettered option. */
export interface QuestionOption {
  letter: string;
  text: string;
}

/** Turntable stops in a quarter turn. */
export const FRAME_QUARTER = FRAMES / 4;

/** The cardinal views by name, as quarter turns counter-clockwise from the front. */
export const VIEW_NAMES = ['front', 'left', 'back', 'right'] as const;

/** One question, as plain data. */
export interface Question {
  type: QuestionType;
  /** Index among the questions of its type (what the balanced schedules run over). */
  index: number;
  views: QuestionView[];
  /** The question itself, in words. */
  prompt: string;
  /** Lettered options, or null for the open exact-angle question. */
  options: QuestionOption[] | null;
  /** The correct answer, in the shape of the `answer` tool's arguments. */
  answer: { choice: string } | { angle_deg: number };
  /** The class the schedules balance (e.g. `rotated`, `[60°, 120°]`, `B larger`), for reports. */
  answerClass: string;
  /** Why that answer is right, in words (the plan and the state text). */
  reason: string;
  /** What the question text states besides the pictures: named views, or a turn and its direction. */
  given: { referenceView?: number; targetView?: number; turnDeg?: number; direction?: 1 | -1 };
}

/** Option letters, in order (nine at most: the exact-angle choice). */
export const LETTERS = 'ABCDEFGHI';

/**
 * Options in their base order turned (cyclically) so that option `correct` lands at
 * `position`: the displayed order varies and the answer position follows the schedule.
 */
function placed(base: string[], correct: number, position: number): { options: QuestionOption[]; letter: string } {
  const n = base.length;
  const shift = (((correct - position) % n) + n) % n;
  const options = base.map((_, i) => ({ letter: LETTERS[i], text: base[(i + shift) % n] }));
  return { options, letter: LETTERS[position] };
}

/** What a question needs from its caller: a way to pick an object. */
export interface QuestionContext {
  tier: Tier;
  seed: number;
  plan: TierPlan;
  /** Draws a screened object id from a stream. */
  pickObject(rng: Rng): number;
}

/** What drawing a question returns: the question and the object it shows. */
export interface DrawnQuestion {
  question: Question;
  objectId: number;
}

/**
 * The image pair shared by the coarse and both exact-angle questions of the same index (as in
 * the seed benchmark, so the three granularities can be compared on the same pictures): its
 * own stream picks the object, the first stop and the direction; θ follows the balanced
 * schedule over the tier's angles.
 */
function sharedPair(ctx: QuestionContext, index: number): { objectId: number; frames: [number, number]; theta: number } {
  const rng = new Rng(`V6/${ctx.tier}/pair/${index}`);
  const objectId = ctx.pickObject(rng);
  const a = rng.int(0, FRAMES - 1);
  const sign = rng.pick([1, -1]);
  const theta = ctx.plan.angles[scheduled(ctx.tier, 'pair', 'angle', index, ctx.plan.angles.length)];
  return { objectId, frames: [a, frameOf(a + (sign * theta) / FRAME_STEP_DEG)], theta };
}

function twoViews(frames: [number, number]): QuestionView[] {
  return [
    { label: 'Image 1', frame: frames[0] },
    { label: 'Image 2', frame: frames[1] },
  ];
}

function coarseClass(theta: number): number {
  return theta < 60 ? 0 : theta <= 120 ? 1 : 2;
}

/** Option texts in their base order (the order options are turned from): coarse ranges. */
export const COARSE_TEXT = ['[0°, 60°): small', '[60°, 120°]: medium', '(120°, 180°]: large'];
/** Option texts in base order: against 90°. */
export const THRESHOLD_TEXT = ['less than 90°', 'exactly 90°', 'more than 90°'];
/** Option texts in base order: rotated or not. */
export const DETECTION_TEXT = ['rotated: the object has turned', 'same orientation: it has not turned'];
/** Option texts in base order: which pair turned further. */
export const COMPARISON_TEXT = ['the two pairs show the same rotation', 'Pair A shows the larger rotation', 'Pair B shows the larger rotation'];

function circularGap(a: number, b: number): number {
  const d = (((a - b) % 360) + 360) % 360;
  return Math.min(d, 360 - d);
}

/**
 * Draws question `index` of its type for `ctx.seed`. Classes and answer positions follow the
 * balanced schedules; everything else (object, first stop, direction, distractors) comes from
 * the instance's stream `rng`.
 */
export function drawQuestion(ctx: QuestionContext, rng: Rng): DrawnQuestion {
  const { type, index } = questionSlot(ctx.seed, ctx.tier);
  const { tier, plan } = ctx;
  const pos = (count: number): number => answerSlot(tier, index, count, ctx.seed % QUESTION_TYPES.length);
  const cls = (count: number, attribute = 'class'): number => scheduled(tier, type, attribute, index, count);
  const nonZero = plan.angles.filter((a) => a > 0);
  switch (type) {
    case 'detection': {
      const objectId = ctx.pickObject(rng);
      const rotated = cls(2) === 1;
      const a = rng.int(0, FRAMES - 1);
      const theta = rotated ? rng.pick(nonZero) : 0;
      const b = frameOf(a + (rng.pick([1, -1]) * theta) / FRAME_STEP_DEG);
      const { options, letter } = placed(DETECTION_TEXT, rotated ? 0 : 1, pos(2));
      return {
        objectId,
        question: {
          type,
          index,
          views: twoViews([a, b]),
          prompt: 'Compared with Image 1, is the object in Image 2 in the same orientation, or has it been rotated?',
          options,
          answer: { choice: letter },
          answerClass: rotated ? 'rotated' : 'same',
          reason: rotated ? `Image 2 is the object turned ${theta}° from Image 1, so it has rotated` : 'Image 2 is the very same turntable stop as Image 1, so the orientation is the same',
          given: {},
        },
      };
    }
    case 'coarse':
    case 'exact_mcq':
    case 'exact_open': {
      const pair = sharedPair(ctx, index);
      const base = {
        type,
        index,
        views: twoViews(pair.frames),
        prompt: 'By how many degrees did the object turn from Image 1 to Image 2?',
        given: {},
      };
      const why = `Image 2 is the object turned ${pair.theta}° from Image 1`;
      if (type === 'coarse') {
        const c = coarseClass(pair.theta);
        const { options, letter } = placed(COARSE_TEXT, c, pos(3));
        return {
          objectId: pair.objectId,
          question: {
            ...base,
            prompt: 'Which range holds the rotation of the object from Image 1 to Image 2?',
            options,
            answer: { choice: letter },
            answerClass: COARSE_TEXT[c].split(':')[0],
            reason: `${why}, which lies in ${COARSE_TEXT[c].split(':')[0]}`,
          },
        };
      }
      if (type === 'exact_open') {
        return { objectId: pair.objectId, question: { ...base, options: null, answer: { angle_deg: pair.theta }, answerClass: `${pair.theta}°`, reason: why } };
      }
      // Nine options: at L1 the nine reference angles; on finer grids the true angle and eight
      // others drawn evenly from the grid (so the set of options says nothing about which is right).
      const values =
        plan.angles.length === 9
          ? plan.angles.slice()
          : [pair.theta, ...rng.shuffle(plan.angles.filter((a) => a !== pair.theta)).slice(0, 8)].sort((x, y) => x - y);
      const { options, letter } = placed(
        values.map((v) => `${v}°`),
        values.indexOf(pair.theta),
        pos(9),
      );
      return { objectId: pair.objectId, question: { ...base, options, answer: { choice: letter }, answerClass: `${pair.theta}°`, reason: why } };
    }
    case 'threshold': {
      const objectId = ctx.pickObject(rng);
      const c = cls(3);
      const theta = c === 1 ? 90 : rng.pick(plan.angles.filter((a) => (c === 0 ? a < 90 : a > 90)));
      const a = rng.int(0, FRAMES - 1);
      const b = frameOf(a + (rng.pick([1, -1]) * theta) / FRAME_STEP_DEG);
      const { options, letter } = placed(THRESHOLD_TEXT, c, pos(3));
      return {
        objectId,
        question: {
          type,
          index,
          views: twoViews([a, b]),
          prompt: 'Is the rotation of the object from Image 1 to Image 2 less than 90°, exactly 90°, or more than 90°?',
          options,
          answer: { choice: letter },
          answerClass: THRESHOLD_TEXT[c],
          reason: `Image 2 is the object turned ${theta}° from Image 1, ${THRESHOLD_TEXT[c]}`,
          given: {},
        },
      };
    }
    case 'view_matching': {
      const objectId = ctx.pickObject(rng);
      const combo = cls(12, 'views');
      const ref = Math.floor(combo / 3);
      const target = (ref + 1 + (combo % 3)) % 4;
      const p = pos(3);
      const others = rng.shuffle([0, 1, 2, 3].filter((v) => v !== ref && v !== target));
      const order = [...others.slice(0, p), target, ...others.slice(p)];
      const views: QuestionView[] = [{ label: `Reference: ${VIEW_NAMES[ref]} view`, frame: ref * FRAME_QUARTER }];
      order.forEach((v, i) => views.push({ label: `Candidate ${LETTERS[i]}`, frame: frameOf(v * FRAME_QUARTER + rng.pick(plan.viewJitter) / FRAME_STEP_DEG) }));
      return {
        objectId,
        question: {
          type,
          index,
          views,
          prompt: `The reference picture is the object's ${VIEW_NAMES[ref]} view. Which candidate is its ${VIEW_NAMES[target]} view?`,
          options: order.map((_, i) => ({ letter: LETTERS[i], text: `Candidate ${LETTERS[i]}` })),
          answer: { choice: LETTERS[p] },
          answerClass: `${VIEW_NAMES[ref]}→${VIEW_NAMES[target]}`,
          reason: `the ${VIEW_NAMES[target]} view is the ${VIEW_NAMES[ref]} view turned ${90 * ((target - ref + 4) % 4)}° counter-clockwise (seen from above); Candidate ${LETTERS[p]} shows it`,
          given: { referenceView: ref, targetView: target },
        },
      };
    }
    case 'comparison': {
      const objectId = ctx.pickObject(rng);
      const outcome = cls(3, 'outcome');
      let thetaA: number;
      let thetaB: number;
      // Both pairs really turn (a pair at 0° would show one picture twice).
      if (outcome === 0) thetaA = thetaB = rng.pick(nonZero);
      else {
        const [lo, hi] = rng.shuffle(nonZero).slice(0, 2).sort((x, y) => x - y);
        [thetaA, thetaB] = outcome === 1 ? [hi, lo] : [lo, hi];
      }
      // Four different stops, so no picture is shown twice.
      let frames: number[] = [];
      for (let tries = 0; tries < 100; tries++) {
        const a = rng.int(0, FRAMES - 1);
        const b = rng.int(0, FRAMES - 1);
        frames = [a, frameOf(a + (rng.pick([1, -1]) * thetaA) / FRAME_STEP_DEG), b, frameOf(b + (rng.pick([1, -1]) * thetaB) / FRAME_STEP_DEG)];
        if (new Set(frames).size === 4) break;
      }
      const { options, letter } = placed(COMPARISON_TEXT, outcome, pos(3));
      return {
        objectId,
        question: {
          type,
          index,
          views: [
            { label: 'Pair A, image 1', frame: frames[0] },
            { label: 'Pair A, image 2', frame: frames[1] },
            { label: 'Pair B, image 1', frame: frames[2] },
            { label: 'Pair B, image 2', frame: frames[3] },
          ],
          prompt: 'Each pair shows the object before (image 1) and after (image 2) a turn. Which pair shows the larger rotation?',
          options,
          answer: { choice: letter },
          answerClass: ['equal', 'A larger', 'B larger'][outcome],
          reason: `Pair A turns ${thetaA}° and Pair B ${thetaB}°, so ${COMPARISON_TEXT[outcome]}`,
          given: {},
        },
      };
    }
    case 'post_rotation': {
      const objectId = ctx.pickObject(rng);
      const theta = nonZero[cls(nonZero.length, 'angle')];
      const sign = cls(2, 'direction') === 0 ? 1 : -1;
      const p = pos(4);
      const gap = plan.candidateSpacing;
      // Distractors are turns the same way, well apart from the answer, from each other, from
      // the reference itself and from the same turn the other way (360° − θ), which the seed
      // benchmark leaves out.
      let distractors: number[] | null = null;
      for (let tries = 0; tries < 50 && !distractors; tries++) {
        const taken = [0, theta, 360 - theta];
        const pickedHere: number[] = [];
        for (const phi of rng.shuffle(plan.fullTurn)) {
          if (pickedHere.length === 3) break;
          if ([...taken, ...pickedHere].every((t) => circularGap(phi, t) >= gap)) pickedHere.push(phi);
        }
        if (pickedHere.length === 3) distractors = pickedHere;
      }
      if (!distractors) throw new SpaceActError('invalid-state', `V6 ${tier} seed ${ctx.seed}: no distractor turns ${gap}° apart for θ = ${theta}°`);
      const turns = [...distractors.slice(0, p), theta, ...distractors.slice(p)];
      const a = rng.int(0, FRAMES - 1);
      const way = sign > 0 ? 'counter-clockwise' : 'clockwise';
      const views: QuestionView[] = [{ label: 'Reference', frame: a }];
      turns.forEach((phi, i) => views.push({ label: `Candidate ${LETTERS[i]}`, frame: frameOf(a + (sign * phi) / FRAME_STEP_DEG) }));
      return {
        objectId,
        question: {
          type,
          index,
          views,
          prompt: `Imagine the object in the reference picture turning ${theta}° ${way} (seen from above) while the camera stays where it is. Which candidate shows the object after that turn?`,
          options: turns.map((_, i) => ({ letter: LETTERS[i], text: `Candidate ${LETTERS[i]}` })),
          answer: { choice: LETTERS[p] },
          answerClass: `${theta}° ${way}`,
          reason: `Candidate ${LETTERS[p]} is the reference turned ${theta}° ${way}; the candidates are turned ${turns.map((t, i) => `${LETTERS[i]} ${t}°`).join(', ')} that way`,
          given: { turnDeg: theta, direction: sign as 1 | -1 },
        },
      };
    }
  }
}
