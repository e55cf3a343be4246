import { SpaceActError } from '../core/errors.ts';
import type { AgentOptions } from './types.ts';
import { GreedyAgent } from './greedy-agent.ts';
import { NullAgent } from './null.ts';
import { OpenAIAgent } from './openai-agent.ts';
import { RandomAgent } from './random-agent.ts';
import { ReferenceAgent } from './reference.ts';
import type { Agent } from './types.ts';

export type { AgentOptions } from './types.ts';

/** Makes a fresh agent for one episode (`env`: where a model agent reads its key; default `process.env`). */
export type AgentFactory = (opts: AgentOptions, env?: NodeJS.ProcessEnv) => Agent;

/** Agents selectable with `--agent`. */
export const AGENTS: Record<string, AgentFactory> = {
  reference: () => new ReferenceAgent(),
  null: () => new NullAgent(),
  random: (opts) => RandomAgent.fromOptions(opts),
  greedy: (opts) => GreedyAgent.fromOptions(opts),
  openai: (opts, env) => OpenAIAgent.fromOptions(opts, env),
};

/** The factory for `name`, or a clear error listing the known agents. */
export function agentFactory(name: string): AgentFactory {
  const f = Object.hasOwn(AGENTS, name) ? AGENTS[name] : undefined;
  if (!f) throw new SpaceActError('invalid-argument', `unknown agent "${name}"; agents: ${Object.keys(AGENTS).join(', ')}`, { agent: name });
  return f;
}

/**
 * An agent built only to read its name and settings, never asked anything: the coordinator of
 * a queue run, which plays no episode, needs no API key (its workers read theirs from their own
 * environment), so a stand-in is put in the key's variable for this one agent.
 */
export function describeAgent(name: string, opts: AgentOptions): Agent {
  const keyVar = typeof opts.apiKeyEnv === 'string' ? opts.apiKeyEnv : 'OPENAI_API_KEY';
  return agentFactory(name)(opts, { ...process.env, [keyVar]: process.env[keyVar] || 'no-key-needed-to-describe-the-agent' });
}
