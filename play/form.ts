import type { JsonSchema, ToolKind, ToolSpec } from '../tasks/types.ts';

/** Enums with at most this many values become a row of buttons; longer ones a drop-down. */
const MAX_BUTTONS = 8;
/** Fixed-length number lists up to this long become that many number inputs. */
const MAX_VECTOR = 6;

/** How one argument is entered on the play page. */
export type FieldControl =
  /** One of fixed values (an `enum` or `const`): buttons or a drop-down. */
  | { control: 'choice'; style: 'buttons' | 'select'; options: Array<{ label: string; value: unknown }> }
  /** A number input, with the schema's bounds. */
  | { control: 'number'; integer: boolean; min?: number; max?: number; exclusiveMin?: number; exclusiveMax?: number }
  | { control: 'checkbox' }
  | { control: 'text'; maxLength?: number }
  /** A fixed-length list of numbers (e.g. a vector): one number input each. */
  | { control: 'vector'; length: number; integer: boolean; min?: number; max?: number }
  /** Anything else: typed as JSON. */
  | { control: 'json' };

/** One argument field of a tool's form. */
export type FormField = FieldControl & {
  name: string;
  required: boolean;
  description?: string;
};

/** A tool as the play page offers it. */
export interface ToolForm {
  name: string;
  description: string;
  kind: ToolKind;
  fields: FormField[];
}

function typeOf(schema: JsonSchema): string | undefined {
  const t = schema.type;
  if (Array.isArray(t)) return t.find((x) => x !== 'null') as string | undefined;
  return typeof t === 'string' ? t : undefined;
}

function bound(x: unknown): number | undefined {
  return typeof x === 'number' && Number.isFinite(x) ? x : undefined;
}

function label(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** The control for one property schema. */
export function fieldControl(schema: JsonSchema): FieldControl {
  if (!schema || typeof schema !== 'object') return { control: 'json' };
  if ('const' in schema) return { control: 'choice', style: 'buttons', options: [{ label: label(schema.const), value: schema.const }] };
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const options = schema.enum.map((v) => ({ label: label(v), value: v as unknown }));
    const short = options.length <= MAX_BUTTONS && options.every((o) => o.label.length <= 24);
    return { control: 'choice', style: short ? 'buttons' : 'select', options };
  }
  const type = typeOf(schema);
  if (type === 'number' || type === 'integer') {
    const c: FieldControl = { control: 'number', integer: type === 'integer' };
    const min = bound(schema.minimum);
    const max = bound(schema.maximum);
    const xmin = bound(schema.exclusiveMinimum);
    const xmax = bound(schema.exclusiveMaximum);
    if (min !== undefined) c.min = min;
    if (max !== undefined) c.max = max;
    if (xmin !== undefined) c.exclusiveMin = xmin;
    if (xmax !== undefined) c.exclusiveMax = xmax;
    return c;
  }
  if (type === 'boolean') return { control: 'checkbox' };
  if (type === 'string') {
    const c: FieldControl = { control: 'text' };
    const n = bound(schema.maxLength);
    if (n !== undefined) c.maxLength = n;
    return c;
  }
  if (type === 'array') {
    const items = (schema.items ?? {}) as JsonSchema;
    const itemType = typeOf(items);
    const n = bound(schema.minItems);
    if ((itemType === 'number' || itemType === 'integer') && n !== undefined && n === bound(schema.maxItems) && n >= 1 && n <= MAX_VECTOR && !items.enum) {
      const c: FieldControl = { control: 'vector', length: n, integer: itemType === 'integer' };
      const min = bound(items.minimum);
      const max = bound(items.maximum);
      if (min !== undefined) c.min = min;
      if (max !== undefined) c.max = max;
      return c;
    }
  }
  return { control: 'json' };
}

/**
 * The form of a tool, built from its argument schema: enums become buttons (or a drop-down
 * when long), numbers number inputs with the schema's bounds, booleans checkboxes, short
 * fixed-length number lists one input per element, anything else a JSON field. The page
 * sends what the person entered; the server checks it exactly as it checks a model's reply.
 */
export function toolForm(tool: ToolSpec): ToolForm {
  const params = (tool.parameters ?? {}) as JsonSchema;
  const props = (params.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(params.required) ? (params.required as string[]) : []);
  const fields = Object.entries(props).map(([name, schema]): FormField => {
    const f: FormField = { name, required: required.has(name), ...fieldControl(schema) };
    if (schema && typeof schema.description === 'string') f.description = schema.description;
    return f;
  });
  return { name: tool.name, description: tool.description, kind: tool.kind, fields };
}
