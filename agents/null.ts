import type { JsonSchema, ToolCall, ToolSpec } from '../tasks/types.ts';
import type { Agent, AgentReply, EpisodeStart, Observation } from './types.ts';

/**
 * The simplest value an argument schema accepts: its default, the minimum of a number, an
 * empty string or list, false, or an object of its required fields. A choice among listed
 * values (an enum) gets none: picking one would be a guess, right 1 time in k on a balanced
 * multiple-choice question, not a null policy. Such a commit is refused, so the null policy
 * answers nothing.
 */
export function defaultArgs(schema: JsonSchema): Record<string, unknown> {
  const value = defaultValue(schema);
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function defaultValue(schema: JsonSchema | undefined): unknown {
  if (!schema || typeof schema !== 'object') return null;
  if ('const' in schema) return schema.const;
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum)) return undefined;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'number':
    case 'integer': {
      const lo = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : 0;
      const hi = typeof schema.maximum === 'number' ? schema.maximum : Infinity;
      return Math.min(Math.max(0, lo), hi);
    }
    case 'string':
      return '';
    case 'boolean':
      return false;
    case 'array': {
      const n = typeof schema.minItems === 'number' ? schema.minItems : 0;
      return Array.from({ length: n }, () => defaultValue(schema.items as JsonSchema));
    }
    case 'object':
    case undefined: {
      const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
      return Object.fromEntries(required.map((k) => [k, defaultValue(props[k])]).filter(([, v]) => v !== undefined));
    }
    default:
      return null;
  }
}

/**
 * The null policy, a shortcut filter: it commits at once with default arguments when the
 * task has a `final` tool, and otherwise does nothing for the whole budget — each turn one
 * camera reset, which costs no world time and moves nothing. An instance this agent solves is
 * solved by its own starting state and must be re-drawn.
 */
export class NullAgent implements Agent {
  readonly name = 'null';
  readonly settings: Record<string, unknown> = {};
  readonly needsImages = false;
  private tools: ToolSpec[] = [];

  start(ctx: EpisodeStart): void {
    this.tools = ctx.tools;
  }

  async act(obs: Observation): Promise<AgentReply> {
    const final = this.tools.find((t) => t.kind === 'final');
    const committed = obs.history.some((h) => h.results.some((r) => r.kind === 'final' && r.status === 'ok'));
    let actions: ToolCall[];
    if (final && obs.turn === 1 && !committed) actions = [{ tool: final.name, args: defaultArgs(final.parameters) }];
    else if (this.tools.some((t) => t.name === 'view')) actions = [{ tool: 'view', args: { name: 'initial' } }];
    else actions = [];
    return { rationale: 'Null policy: change nothing.', note: '', actions };
  }
}
