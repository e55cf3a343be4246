import { toolCallProblems } from '../tasks/instance-schema.ts';
import type { Rng } from '../core/rng.ts';
import type { JsonSchema, ToolCall, ToolSpec } from '../tasks/types.ts';

/** Range used for a number with no bound on one side or both. */
const OPEN_SPAN = 2;
/** Longest array drawn when the schema sets no maximum. */
const OPEN_ITEMS = 3;
/** Widest integer range enumerated exhaustively. */
const ENUM_INT_SPAN = 16;

type S = JsonSchema & {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, S>;
  required?: string[];
  items?: S;
  prefixItems?: S[];
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  oneOf?: S[];
  anyOf?: S[];
  minLength?: number;
};

function typeOf(s: S): string | undefined {
  if (Array.isArray(s.type)) return s.type[0];
  if (s.type) return s.type;
  if (s.properties) return 'object';
  if (s.items || s.prefixItems) return 'array';
  return undefined;
}

/** The closed interval a number may take, with exclusive bounds nudged inwards. */
function numberRange(s: S, integer: boolean): [number, number] {
  const step = integer ? 1 : 1e-9;
  let lo = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + step : undefined);
  let hi = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - step : undefined);
  if (lo === undefined && hi === undefined) [lo, hi] = [-OPEN_SPAN / 2, OPEN_SPAN / 2];
  else if (lo === undefined) lo = hi! - OPEN_SPAN;
  else if (hi === undefined) hi = lo + OPEN_SPAN;
  if (integer) [lo, hi] = [Math.ceil(lo!), Math.floor(hi!)];
  return [lo!, Math.max(lo!, hi!)];
}

/**
 * Draws one value that satisfies a JSON Schema, uniformly where the schema allows a choice:
 * enums and consts, numbers within minimum/maximum (rounded to `multipleOf`), integers,
 * booleans, objects (required fields always, optional ones with probability ½, no extra
 * fields), arrays within minItems/maxItems, and one branch of `oneOf`/`anyOf`. Strings without
 * an enum get a short placeholder. Unbounded numbers are drawn from a span of 2 around 0 (or
 * next to the one bound given).
 */
export function sampleSchema(schema: JsonSchema, rng: Rng): unknown {
  const s = schema as S;
  if (s.const !== undefined) return structuredClone(s.const);
  if (Array.isArray(s.enum)) return structuredClone(rng.pick(s.enum));
  const branches = s.oneOf ?? s.anyOf;
  if (branches?.length) return sampleSchema(rng.pick(branches), rng);
  switch (typeOf(s)) {
    case 'boolean':
      return rng.next() < 0.5;
    case 'integer': {
      const [lo, hi] = numberRange(s, true);
      const m = s.multipleOf && Number.isInteger(s.multipleOf) ? s.multipleOf : 1;
      const k = rng.int(Math.ceil(lo / m), Math.floor(hi / m));
      return k * m;
    }
    case 'number': {
      const [lo, hi] = numberRange(s, false);
      if (s.multipleOf) {
        const m = s.multipleOf;
        const k = rng.int(Math.ceil(lo / m - 1e-9), Math.floor(hi / m + 1e-9));
        return Number((k * m).toPrecision(12));
      }
      return lo + rng.next() * (hi - lo);
    }
    case 'string':
      return 'x'.repeat(Math.max(1, s.minLength ?? 1));
    case 'array': {
      if (s.prefixItems) return s.prefixItems.map((p) => sampleSchema(p, rng));
      const min = s.minItems ?? 0;
      const max = s.maxItems ?? min + OPEN_ITEMS;
      const n = rng.int(min, Math.max(min, max));
      return Array.from({ length: n }, () => sampleSchema(s.items ?? {}, rng));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set(s.required ?? []);
      for (const [key, sub] of Object.entries(s.properties ?? {})) {
        if (required.has(key) || rng.next() < 0.5) out[key] = sampleSchema(sub, rng);
      }
      return out;
    }
    case 'null':
      return null;
    default:
      return {};
  }
}

/**
 * Every value a schema allows, when there are few enough of them (enums, consts, booleans,
 * small integer ranges, and objects built only of those, optional fields left out); null when
 * the choice is continuous or more than `limit` values.
 */
export function enumerateSchema(schema: JsonSchema, limit = 64): unknown[] | null {
  const s = schema as S;
  if (s.const !== undefined) return [structuredClone(s.const)];
  if (Array.isArray(s.enum)) return s.enum.length <= limit ? s.enum.map((v) => structuredClone(v)) : null;
  const branches = s.oneOf ?? s.anyOf;
  if (branches?.length) {
    const all: unknown[] = [];
    for (const b of branches) {
      const vals = enumerateSchema(b, limit);
      if (!vals) return null;
      all.push(...vals);
      if (all.length > limit) return null;
    }
    return all;
  }
  switch (typeOf(s)) {
    case 'boolean':
      return [false, true];
    case 'null':
      return [null];
    case 'integer': {
      const given = s.minimum !== undefined || s.exclusiveMinimum !== undefined;
      const givenHi = s.maximum !== undefined || s.exclusiveMaximum !== undefined;
      if (!given || !givenHi) return null;
      const [lo, hi] = numberRange(s, true);
      const m = s.multipleOf && Number.isInteger(s.multipleOf) ? s.multipleOf : 1;
      const vals: number[] = [];
      for (let k = Math.ceil(lo / m); k * m <= hi; k++) vals.push(k * m);
      return vals.length <= Math.min(limit, ENUM_INT_SPAN) ? vals : null;
    }
    case 'object': {
      let combos: Array<Record<string, unknown>> = [{}];
      for (const key of s.required ?? []) {
        const sub = s.properties?.[key];
        if (!sub) return null;
        const vals = enumerateSchema(sub, limit);
        if (!vals) return null;
        const next: Array<Record<string, unknown>> = [];
        for (const c of combos) for (const v of vals) next.push({ ...c, [key]: structuredClone(v) });
        if (next.length > limit) return null;
        combos = next;
      }
      return combos;
    }
    default:
      return null;
  }
}

/** Draws from the schema until the call is valid (schemas the sampler fully covers pass at once). */
const SAMPLE_TRIES = 8;

/** One schema-valid call of `tool`, or null when the sampler cannot satisfy its schema. */
export function sampleCall(tool: ToolSpec, rng: Rng, tools: ToolSpec[] = [tool]): ToolCall | null {
  for (let i = 0; i < SAMPLE_TRIES; i++) {
    const args = sampleSchema(tool.parameters, rng);
    const call: ToolCall = { tool: tool.name, args: args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {} };
    if (toolCallProblems(tools, call).length === 0) return call;
  }
  return null;
}
