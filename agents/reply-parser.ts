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

/**
 * Where JSON objects may sit in a reply, in the order they are tried: the whole text, then
 * each fenced code block, then each balanced `{...}` span found by a string-aware scan
 * (prose before or after the object is tolerated; nothing inside it is changed).
 */
export function jsonCandidates(text: string): string[] {
  const out: string[] = [];
  const add = (s: string): void => {
    const t = s.trim();
    if (t && !out.includes(t) && out.length < MAX_CANDIDATES) out.push(t);
  };
  add(text);
  for (const m of text.matchAll(/```[A-Za-z]*[ \t]*\r?\n?([\s\S]*?)```/g)) add(m[1]);
  let from = 0;
  while (out.length < MAX_CANDIDATES) {
    const start = text.indexOf('{', from);
    if (start < 0) break;
    const end = balancedEnd(text, start);
    if (end < 0) break;
    add(text.slice(start, end + 1));
    from = end + 1;
  }
  return out;
}

/** Index of the brace closing the object opened at `start`, or -1. */
function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** Nesting depth of a parsed JSON value, stopping as soon as it passes `limit`. */
function depthExceeds(value: unknown, limit: number): boolean {
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
 * Checks a model's reply text. Tolerates prose or a code fence around the JSON object, but
 * never guesses: values are not coerced, unknown fields are not dropped, and every problem
 * is listed so the model can fix them all at once. Never throws.
 */
export function checkReply(text: unknown, ctx: ReplyContext): ReplyCheck {
  try {
    return checkReplyUnsafe(text, ctx);
  } catch (err) {
    // Defensive: a reply must never crash a run, whatever it contains.
    return { ok: false, problems: [`the reply could not be checked (${err instanceof Error ? err.name : 'error'}); send a plain, small JSON object`] };
  }
}

function checkReplyUnsafe(text: unknown, ctx: ReplyContext): ReplyCheck {
  if (typeof text !== 'string' || text.trim() === '') return { ok: false, problems: ['the reply was empty; send the JSON object'] };
  if (text.length > MAX_REPLY_CHARS) {
    return { ok: false, problems: [`the reply is ${text.length} characters long; at most ${MAX_REPLY_CHARS} are read`] };
  }
  let parsed: unknown;
  let firstError: string | null = null;
  let found = false;
  for (const c of jsonCandidates(text)) {
    try {
      parsed = JSON.parse(c);
    } catch (err) {
      firstError ??= (err as Error).message;
      continue;
    }
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      found = true;
      break;
    }
  }
  if (!found) {
    const hint = /\b(NaN|Infinity)\b/.test(text) ? ' NaN and Infinity are not JSON: use finite numbers.' : '';
    if (firstError && text.includes('{')) return { ok: false, problems: [`no valid JSON object found: ${firstError.slice(0, 200)}.${hint}`] };
    return { ok: false, problems: [`no JSON object found in the reply.${hint}`] };
  }
  if (depthExceeds(parsed, MAX_DEPTH)) return { ok: false, problems: [`the reply is nested deeper than ${MAX_DEPTH} levels`] };

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
