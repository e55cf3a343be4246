import { toolCallProblems } from '../tasks/instance-schema.ts';
import { Rng } from '../core/rng.ts';
import type { JsonSchema, ToolCall, ToolSpec } from '../tasks/types.ts';
import { numberOption } from '../core/options.ts';
import type { AgentOptions } from './types.ts';
import { enumerateSchema, sampleCall } from './schema-sampler.ts';
import type { Agent, AgentReply, EpisodeStart, Observation } from './types.ts';

/** Canonical JSON (sorted keys) of a call: the deterministic tie-break and dedupe key. */
function callKey(call: ToolCall): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sort) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])])) : v;
  return JSON.stringify(sort(call));
}

/** Previews a greedy turn may spend unless told otherwise: about what one reply's worth of trial and error is. */
export const DEFAULT_GREEDY_SAMPLES = 24;

/** Tools whose effect greedy may preview: motion and moves, never an answer or a commit. */
function previewable(t: ToolSpec): boolean {
  return t.kind === 'physical' || t.kind === 'discrete' || t.kind === 'timed';
}

function takesNoArguments(t: ToolSpec): boolean {
  const required = (t.parameters as JsonSchema & { required?: unknown[] }).required;
  return !Array.isArray(required) || required.length === 0;
}

/**
 * The myopic greedy baseline: a one-step lookahead on the family's progress measure.
 *
 * What it knows, and what it does not: each turn it previews at most `samples` candidate calls
 * of the acting tools (physical moves, discrete moves, waits) on the live world, each rolled
 * back, and reads the progress measure after each — privileged information no model has, which
 * is why it is a baseline and not a player. It never previews an answer or a commit (so it
 * cannot read a question's answer off a preview), never looks more than one call ahead, and
 * its candidates are drawn from the tool schemas (enumerable argument sets first, in a seeded
 * order, then samples), at most `samples` of them. It sends the single call that does best;
 * when no preview improves on the progress it already has, it commits with a commit-style
 * final tool (one without arguments) if there is one, and otherwise sends its best call anyway.
 * It never sends a call a preview showed to be refused or rolled back.
 */
export class GreedyAgent implements Agent {
  readonly name = 'greedy';
  readonly settings: Record<string, unknown>;
  readonly needsImages = false;
  private readonly seed: number;
  private readonly samples: number;
  private ctx: EpisodeStart | null = null;
  /** Progress after the last call greedy sent (0 before the first). */
  private progressNow = 0;

  constructor(seed = 0, samples = DEFAULT_GREEDY_SAMPLES) {
    this.seed = seed;
    this.samples = samples;
    this.settings = { seed, samples };
  }

  /** From command-line options: `seed` (default 0), `greedySamples` (default 24). */
  static fromOptions(opts: AgentOptions): GreedyAgent {
    return new GreedyAgent(
      numberOption(opts, 'seed', { min: 0, max: 2 ** 31, integer: true }) ?? 0,
      numberOption(opts, 'greedySamples', { min: 1, max: 1000, integer: true }) ?? DEFAULT_GREEDY_SAMPLES,
    );
  }

  start(ctx: EpisodeStart): void {
    this.ctx = ctx;
    this.progressNow = 0;
  }

  /**
   * The candidate calls of one turn, deduplicated: enumerable calls of the acting tools in a
   * seeded order, then calls drawn from their schemas, at most `samples` in all.
   */
  candidates(tools: ToolSpec[], rng: Rng): ToolCall[] {
    const seen = new Map<string, ToolCall>();
    const add = (c: ToolCall | null): void => {
      if (c && seen.size < this.samples && !seen.has(callKey(c)) && toolCallProblems(tools, c).length === 0) seen.set(callKey(c), c);
    };
    const acting = tools.filter(previewable);
    const listed: ToolCall[] = [];
    for (const t of acting) {
      const all = enumerateSchema(t.parameters);
      if (all) for (const args of all) listed.push({ tool: t.name, args: args as Record<string, unknown> });
    }
    for (const c of rng.shuffle(listed)) add(c);
    for (let i = 0; i < 4 * this.samples && seen.size < this.samples && acting.length; i++) add(sampleCall(rng.pick(acting), rng, tools));
    return [...seen.values()];
  }

  act(obs: Observation): Promise<AgentReply> {
    const ctx = this.ctx!;
    const rng = new Rng(`greedy/${this.seed}/${obs.instance.id}/${obs.turn}`);
    let best: { call: ToolCall; progress: number; solved: boolean; key: string } | null = null;
    for (const call of this.candidates(obs.tools, rng)) {
      const p = ctx.preview(call);
      if (p.result.status !== 'ok') continue;
      const key = callKey(call);
      const better =
        !best ||
        (p.solved && !best.solved) ||
        (p.solved === best.solved && (p.progress > best.progress || (p.progress === best.progress && key < best.key)));
      if (better) best = { call, progress: p.progress, solved: p.solved, key };
    }
    const commit = obs.tools.find((t) => t.kind === 'final' && takesNoArguments(t));
    if (commit && (!best || (!best.solved && best.progress <= this.progressNow))) {
      return Promise.resolve({ rationale: 'No previewed call improves the progress measure: committing.', note: '', actions: [{ tool: commit.name, args: {} }] });
    }
    if (best) {
      this.progressNow = best.progress;
      return Promise.resolve({ rationale: `Best previewed call: progress ${best.progress.toFixed(3)}.`, note: '', actions: [best.call] });
    }
    // Nothing would run: look instead (a camera call costs no time), or do nothing.
    const look = obs.tools.find((t) => t.name === 'view');
    return Promise.resolve({ rationale: 'No previewed call would run; looking instead.', note: '', actions: look ? [{ tool: 'view', args: { name: 'initial' } }] : [] });
  }
}
