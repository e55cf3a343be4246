/**
 * Sightless strategies a model that reads the rules and guesses could use on a one-answer task:
 * for a choice among lettered options (the first option, one letter always, the letter most
 * often right on other seeds, a letter the rules text singles out, a seeded random letter), and
 * for a number (the middle of the range the rules state, the value most often right on other
 * seeds, a round number, a number the rules mention). Families list the ones that apply in
 * their `sightless`; each strategy finds the answer tool and its field from the tool schemas, as
 * a model would.
 */
import type { SightlessContext, SightlessStrategy, SightlessView } from '../sightless.ts';
import { Rng } from '../../core/rng.ts';
import type { Instance, ReferenceSolution, ToolCall } from '../types.ts';

/** The answer tool of a view: its name, the argument it takes, and (for a choice) the option values. */
export interface AnswerField {
  tool: string;
  field: string;
  options: string[] | null;
}

/** Finds the `final` tool and its single argument; option values from an `enum` or `oneOf` of `const`s. */
export function answerField(view: Pick<SightlessView, 'tools'>): AnswerField | null {
  const tool = view.tools.find((t) => t.kind === 'final');
  if (!tool) return null;
  const props = (tool.parameters.properties ?? {}) as Record<string, Record<string, unknown>>;
  const [field, schema] = Object.entries(props)[0] ?? [];
  if (!field) return null;
  let options: string[] | null = null;
  if (Array.isArray(schema.enum)) options = schema.enum.map(String);
  else if (Array.isArray(schema.oneOf) && schema.oneOf.every((o) => o && typeof o === 'object' && 'const' in o)) options = (schema.oneOf as Array<{ const: unknown }>).map((o) => String(o.const));
  return { tool: tool.name, field, options };
}

/** One call of the answer tool with `value`, or null when the view has no answer tool. */
function answerCall(ctx: SightlessContext, value: (f: AnswerField) => string | number | null): ToolCall[] | null {
  if (ctx.turn > 1) return null;
  const f = answerField(ctx.view);
  if (!f) return null;
  const v = value(f);
  return v === null ? null : [{ tool: f.tool, args: { [f.field]: v } }];
}

/** The value a reference solution answers with, when it ends with an answer call. */
function answeredValue(reference: ReferenceSolution): unknown {
  const last = reference.calls[reference.calls.length - 1];
  if (!last) return undefined;
  return Object.values(last.args)[0];
}

/** Strategies for a lettered choice; `bound` is the largest success rate allowed (chance plus a margin). */
export function choiceGuesses(bound: number): SightlessStrategy[] {
  const first: SightlessStrategy = {
    name: 'first-option',
    description: 'Always answers the first option.',
    bound,
    next: (ctx) => answerCall(ctx, (f) => f.options?.[0] ?? null),
  };
  const last: SightlessStrategy = {
    name: 'last-option',
    description: 'Always answers the last option.',
    bound,
    next: (ctx) => answerCall(ctx, (f) => f.options?.[f.options.length - 1] ?? null),
  };
  const mode: SightlessStrategy<Map<string, number>> = {
    name: 'most-common-answer',
    description: 'Answers the option most often right on other seeds (the same number of options), ties to the first.',
    bound,
    fit(training: Array<{ instance: Instance; reference: ReferenceSolution }>) {
      const counts = new Map<string, number>();
      for (const t of training) {
        const f = answerField(t.instance);
        const v = answeredValue(t.reference);
        if (!f?.options || v === undefined) continue;
        const key = `${f.options.length}/${String(v)}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      return counts;
    },
    next: (ctx, fitted) =>
      answerCall(ctx, (f) => {
        if (!f.options) return null;
        let best = f.options[0];
        let bestCount = -1;
        for (const o of f.options) {
          const c = fitted?.get(`${f.options.length}/${o}`) ?? 0;
          if (c > bestCount) {
            best = o;
            bestCount = c;
          }
        }
        return best;
      }),
  };
  const textTell: SightlessStrategy = {
    name: 'text-tell',
    description: 'Answers the option letter the rules text names most often as a word on its own (ties to the first).',
    bound,
    next: (ctx) =>
      answerCall(ctx, (f) => {
        if (!f.options) return null;
        const text = `${ctx.view.title}\n${ctx.view.rules}`;
        let best = f.options[0];
        let bestCount = -1;
        for (const o of f.options) {
          const c = (text.match(new RegExp(`\\b${o.replace(/[^A-Za-z0-9]/g, '')}\\b`, 'g')) ?? []).length;
          if (c > bestCount) {
            best = o;
            bestCount = c;
          }
        }
        return best;
      }),
  };
  const random: SightlessStrategy = {
    name: 'random-option',
    description: 'Answers a uniformly random option (seeded).',
    bound,
    next: (ctx) => answerCall(ctx, (f) => (f.options ? new Rng(`sightless/random-option/${ctx.view.id}/${ctx.seed}`).pick(f.options) : null)),
  };
  return [first, last, mode, textTell, random];
}

/** The range "between X and Y cm" the rules state, if any. */
export function statedRange(rules: string): [number, number] | null {
  const m = /between ([0-9.]+) and ([0-9.]+) cm/.exec(rules);
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/** The tolerance "within X cm" the rules state, if any. */
export function statedTolerance(rules: string): number | null {
  const m = /within ([0-9.]+) cm/.exec(rules);
  return m ? Number(m[1]) : null;
}

/** Strategies for a number of centimetres; `bound` is the largest success rate allowed. */
export function numberGuesses(bound: number, roundStep: number): SightlessStrategy[] {
  // Where the rules state no range (issue 36: the generator's range is not the task's), the
  // range of the answers on other seeds stands in for it: the prior a sightless player learns.
  const trainedAnswers = (training: Array<{ reference: ReferenceSolution }>): number[] =>
    training.map((t) => Number(answeredValue(t.reference))).filter((v) => Number.isFinite(v));
  const rangeOf = (rules: string, fitted: number[] | undefined): [number, number] | null =>
    statedRange(rules) ?? (fitted?.length ? [Math.min(...fitted), Math.max(...fitted)] : null);
  const middle: SightlessStrategy<number[]> = {
    name: 'range-middle',
    description: 'Answers the middle of the range of sizes the rules state, or else of the answers on other seeds.',
    bound,
    fit: (training) => trainedAnswers(training),
    next: (ctx, fitted) =>
      answerCall(ctx, () => {
        const r = rangeOf(ctx.view.rules, fitted);
        return r ? Math.round(((r[0] + r[1]) / 2) * 10) / 10 : null;
      }),
  };
  const mode: SightlessStrategy<number[]> = {
    name: 'most-common-size',
    description: 'Answers the size that, within the stated tolerance, was right most often on other seeds.',
    bound,
    fit(training: Array<{ instance: Instance; reference: ReferenceSolution }>) {
      return training.map((t) => Number(answeredValue(t.reference))).filter((v) => Number.isFinite(v));
    },
    next: (ctx, fitted) =>
      answerCall(ctx, () => {
        const tol = statedTolerance(ctx.view.rules) ?? 0.5;
        const values = fitted ?? [];
        if (values.length === 0) return null;
        let best = values[0];
        let bestCount = -1;
        for (const v of values) {
          const c = values.filter((x) => Math.abs(x - v) <= tol).length;
          if (c > bestCount) {
            best = v;
            bestCount = c;
          }
        }
        return best;
      }),
  };
  const round: SightlessStrategy<number[]> = {
    name: 'round-number',
    description: `Answers a multiple of ${roundStep} cm inside the stated range, or else the range of the answers on other seeds (seeded).`,
    bound,
    fit: (training) => trainedAnswers(training),
    next: (ctx, fitted) =>
      answerCall(ctx, () => {
        const r = rangeOf(ctx.view.rules, fitted) ?? [0, 30];
        const choices: number[] = [];
        for (let v = Math.ceil(r[0] / roundStep) * roundStep; v <= r[1]; v += roundStep) choices.push(v);
        return choices.length ? new Rng(`sightless/round/${ctx.view.id}/${ctx.seed}`).pick(choices) : null;
      }),
  };
  const inText: SightlessStrategy = {
    name: 'number-in-text',
    description: 'Answers one of the numbers the rules text mentions (seeded).',
    bound,
    next: (ctx) =>
      answerCall(ctx, () => {
        const nums = [...ctx.view.rules.matchAll(/[0-9]+(?:\.[0-9]+)?/g)].map((m) => Number(m[0])).filter((n) => n > 0 && n <= 100);
        return nums.length ? new Rng(`sightless/in-text/${ctx.view.id}/${ctx.seed}`).pick(nums) : null;
      }),
  };
  return [middle, mode, round, inText];
}
