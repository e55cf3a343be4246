import { SpaceActError } from '../core/errors.ts';
import type { AgentOptions } from './types.ts';
import { GreedyAgent } from './greedy-agent.ts';
import { NullAgent } from './null.ts';
import { OpenAIAgent } from './openai-agent.ts';
import { RandomAgent } from './random-agent.ts';
import { ReferenceAgent } from './reference.ts';
import type { Agent } from './types.ts';

export type { AgentOptions } from './types.ts';

/** Makes a fresh agent for one episode. */
export type AgentFactory = (opts: AgentOptions) => Agent;

/** Agents selectable with `--agent`. */
export const AGENTS: Record<string, AgentFactory> = {
  reference: () => new ReferenceAgent(),
  null: () => new NullAgent(),
  random: (opts) => RandomAgent.fromOptions(opts),
  greedy: (opts) => GreedyAgent.fromOptions(opts),
  openai: (opts) => OpenAIAgent.fromOptions(opts),
};

/** The factory for `name`, or a clear error listing the known agents. */
export function agentFactory(name: string): AgentFactory {
  const f = Object.hasOwn(AGENTS, name) ? AGENTS[name] : undefined;
  if (!f) throw new SpaceActError('invalid-argument', `unknown agent "${name}"; agents: ${Object.keys(AGENTS).join(', ')}`, { agent: name });
  return f;
}
