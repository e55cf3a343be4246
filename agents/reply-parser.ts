import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import { formatSchemaErrors, toolCallProblems } from '../tasks/instance-schema.ts';
import type { ToolCall, ToolSpec } from '../tasks/types.ts';

/** A reply that passed every check. */
export interface ParsedReply {
  rationale: string;
  note: string;
  actions: ToolCall[];
}

/** The outcome of checking a reply: the reply, or every problem found. */
export type ReplyCheck = { ok: true; reply: ParsedReply } | { ok: false; problems: string[] };

/** What a reply is checked against. */
export interface ReplyContext {
  tools: ToolSpec[];
  /** Most calls allowed this turn (5, or 1 under `cap1`). */
  actionCap: number;
  /** False under `nonote`, where the note field may be left out. */
  noteRequired: boolean;
}

/** Longest reply text looked at, characters; anything longer is refused unread. */
export const MAX_REPLY_CHARS = 400_000;
/** Longest note kept, characters: it is repeated in every later prompt. */
export const MAX_NOTE_CHARS = 4000;
/** Longest rationale accepted, characters. */
export const MAX_RATIONALE_CHARS = 40_000;
/** Deepest nesting of arrays and objects accepted (checked before any recursive validation). */
const MAX_DEPTH = 24;
/** JSON candidates tried in one reply before giving up. */
const MAX_CANDIDATES = 16;

const ajv = new Ajv2020({ allErrors: true, strict: false });
const replyValidators = new Map<string, ValidateFunction>();

/** The reply schema for a given cap (1..cap calls) and note rule. */
export function replySchema(actionCap: number, noteRequired: boolean): Record<string, unknown> {
  return {
    type: 'object',
    required: noteRequired ? ['rationale', 'note', 'actions'] : ['rationale', 'actions'],
    additionalProperties: false,
    properties: {
      rationale: { type: 'string', maxLength: MAX_RATIONALE_CHARS },
      note: { type: 'string', maxLength: MAX_NOTE_CHARS },
      actions: {
        type: 'array',
        minItems: 1,
        maxItems: actionCap,
        items: {
          type: 'object',
          required: ['tool', 'args'],
          additionalProperties: false,
          properties: { tool: { type: 'string' }, args: { type: 'object' } },
        },
      },
    },
  };
}

function replyValidator(actionCap: number, noteRequired: boolean): ValidateFunction {
  const key = `${actionCap}/${noteRequired}`;
  let v = replyValidators.get(key);
  if (!v) {
    v = ajv.compile(replySchema(actionCap, noteRequired));
    replyValidators.set(key, v);
  }
  return v;
}

/** The problem of a reply longer than {@link MAX_REPLY_CHARS} (refused unread). */
export function tooLongProblem(chars: number): string {
  return `the reply is ${chars} characters long; at most ${MAX_REPLY_CHARS} are read`;
}

/** Characters handed to `JSON.parse` while looking for objects in one reply, at most. */
const PARSE_BUDGET = 4 * MAX_REPLY_CHARS;
/** Longest quoted name echoed back in a problem, characters. */
export const MAX_ECHOED_NAME_CHARS = 60;
/** Longest problem text, characters (after names are clipped). */
export const MAX_PROBLEM_CHARS = 400;

/**
 * Removes the model's thinking: `<think>`, `<thinking>` and `<reasoning>` blocks (an unclosed
 * one runs to the end), and everything before a lone closing tag (templates that open the
 * block in the prompt). A move discussed while thinking is never an answer.
 */
export function withoutThinking(text: string): string {
  const tags = 'think|thinking|reasoning';
  let out = text;
  const lone = new RegExp(`^(?:(?!<(?:${tags})>)[\\s\\S])*?</(?:${tags})>`, 'i');
  if (lone.test(out)) out = out.replace(lone, ' ');
  out = out.replace(new RegExp(`<(${tags})>[\\s\\S]*?(?:</\\1>|$)`, 'gi'), ' ');
  return out;
}

/**
 * Every brace pair of the text, `[open, close]`, in order of the opening brace. Quotes are
 * tracked only inside braces (a quote in prose opens nothing), so braces inside JSON strings
 * do not count. One pass, a stack: linear in the text.
 */
function bracePairs(text: string): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  const stack: number[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '{') stack.push(i);
    else if (c === '}') {
      const open = stack.pop();
      if (open !== undefined) pairs.push([open, i]);
    } else if (c === '"' && stack.length) inString = true;
  }
  return pairs.sort((a, b) => a[0] - b[0]);
}

/**
 * The well-formed top-level JSON objects of a reply, in order: each brace span that parses as
 * a JSON object and is not inside another one that does (prose, code fences and thinking
 * around them are ignored; nothing inside them is changed). At most `MAX_CANDIDATES`, the
 * last ones kept. Also returns the first parse error met, for the message when none is found.
 */
export function topLevelObjects(text: string): { objects: Array<{ value: Record<string, unknown>; text: string }>; firstError: string | null } {
  const objects: Array<{ value: Record<string, unknown>; text: string }> = [];
  let firstError: string | null = null;
  let coveredUntil = -1;
  let budget = PARSE_BUDGET;
  for (const [open, close] of bracePairs(text)) {
    if (open <= coveredUntil) continue;
    const span = text.slice(open, close + 1);
    if (span.length > budget) break;
    budget -= span.length;
    let value: unknown;
    try {
      value = JSON.parse(span);
    } catch (err) {
      firstError ??= (err as Error).message;
      continue;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    objects.push({ value: value as Record<string, unknown>, text: span });
    if (objects.length > MAX_CANDIDATES) objects.shift();
    coveredUntil = close;
  }
  return { objects, firstError };
}

/** The JSON texts a reply offers, in order (see {@link topLevelObjects}). */
export function jsonCandidates(text: string): string[] {
  return topLevelObjects(withoutThinking(text)).objects.map((o) => o.text);
}

/** Nesting depth of a parsed JSON value passes `limit` (checked without recursion). */
export function nestingExceeds(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d >= limit) return true;
    for (const x of Object.values(v as object)) stack.push([x, d + 1]);
  }
  return false;
}

/**
 * A problem as shown to the model and stored in logs: any quoted name longer than
 * {@link MAX_ECHOED_NAME_CHARS} is cut with its length stated, and the whole text is at most
 * {@link MAX_PROBLEM_CHARS}. (A refusal that echoed a 300,000-character field name would
 * otherwise be repeated in every later prompt.)
 */
export function clipProblem(problem: string): string {
  // Quoted strings are matched in order, so a closing quote never opens the next match.
  const named = problem.replace(/(["'])((?:(?!\1)[^\\]|\\.)*)\1/g, (m, q: string, name: string) => {
    if (name.length <= MAX_ECHOED_NAME_CHARS) return m;
    return `${q}${name.slice(0, MAX_ECHOED_NAME_CHARS)}…${q} (${name.length} characters)`;
  });
  return named.length <= MAX_PROBLEM_CHARS ? named : `${named.slice(0, MAX_PROBLEM_CHARS)}… [${named.length} characters in all]`;
}

/**
 * Checks a model's reply text. The reply object is the last well-formed top-level JSON object
 * that is a valid reply (or, when none is, the last one is the one whose problems are
 * reported); objects inside thinking blocks are not candidates. Tolerates prose or a code
 * fence around the object, but never guesses: values are not coerced, unknown fields are not
 * dropped, and every problem is listed so the model can fix them all at once. Never throws.
 */
export function checkReply(text: unknown, ctx: ReplyContext): ReplyCheck {
  try {
    const r = checkReplyUnsafe(text, ctx);
    return r.ok ? r : { ok: false, problems: dedupe(r.problems.map(clipProblem)) };
  } catch (err) {
    // Defensive: a reply must never crash a run, whatever it contains.
    return { ok: false, problems: [`the reply could not be checked (${err instanceof Error ? err.name : 'error'}); send a plain, small JSON object`] };
  }
}

function checkReplyUnsafe(text: unknown, ctx: ReplyContext): ReplyCheck {
  if (typeof text !== 'string' || text.trim() === '') return { ok: false, problems: ['the reply was empty; send the JSON object'] };
  if (text.length > MAX_REPLY_CHARS) return { ok: false, problems: [tooLongProblem(text.length)] };
  const answer = withoutThinking(text);
  const { objects, firstError: spanError } = topLevelObjects(answer);
  if (objects.length === 0) {
    let firstError = spanError;
    const brace = answer.indexOf('{');
    if (firstError === null && brace >= 0) {
      // An object never closed (cut off, or a brace missing): say where JSON.parse gives up.
      try {
        JSON.parse(answer.slice(brace));
      } catch (err) {
        firstError = (err as Error).message;
      }
    }
    const hint = /\b(NaN|Infinity)\b/.test(answer) ? ' NaN and Infinity are not JSON: use finite numbers.' : '';
    const where = answer.trim() === '' && text.trim() !== '' ? ' outside the thinking block' : '';
    if (firstError && answer.includes('{')) return { ok: false, problems: [`no valid JSON object found${where}: ${firstError.slice(0, 200)}.${hint}`] };
    return { ok: false, problems: [`no JSON object found in the reply${where}.${hint}`] };
  }
  let last: ReplyCheck | null = null;
  for (let i = objects.length - 1; i >= 0; i--) {
    const r = checkObject(objects[i].value, ctx);
    if (r.ok) return r;
    last ??= r;
  }
  if (objects.length > 1 && !last!.ok) {
    return { ok: false, problems: [...last!.problems, `(${objects.length} JSON objects were found and none is a valid reply; these are the problems of the last one)`] };
  }
  return last!;
}

/** Checks one parsed object against the reply schema and every call against its tool. */
function checkObject(parsed: Record<string, unknown>, ctx: ReplyContext): ReplyCheck {
  if (nestingExceeds(parsed, MAX_DEPTH)) return { ok: false, problems: [`the reply is nested deeper than ${MAX_DEPTH} levels`] };
  const validate = replyValidator(ctx.actionCap, ctx.noteRequired);
  const problems: string[] = [];
  if (!validate(parsed)) {
    for (const p of formatSchemaErrors(validate.errors)) {
      problems.push(/actions: must NOT have more than/.test(p) ? `/actions: at most ${ctx.actionCap} call${ctx.actionCap === 1 ? '' : 's'} per turn` : p);
    }
  }
  const obj = parsed as { rationale?: unknown; note?: unknown; actions?: unknown };
  if (Array.isArray(obj.actions)) {
    obj.actions.forEach((call, i) => {
      if (call && typeof call === 'object' && !Array.isArray(call) && (call as ToolCall).args === undefined) return; // reported by the schema
      for (const p of toolCallProblems(ctx.tools, call)) problems.push(`/actions/${i}: ${p}`);
    });
  }
  if (problems.length) return { ok: false, problems: dedupe(problems) };
  return {
    ok: true,
    reply: {
      rationale: obj.rationale as string,
      note: typeof obj.note === 'string' ? obj.note : '',
      actions: (obj.actions as ToolCall[]).map((c) => ({ tool: c.tool, args: c.args })),
    },
  };
}

function dedupe(items: string[]): string[] {
  return [...new Set(items)].slice(0, 40);
}
