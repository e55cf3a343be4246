import { readSchema, type SchemaNode } from '../tasks/tool-schema.ts';
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
  const value = defaultValue(readSchema(schema));
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function defaultValue(n: SchemaNode): unknown {
  if (n.kind === 'const') return n.value;
  if ('default' in n) return n.default;
  // The simplest value of a nullable field is nothing at all.
  if (n.nullable) return null;
  switch (n.kind) {
    case 'enum':
    case 'choice':
      // Picking one of listed values or branches would be a guess, not a null policy.
      return undefined;
    case 'number': {
      const lo = n.min ?? (n.exclusiveMin !== undefined ? n.exclusiveMin + 1 : 0);
      const hi = n.max ?? Infinity;
      return Math.min(Math.max(0, lo), hi);
    }
    case 'string':
      return '';
    case 'boolean':
      return false;
    case 'array':
      return n.prefixItems ? n.prefixItems.map((p) => defaultValue(p)) : Array.from({ length: n.minItems ?? 0 }, () => defaultValue(n.items));
    case 'object':
      return Object.fromEntries(n.required.map((k) => [k, n.properties[k] ? defaultValue(n.properties[k]) : null]).filter(([, v]) => v !== undefined));
    case 'any':
      return {};
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
