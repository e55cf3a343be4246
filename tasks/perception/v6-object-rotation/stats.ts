/**
 * V6's run statistics, the seed benchmark's figures: accuracy per question type, Macro-8 and
 * Micro-8, per tier ({@link rotationStats}), offered to `spaceact stats DIR` through the
 * family's `runStats` hook ({@link ROTATION_RUN_STATS}), which reads the committed answers from
 * the episodes the command hands over.
 */
import { parseInstanceId } from '../../../core/catalog.ts';
import { SpaceActError } from '../../../core/errors.ts';
import { wilson, type Interval } from '../../../core/statistics.ts';
import type { Table } from '../../../core/table.ts';
import type { Instance, RunEpisode, RunStatistics, Tier } from '../../types.ts';
import { QUESTION_NAMES, QUESTION_TYPES, questionSlot, TIER_PLANS, type QuestionType } from './questions.ts';
import type { V6Scene } from './scene.ts';

/** The canonical angles models collapse onto (the seed benchmark's finding), degrees. */
export const CANONICAL_ANGLES = [0, 90, 180];

/** Accuracy on one question type. */
export interface TypeStats {
  type: QuestionType;
  name: string;
  /** Questions of this type in the run. */
  n: number;
  correct: number;
  /** Questions with no valid answer committed (refused calls, no call, abandoned): counted wrong. */
  unanswered: number;
  /** correct / n, or null when n is 0. */
  accuracy: number | null;
  wilson95: Interval | null;
  /** Accuracy of a uniform guess: 1 / options, or 1 / the tier's angles for the open exact angle. */
  chance: number;
}

/** The figures of one tier. */
export interface TierStats {
  tier: Tier;
  types: TypeStats[];
  /** Unweighted mean of the per-type accuracies over the types present. */
  macro8: number | null;
  /** True when all eight types are present (Macro-8 proper). */
  complete: boolean;
  /** Accuracy over all questions of the tier. */
  micro8: number | null;
  micro8Wilson95: Interval | null;
  n: number;
  correct: number;
  /** Committed exact-angle answers (choice or open) and how many fell on 0°, 90° or 180°. */
  exactAnswers: number;
  onCanonical: number;
}

/** What the statistics are computed from: the run's V6 episodes and their committed answers. */
export interface RotationRun {
  episodes: Array<{ instance: string; solved: boolean; abandoned: boolean }>;
  /** The committed answer's angle in degrees, for exact-angle questions that have one (by instance id). */
  exactAngles?: Map<string, number>;
  /** Instances known to have committed no valid answer (their logs show no `answer` call that ran). */
  unanswered?: Set<string>;
}

/** Per-type accuracy, Macro-8 and Micro-8 of a run's V6 questions, per tier. */
export interface RotationStats {
  tiers: TierStats[];
  /** Episodes of other families in the run (ignored). */
  ignored: number;
}

function chanceOf(type: QuestionType, tier: Tier): number {
  switch (type) {
    case 'detection':
      return 1 / 2;
    case 'exact_mcq':
      return 1 / 9;
    case 'exact_open':
      return 1 / TIER_PLANS[tier].angles.length;
    case 'post_rotation':
      return 1 / 4;
    default:
      return 1 / 3;
  }
}

/**
 * The seed benchmark's figures for a run: per question type the accuracy (an unparsed or
 * missing answer is wrong), Macro-8 as the unweighted mean of the eight type accuracies and
 * Micro-8 as the accuracy over all questions, kept apart per tier. The type of each question
 * follows from its seed (see `questionSlot`).
 */
export function rotationStats(run: RotationRun): RotationStats {
  const byTier = new Map<Tier, Map<QuestionType, { n: number; correct: number; unanswered: number }>>();
  const exact = new Map<Tier, { answers: number; canonical: number }>();
  let ignored = 0;
  for (const e of run.episodes) {
    const id = parseInstanceId(e.instance);
    if (id.family !== 'V6') {
      ignored++;
      continue;
    }
    const { type } = questionSlot(id.seed, id.tier);
    let tier = byTier.get(id.tier);
    if (!tier) byTier.set(id.tier, (tier = new Map()));
    const t = tier.get(type) ?? { n: 0, correct: 0, unanswered: 0 };
    t.n++;
    if (e.solved && !e.abandoned) t.correct++;
    if (e.abandoned || run.unanswered?.has(e.instance)) t.unanswered++;
    tier.set(type, t);
    const angle = run.exactAngles?.get(e.instance);
    if ((type === 'exact_mcq' || type === 'exact_open') && angle !== undefined) {
      const x = exact.get(id.tier) ?? { answers: 0, canonical: 0 };
      x.answers++;
      if (CANONICAL_ANGLES.includes(angle)) x.canonical++;
      exact.set(id.tier, x);
    }
  }
  const tiers: TierStats[] = [...byTier.keys()]
    .sort()
    .map((tier) => {
      const counts = byTier.get(tier)!;
      const types = QUESTION_TYPES.map((type): TypeStats => {
        const c = counts.get(type) ?? { n: 0, correct: 0, unanswered: 0 };
        return {
          type,
          name: QUESTION_NAMES[type],
          ...c,
          accuracy: c.n ? c.correct / c.n : null,
          wilson95: wilson(c.correct, c.n),
          chance: chanceOf(type, tier),
        };
      });
      const present = types.filter((t) => t.accuracy !== null);
      const n = types.reduce((s, t) => s + t.n, 0);
      const correct = types.reduce((s, t) => s + t.correct, 0);
      const x = exact.get(tier) ?? { answers: 0, canonical: 0 };
      return {
        tier,
        types,
        macro8: present.length ? present.reduce((s, t) => s + t.accuracy!, 0) / present.length : null,
        complete: present.length === QUESTION_TYPES.length,
        micro8: n ? correct / n : null,
        micro8Wilson95: wilson(correct, n),
        n,
        correct,
        exactAnswers: x.answers,
        onCanonical: x.canonical,
      };
    });
  return { tiers, ignored };
}

function pct(x: number | null): string {
  return x === null ? '—' : `${(100 * x).toFixed(1)}%`;
}

function interval(i: Interval | null): string {
  return i ? `[${(100 * i.lo).toFixed(1)}, ${(100 * i.hi).toFixed(1)}]` : '';
}

/** The statistics as a table per tier. */
export function formatRotationStats(s: RotationStats, header = ''): string {
  const out: string[] = [];
  if (header) out.push(header);
  if (s.tiers.length === 0) out.push('No V6 (object rotation) questions in this run.');
  for (const t of s.tiers) {
    out.push('', `Tier ${t.tier}: ${t.n} question(s)`);
    out.push(`  ${'question type'.padEnd(22)} ${'n'.padStart(4)} ${'right'.padStart(6)} ${'no answer'.padStart(10)} ${'accuracy'.padStart(9)}  ${'95% CI'.padEnd(14)} ${'chance'.padStart(7)}`);
    for (const x of t.types) {
      out.push(
        `  ${x.name.padEnd(22)} ${String(x.n).padStart(4)} ${String(x.correct).padStart(6)} ${String(x.unanswered).padStart(10)} ${pct(x.accuracy).padStart(9)}  ${interval(x.wilson95).padEnd(14)} ${pct(x.chance).padStart(7)}`,
      );
    }
    const missing = t.types.filter((x) => x.n === 0).map((x) => x.name);
    out.push(
      `  ${'Macro-8'.padEnd(22)} ${pct(t.macro8).padStart(32)}  (mean of the ${t.complete ? 'eight' : `${8 - missing.length} present`} type accuracies${missing.length ? `; missing: ${missing.join(', ')}` : ''})`,
    );
    out.push(`  ${'Micro-8'.padEnd(22)} ${String(t.n).padStart(4)} ${String(t.correct).padStart(6)} ${''.padStart(10)} ${pct(t.micro8).padStart(9)}  ${interval(t.micro8Wilson95)}`);
    if (t.exactAnswers) {
      out.push(`  Exact-angle answers on 0°, 90° or 180°: ${t.onCanonical} of ${t.exactAnswers} (${pct(t.onCanonical / t.exactAnswers)})`);
    }
  }
  if (s.ignored) out.push('', `${s.ignored} episode(s) of other families ignored.`);
  return out.join('\n') + '\n';
}

/**
 * A run's V6 episodes as {@link rotationStats} reads them: right or wrong from the episode,
 * the committed answer (the `answer` call that ran) from its log where there is one, and the
 * question type and options from the regenerated instance, which must still ask the question
 * its seed names (else the run was made by another version of V6).
 */
export function rotationRunOf(episodes: ReadonlyArray<RunEpisode<V6Scene>>): RotationRun {
  const exactAngles = new Map<string, number>();
  const unanswered = new Set<string>();
  for (const e of episodes) {
    const instance: Instance<V6Scene> = e.instance;
    const id = parseInstanceId(instance.id);
    const q = instance.scene.question;
    if (q.type !== questionSlot(id.seed, id.tier).type) {
      throw new SpaceActError('invalid-state', `${instance.id} regenerates as a ${q.type} question, not the one its seed names: was the run made by another version of V6?`);
    }
    if (e.executed === null) continue;
    const args = e.executed.find((c) => c.tool === 'answer')?.args;
    if (!args) {
      unanswered.add(instance.id);
      continue;
    }
    if (q.type === 'exact_open' && typeof args.angle_deg === 'number') exactAngles.set(instance.id, args.angle_deg);
    if (q.type === 'exact_mcq') {
      const text = q.options?.find((o) => o.letter === args.choice)?.text;
      if (text) exactAngles.set(instance.id, Number.parseFloat(text));
    }
  }
  return { episodes: episodes.map((e) => ({ instance: e.instance.id, solved: e.solved, abandoned: e.abandoned })), exactAngles, unanswered };
}

/** V6's `runStats` hook: the object-rotation figures of a run's V6 episodes. */
export const ROTATION_RUN_STATS: RunStatistics<V6Scene, RotationStats> = {
  title: 'Object-rotation questions: accuracy per type, Macro-8 and Micro-8',
  compute: (episodes) => rotationStats(rotationRunOf(episodes)),
  format: (result) => formatRotationStats(result),
  tables: (result) => rotationTables(result),
};

/**
 * The figures as two tables: accuracy per tier and question type (with its Wilson 95 % ends and
 * the chance rate), and per tier Macro-8, Micro-8 and how many exact answers fell on 0°, 90° or
 * 180°. Rates are fractions, unrounded — the numbers `format` prints as percentages.
 */
export function rotationTables(result: RotationStats): Table[] {
  return [
    {
      name: 'v6-types',
      caption: 'V6 object rotation: accuracy per tier and question type',
      columns: ['tier', 'type', 'n', 'correct', 'unanswered', 'accuracy', 'wilson_lo', 'wilson_hi', 'chance'],
      rows: result.tiers.flatMap((t) => t.types.map((ty) => [t.tier, ty.name, ty.n, ty.correct, ty.unanswered, ty.accuracy, ty.wilson95?.lo ?? null, ty.wilson95?.hi ?? null, ty.chance])),
    },
    {
      name: 'v6-tiers',
      caption: 'V6 object rotation: Macro-8 and Micro-8 per tier',
      columns: ['tier', 'n', 'correct', 'macro8', 'all_eight_types', 'micro8', 'micro8_lo', 'micro8_hi', 'exact_answers', 'on_0_90_180'],
      rows: result.tiers.map((t) => [t.tier, t.n, t.correct, t.macro8, t.complete ? 'yes' : 'no', t.micro8, t.micro8Wilson95?.lo ?? null, t.micro8Wilson95?.hi ?? null, t.exactAnswers, t.onCanonical]),
    },
  ];
}
