import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { CATEGORIES, INSTANCE_ID_SCHEMA_PATTERN, TIERS } from '../core/catalog.ts';
import { SpaceActError } from '../core/errors.ts';
import type { Instance, ToolCall, ToolSpec } from './types.ts';

const vec3 = { type: 'array', items: { type: 'number' }, minItems: 3, maxItems: 3 };

/** JSON Schema of an {@link Instance} file. */
export const INSTANCE_SCHEMA = {
  $id: 'https://spaceact.dev/schema/instance.json',
  type: 'object',
  required: [
    'id', 'family', 'version', 'tier', 'seed', 'category', 'title', 'rules', 'tools', 'budgets',
    'camera', 'rulers', 'dynamic', 'scoring', 'scene', 'reveal', 'levers',
  ],
  additionalProperties: false,
  properties: {
    id: { type: 'string', pattern: INSTANCE_ID_SCHEMA_PATTERN },
    family: { type: 'string', pattern: '^[A-Z][0-9]+$' },
    version: { type: 'integer', minimum: 1 },
    tier: { enum: [...TIERS] },
    seed: { type: 'integer', minimum: 0 },
    category: { enum: [...CATEGORIES] },
    title: { type: 'string', minLength: 1 },
    rules: { type: 'string', minLength: 1 },
    tools: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['name', 'description', 'kind', 'parameters'],
        additionalProperties: false,
        properties: {
          name: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' },
          description: { type: 'string', minLength: 1 },
          kind: { enum: ['perception', 'physical', 'discrete', 'timed', 'final'] },
          parameters: { type: 'object' },
        },
      },
    },
    budgets: {
      type: 'object',
      required: ['turns', 'actionsPerTurn'],
      additionalProperties: false,
      properties: {
        turns: { type: 'integer', minimum: 1, maximum: 1000 },
        actionsPerTurn: { type: 'integer', minimum: 1, maximum: 5 },
        actions: { type: 'integer', minimum: 1, maximum: 100000 },
        refusals: { type: 'integer', minimum: 0, maximum: 100000 },
      },
    },
    camera: {
      type: 'object',
      required: ['initial'],
      additionalProperties: false,
      properties: {
        initial: {
          type: 'object',
          required: ['azimuth', 'elevation', 'distance', 'target'],
          properties: {
            azimuth: { type: 'number' },
            elevation: { type: 'number', minimum: -90, maximum: 90 },
            distance: { type: 'number', exclusiveMinimum: 0 },
            target: vec3,
            fov: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 180 },
            projection: { enum: ['perspective', 'orthographic'] },
            orthoHeight: { type: 'number', exclusiveMinimum: 0 },
          },
        },
        elevationRange: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 },
        distanceRange: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 },
        panRadius: { type: 'number', minimum: 0 },
        frameSize: { type: 'array', items: { type: 'integer', minimum: 64, maximum: 4096 }, minItems: 2, maxItems: 2 },
        strobeLayout: { enum: ['row', 'column'] },
      },
    },
    rulers: {
      type: 'array',
      items: {
        type: 'object',
        required: ['from', 'to'],
        properties: { from: vec3, to: vec3, tickDir: vec3, minor: { type: 'number' }, major: { type: 'number' } },
      },
    },
    ground: { type: 'object', required: ['y'], properties: { y: { type: 'number' } } },
    light: { type: 'object', required: ['azimuth', 'elevation'], properties: { azimuth: { type: 'number' }, elevation: { type: 'number' } } },
    dynamic: { type: 'boolean' },
    scoring: { enum: ['graded', 'passfail'] },
    scene: {},
    reveal: {
      type: 'object',
      required: ['plan'],
      properties: { plan: { type: 'string' } },
    },
    levers: { type: 'array', items: { type: 'string' } },
  },
} as const;

const ajv = new Ajv2020({ allErrors: true, strict: false });
const validateInstanceSchema = ajv.compile(INSTANCE_SCHEMA);
const toolValidators = new WeakMap<ToolSpec, ValidateFunction>();
/**
 * Validators by schema text: every instance carries its own tool objects, but a family's schemas
 * repeat across instances (an adaptive agent opens thousands of candidate worlds), and compiling
 * one costs milliseconds. Bounded: cleared when it grows past {@link SCHEMA_CACHE_SIZE}.
 */
const validatorsBySchema = new Map<string, ValidateFunction>();
const SCHEMA_CACHE_SIZE = 2000;

/** Formats ajv errors as short "path: problem" lines. */
export function formatSchemaErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const where = e.instancePath || '(root)';
    if (e.keyword === 'additionalProperties') {
      return `${where}: unexpected field "${String((e.params as { additionalProperty: string }).additionalProperty)}"`;
    }
    if (e.keyword === 'enum') {
      return `${where}: must be one of ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`;
    }
    return `${where}: ${e.message ?? e.keyword}`;
  });
}

/** Throws `invalid-instance` listing every problem when `x` is not a valid instance. */
export function assertInstance(x: unknown, source = 'instance'): asserts x is Instance {
  if (!validateInstanceSchema(x)) {
    const problems = formatSchemaErrors(validateInstanceSchema.errors);
    throw new SpaceActError('invalid-instance', `${source} is not a valid instance: ${problems.join('; ')}`, { problems });
  }
}

/** Lists every non-finite number inside a value, by path. */
function nonFinitePaths(v: unknown, path: string, out: string[]): void {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) out.push(`${path || '(root)'}: must be a finite number, got ${String(v)}`);
  } else if (Array.isArray(v)) {
    v.forEach((x, i) => nonFinitePaths(x, `${path}/${i}`, out));
  } else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) nonFinitePaths(x, `${path}/${k}`, out);
  }
}

/**
 * Checks one call against the instance's tool list and the tool's argument schema.
 * Returns the problems (empty when valid); never throws for bad calls.
 */
export function toolCallProblems(tools: ToolSpec[], call: unknown): string[] {
  if (!call || typeof call !== 'object' || Array.isArray(call)) return ['a tool call must be an object {tool, args}'];
  const c = call as Partial<ToolCall>;
  if (typeof c.tool !== 'string') return ['"tool" must be a string naming one of the tools'];
  const spec = tools.find((t) => t.name === c.tool);
  if (!spec) return [`unknown tool "${c.tool.slice(0, 60)}"; tools are: ${tools.map((t) => t.name).join(', ')}`];
  const args = c.args ?? {};
  if (typeof args !== 'object' || Array.isArray(args) || args === null) return [`${spec.name}: "args" must be an object`];
  const problems: string[] = [];
  nonFinitePaths(args, '', problems);
  if (problems.length) return problems.map((p) => `${spec.name}: ${p}`);
  let validate = toolValidators.get(spec);
  if (!validate) {
    const text = JSON.stringify(spec.parameters);
    validate = validatorsBySchema.get(text);
    if (!validate) {
      if (validatorsBySchema.size >= SCHEMA_CACHE_SIZE) validatorsBySchema.clear();
      validate = ajv.compile(spec.parameters);
      validatorsBySchema.set(text, validate);
    }
    toolValidators.set(spec, validate);
  }
  if (!validate(args)) return formatSchemaErrors(validate.errors).map((p) => `${spec.name} args ${p}`);
  return [];
}
