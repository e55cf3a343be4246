import { toolCallProblems } from '../tasks/instance-schema.ts';
import type { Rng } from '../core/rng.ts';
import { readSchema, type NumberBounds, type SchemaNode } from '../tasks/tool-schema.ts';
import type { JsonSchema, ToolCall, ToolSpec } from '../tasks/types.ts';

/** Range used for a number with no bound on one side or both. */
const OPEN_SPAN = 2;
/** Longest array drawn when the schema sets no maximum. */
const OPEN_ITEMS = 3;
/** Widest integer range enumerated exhaustively. */
const ENUM_INT_SPAN = 16;

/** The closed interval a number may take, with exclusive bounds nudged inwards. */
function numberRange(n: NumberBounds, integer: boolean): [number, number] {
  const step = integer ? 1 : 1e-9;
  let lo = n.min ?? (n.exclusiveMin !== undefined ? n.exclusiveMin + step : undefined);
  let hi = n.max ?? (n.exclusiveMax !== undefined ? n.exclusiveMax - step : undefined);
  if (lo === undefined && hi === undefined) [lo, hi] = [-OPEN_SPAN / 2, OPEN_SPAN / 2];
  else if (lo === undefined) lo = hi! - OPEN_SPAN;
  else if (hi === undefined) hi = lo + OPEN_SPAN;
  if (integer) [lo, hi] = [Math.ceil(lo!), Math.floor(hi!)];
  return [lo!, Math.max(lo!, hi!)];
}

function sampleNode(n: SchemaNode, rng: Rng): unknown {
  switch (n.kind) {
    case 'const':
      return structuredClone(n.value);
    case 'enum':
      return structuredClone(rng.pick(n.values));
    case 'choice':
      return sampleNode(rng.pick(n.branches), rng);
    case 'boolean':
      return rng.next() < 0.5;
    case 'number': {
      const [lo, hi] = numberRange(n, n.integer);
      if (n.integer) {
        const m = n.multipleOf && Number.isInteger(n.multipleOf) ? n.multipleOf : 1;
        return rng.int(Math.ceil(lo / m), Math.floor(hi / m)) * m;
      }
      if (n.multipleOf) {
        const m = n.multipleOf;
        const k = rng.int(Math.ceil(lo / m - 1e-9), Math.floor(hi / m + 1e-9));
        return Number((k * m).toPrecision(12));
      }
      return lo + rng.next() * (hi - lo);
    }
    case 'string':
      return 'x'.repeat(Math.max(1, n.minLength ?? 1));
    case 'array': {
      if (n.prefixItems) return n.prefixItems.map((p) => sampleNode(p, rng));
      const min = n.minItems ?? 0;
      const max = n.maxItems ?? min + OPEN_ITEMS;
      const k = rng.int(min, Math.max(min, max));
      return Array.from({ length: k }, () => sampleNode(n.items, rng));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set(n.required);
      for (const [key, sub] of Object.entries(n.properties)) {
        if (required.has(key) || rng.next() < 0.5) out[key] = sampleNode(sub, rng);
      }
      return out;
    }
    case 'null':
      return null;
    case 'any':
      return {};
  }
}

/**
 * Draws one value that satisfies a JSON Schema of the tool subset (`tasks/tool-schema.ts`),
 * uniformly where the schema allows a choice: enums and consts, numbers within their bounds
 * (rounded to `multipleOf`), integers, booleans, objects (required fields always, optional ones
 * with probability ½, no extra fields), arrays within minItems/maxItems, and one branch of
 * `oneOf`/`anyOf`. Strings without an enum get a short placeholder. Unbounded numbers are drawn
 * from a span of 2 around 0 (or next to the one bound given).
 */
export function sampleSchema(schema: JsonSchema, rng: Rng): unknown {
  return sampleNode(readSchema(schema), rng);
}

function enumerateNode(n: SchemaNode, limit: number): unknown[] | null {
  switch (n.kind) {
    case 'const':
      return [structuredClone(n.value)];
    case 'enum':
      return n.values.length <= limit ? n.values.map((v) => structuredClone(v)) : null;
    case 'choice': {
      const all: unknown[] = [];
      for (const b of n.branches) {
        const vals = enumerateNode(b, limit);
        if (!vals) return null;
        all.push(...vals);
        if (all.length > limit) return null;
      }
      return all;
    }
    case 'boolean':
      return [false, true];
    case 'null':
      return [null];
    case 'number': {
      if (!n.integer) return null;
      const given = n.min !== undefined || n.exclusiveMin !== undefined;
      const givenHi = n.max !== undefined || n.exclusiveMax !== undefined;
      if (!given || !givenHi) return null;
      const [lo, hi] = numberRange(n, true);
      const m = n.multipleOf && Number.isInteger(n.multipleOf) ? n.multipleOf : 1;
      const vals: number[] = [];
      for (let k = Math.ceil(lo / m); k * m <= hi; k++) vals.push(k * m);
      return vals.length <= Math.min(limit, ENUM_INT_SPAN) ? vals : null;
    }
    case 'object': {
      let combos: Array<Record<string, unknown>> = [{}];
      for (const key of n.required) {
        const sub = n.properties[key];
        if (!sub) return null;
        const vals = enumerateNode(sub, limit);
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

/**
 * Every value a schema allows, when there are few enough of them (enums, consts, booleans,
 * small integer ranges, and objects built only of those, optional fields left out); null when
 * the choice is continuous or more than `limit` values.
 */
export function enumerateSchema(schema: JsonSchema, limit = 64): unknown[] | null {
  return enumerateNode(readSchema(schema), limit);
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
