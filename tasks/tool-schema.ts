/**
 * The JSON-Schema subset tool arguments are written in, and the one reading of it that every
 * consumer shares: the null policy's default arguments, the random and greedy baselines'
 * sampling and enumeration, and the play page's forms. Arguments are still checked by ajv
 * against the full schema (`tasks/instance-schema.ts`); this reading only decides what to offer.
 *
 * The subset: `type` (a name, or a list of names where `"null"` beside another type makes the
 * value nullable), `const`, `enum`, `oneOf`/`anyOf` (a choice among branches), numbers with
 * `minimum`/`maximum`/`exclusiveMinimum`/`exclusiveMaximum`/`multipleOf`, strings with
 * `minLength`/`maxLength`/`pattern`, arrays with `items`/`prefixItems`/`minItems`/`maxItems`,
 * objects with `properties`/`required`/`additionalProperties`, and the annotations
 * `description`/`default`/`title`. A schema without `type` is an object when it has
 * `properties`, an array when it has `items` or `prefixItems`.
 */
import type { JsonSchema } from './types.ts';

/** Every keyword of the subset. */
export const SUPPORTED_KEYWORDS: ReadonlySet<string> = new Set([
  'type', 'const', 'enum', 'oneOf', 'anyOf',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
  'minLength', 'maxLength', 'pattern',
  'items', 'prefixItems', 'minItems', 'maxItems',
  'properties', 'required', 'additionalProperties',
  'description', 'default', 'title',
]);

/** Bounds of a number, as the schema gives them. */
export interface NumberBounds {
  min?: number;
  max?: number;
  exclusiveMin?: number;
  exclusiveMax?: number;
  multipleOf?: number;
}

/** What a schema node is, read one way for every consumer. */
export type SchemaShape =
  | { kind: 'const'; value: unknown }
  | { kind: 'enum'; values: unknown[] }
  /** `oneOf`/`anyOf`: one of the branches. */
  | { kind: 'choice'; branches: SchemaNode[] }
  | ({ kind: 'number'; integer: boolean } & NumberBounds)
  | { kind: 'boolean' }
  | { kind: 'string'; minLength?: number; maxLength?: number }
  | { kind: 'array'; items: SchemaNode; prefixItems?: SchemaNode[]; minItems?: number; maxItems?: number }
  | { kind: 'object'; properties: Record<string, SchemaNode>; required: string[] }
  | { kind: 'null' }
  /** No type the subset can read: any JSON value. */
  | { kind: 'any' };

/** A schema node: its shape, whether `null` is allowed beside it, and its annotations. */
export type SchemaNode = SchemaShape & {
  /** `type` lists `"null"` beside another type. */
  nullable: boolean;
  description?: string;
  /** The schema's `default`, when it gives one. */
  default?: unknown;
};

function finite(x: unknown): number | undefined {
  return typeof x === 'number' && Number.isFinite(x) ? x : undefined;
}

function count(x: unknown): number | undefined {
  return typeof x === 'number' && Number.isInteger(x) && x >= 0 ? x : undefined;
}

/**
 * The type a schema declares, and whether it is nullable. A list takes its first type other
 * than `"null"` (a list of `"null"` alone is the null type); no `type` is read from the
 * structure (`properties` → object, `items`/`prefixItems` → array).
 */
export function declaredType(schema: JsonSchema): { type: string | undefined; nullable: boolean } {
  const t = schema.type;
  if (Array.isArray(t)) {
    const names = t.filter((x): x is string => typeof x === 'string');
    const other = names.find((x) => x !== 'null');
    return { type: other ?? (names.includes('null') ? 'null' : undefined), nullable: other !== undefined && names.includes('null') };
  }
  if (typeof t === 'string') return { type: t, nullable: false };
  if (schema.properties && typeof schema.properties === 'object') return { type: 'object', nullable: false };
  if (schema.items !== undefined || Array.isArray(schema.prefixItems)) return { type: 'array', nullable: false };
  return { type: undefined, nullable: false };
}

function shapeOf(schema: JsonSchema): SchemaShape {
  if ('const' in schema) return { kind: 'const', value: schema.const };
  if (Array.isArray(schema.enum)) return { kind: 'enum', values: schema.enum };
  const branches = (Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : null) as JsonSchema[] | null;
  if (branches && branches.length > 0) return { kind: 'choice', branches: branches.map((b) => readSchema(b)) };
  switch (declaredType(schema).type) {
    case 'number':
    case 'integer': {
      const s: SchemaShape = { kind: 'number', integer: declaredType(schema).type === 'integer' };
      const bounds: Array<[keyof NumberBounds, unknown]> = [
        ['min', schema.minimum],
        ['max', schema.maximum],
        ['exclusiveMin', schema.exclusiveMinimum],
        ['exclusiveMax', schema.exclusiveMaximum],
        ['multipleOf', schema.multipleOf],
      ];
      for (const [key, v] of bounds) if (finite(v) !== undefined) s[key] = finite(v);
      return s;
    }
    case 'boolean':
      return { kind: 'boolean' };
    case 'string': {
      const s: SchemaShape = { kind: 'string' };
      if (count(schema.minLength) !== undefined) s.minLength = count(schema.minLength);
      if (count(schema.maxLength) !== undefined) s.maxLength = count(schema.maxLength);
      return s;
    }
    case 'array': {
      const s: SchemaShape = { kind: 'array', items: readSchema((schema.items ?? {}) as JsonSchema) };
      if (Array.isArray(schema.prefixItems)) s.prefixItems = (schema.prefixItems as JsonSchema[]).map((p) => readSchema(p));
      if (count(schema.minItems) !== undefined) s.minItems = count(schema.minItems);
      if (count(schema.maxItems) !== undefined) s.maxItems = count(schema.maxItems);
      return s;
    }
    case 'object': {
      const props = (schema.properties && typeof schema.properties === 'object' ? schema.properties : {}) as Record<string, JsonSchema>;
      const required = Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === 'string') : [];
      return { kind: 'object', properties: Object.fromEntries(Object.entries(props).map(([k, v]) => [k, readSchema(v)])), required };
    }
    case 'null':
      return { kind: 'null' };
    default:
      return { kind: 'any' };
  }
}

/** Reads a schema of the subset into the node every consumer works from. */
export function readSchema(schema: JsonSchema | undefined): SchemaNode {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return { kind: 'any', nullable: false };
  const node: SchemaNode = { ...shapeOf(schema), nullable: declaredType(schema).nullable };
  if (typeof schema.description === 'string') node.description = schema.description;
  if ('default' in schema) node.default = schema.default;
  return node;
}

/** Keywords of a schema (at any depth) outside the subset, as `path: keyword`. */
export function unsupportedKeywords(schema: unknown, path = '(root)'): string[] {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return [];
  const out: string[] = [];
  const s = schema as Record<string, unknown>;
  for (const [k, v] of Object.entries(s)) {
    if (!SUPPORTED_KEYWORDS.has(k)) out.push(`${path}: ${k}`);
    if (k === 'properties' && v && typeof v === 'object') for (const [p, sub] of Object.entries(v)) out.push(...unsupportedKeywords(sub, `${path}.${p}`));
    if (k === 'items') out.push(...unsupportedKeywords(v, `${path}[]`));
    if ((k === 'prefixItems' || k === 'oneOf' || k === 'anyOf') && Array.isArray(v)) v.forEach((sub, i) => out.push(...unsupportedKeywords(sub, `${path}.${k}[${i}]`)));
  }
  return out;
}
