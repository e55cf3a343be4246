import { readSchema, type SchemaNode } from '../tasks/tool-schema.ts';
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

function label(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function choice(values: unknown[]): FieldControl {
  const options = values.map((v) => ({ label: label(v), value: v }));
  const short = options.length <= MAX_BUTTONS && options.every((o) => o.label.length <= 24);
  return { control: 'choice', style: short ? 'buttons' : 'select', options };
}

/** The values a node lists outright (a const, an enum, or a choice among only those), or null. */
function listed(n: SchemaNode): unknown[] | null {
  if (n.kind === 'const') return [n.value];
  if (n.kind === 'enum') return n.values;
  if (n.kind === 'choice') {
    const all: unknown[] = [];
    for (const b of n.branches) {
      const vals = listed(b);
      if (!vals) return null;
      all.push(...vals);
    }
    return all;
  }
  return null;
}

function controlOf(n: SchemaNode): FieldControl {
  const values = listed(n);
  if (values && values.length > 0) return choice(values);
  switch (n.kind) {
    case 'choice':
      // A choice of one kind of value (e.g. one number range) is entered as that value.
      return n.branches.length === 1 ? controlOf(n.branches[0]) : { control: 'json' };
    case 'number': {
      const c: FieldControl = { control: 'number', integer: n.integer };
      if (n.min !== undefined) c.min = n.min;
      if (n.max !== undefined) c.max = n.max;
      if (n.exclusiveMin !== undefined) c.exclusiveMin = n.exclusiveMin;
      if (n.exclusiveMax !== undefined) c.exclusiveMax = n.exclusiveMax;
      return c;
    }
    case 'boolean':
      return { control: 'checkbox' };
    case 'string': {
      const c: FieldControl = { control: 'text' };
      if (n.maxLength !== undefined) c.maxLength = n.maxLength;
      return c;
    }
    case 'array': {
      const it = n.items;
      const len = n.minItems;
      if (!n.prefixItems && it.kind === 'number' && len !== undefined && len === n.maxItems && len >= 1 && len <= MAX_VECTOR) {
        const c: FieldControl = { control: 'vector', length: len, integer: it.integer };
        if (it.min !== undefined) c.min = it.min;
        if (it.max !== undefined) c.max = it.max;
        return c;
      }
      return { control: 'json' };
    }
    default:
      return { control: 'json' };
  }
}

/** The control for one property schema (read with the tool-schema subset, `tasks/tool-schema.ts`). */
export function fieldControl(schema: JsonSchema): FieldControl {
  return controlOf(readSchema(schema));
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
