import { toolCallProblems } from '../tasks/instance-schema.ts';
import { Rng } from '../core/rng.ts';
import type { ToolCall, ToolSpec } from '../tasks/types.ts';
import { numberOption, type AgentOptions } from './agent-options.ts';
import { enumerateSchema, sampleCall } from './schema-sampler.ts';
import type { Agent, AgentReply, EpisodeStart, Observation } from './types.ts';

/** Canonical JSON (sorted keys) of a call: the deterministic tie-break and dedupe key. */
function callKey(call: ToolCall): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sort) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])])) : v;
  return JSON.stringify(sort(call));
}

/**
 * The myopic greedy baseline: each turn it previews candidate calls on the live world (the
 * family's progress measure after each, rolled back), and sends the one call that does best.
 * Candidates are every call of a tool whose arguments are few enough to enumerate, plus
 * `samples` calls drawn from the schemas. Calls that are refused or rolled back do nothing, so
 * they are never chosen; ties go to the smallest canonical JSON. Perception calls are chosen
 * only when no other call would run.
 */
export class GreedyAgent implements Agent {
  readonly name = 'greedy';
  readonly settings: Record<string, unknown>;
  readonly needsImages = false;
  private readonly seed: number;
  private readonly samples: number;
  private ctx: EpisodeStart | null = null;

  constructor(seed = 0, samples = 24) {
    this.seed = seed;
    this.samples = samples;
    this.settings = { seed, samples };
  }

  /** From command-line options: `seed` (default 0), `greedySamples` (default 24). */
  static fromOptions(opts: AgentOptions): GreedyAgent {
    return new GreedyAgent(
      numberOption(opts, 'seed', { min: 0, max: 2 ** 31, integer: true }) ?? 0,
      numberOption(opts, 'greedySamples', { min: 0, max: 1000, integer: true }) ?? 24,
    );
  }

  start(ctx: EpisodeStart): void {
    this.ctx = ctx;
  }

  /** The candidate calls of one turn, deduplicated, in a fixed order. */
  candidates(tools: ToolSpec[], rng: Rng): ToolCall[] {
    const seen = new Map<string, ToolCall>();
    const add = (c: ToolCall | null): void => {
      if (c && !seen.has(callKey(c)) && toolCallProblems(tools, c).length === 0) seen.set(callKey(c), c);
    };
    for (const t of tools) {
      const all = enumerateSchema(t.parameters);
      if (all) for (const args of all) add({ tool: t.name, args: args as Record<string, unknown> });
    }
    const drawable = tools.filter((t) => t.kind !== 'perception');
    for (let i = 0; i < this.samples && drawable.length; i++) add(sampleCall(rng.pick(drawable), rng, tools));
    return [...seen.values()];
  }

  act(obs: Observation): Promise<AgentReply> {
    const ctx = this.ctx!;
    const rng = new Rng(`greedy/${this.seed}/${obs.instance.id}/${obs.turn}`);
    const pool = this.candidates(obs.tools, rng);
    let best: { call: ToolCall; progress: number; solved: boolean; key: string } | null = null;
    for (const call of pool) {
      const tool = obs.tools.find((t) => t.name === call.tool)!;
      if (tool.kind === 'perception') continue;
      const p = ctx.preview(call);
      if (p.result.status !== 'ok') continue;
      const key = callKey(call);
      const better =
        !best ||
        (p.solved && !best.solved) ||
        (p.solved === best.solved && (p.progress > best.progress || (p.progress === best.progress && key < best.key)));
      if (better) best = { call, progress: p.progress, solved: p.solved, key };
    }
    if (best) {
      return Promise.resolve({ rationale: `Best previewed call: progress ${best.progress.toFixed(3)}.`, note: '', actions: [best.call] });
    }
    // Nothing else would run: look instead (a camera call, which costs no time).
    const look = pool.filter((c) => obs.tools.find((t) => t.name === c.tool)?.kind === 'perception').sort((a, b) => (callKey(a) < callKey(b) ? -1 : 1))[0];
    return Promise.resolve({ rationale: 'No call would run; looking instead.', note: '', actions: look ? [look] : [] });
  }
}
