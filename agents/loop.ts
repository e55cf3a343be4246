import type { Renderer } from '../render/renderer.ts';
import { SpaceActError } from '../core/errors.ts';
import { TaskEnv, type CallResult } from '../tasks/env.ts';
import { referenceSolution } from '../tasks/reference-cache.ts';
import type { Instance, TaskFamily, ToolCall } from '../tasks/types.ts';
import { modeName, type Mode } from './modes.ts';
import { RUN_DEFAULTS, type RenderWhen } from './run-defaults.ts';
import type {
  Agent,
  AgentReply,
  EpisodeOutcome,
  HistoryEntry,
  Observation,
  ObservationImage,
  PrivilegedChannel,
  TurnRecord,
  Usage,
} from './types.ts';

/** Options of one episode. */
export interface EpisodeOptions {
  family: TaskFamily;
  instance: Instance;
  agent: Agent;
  mode: Mode;
  /** Needed unless images are skipped (blind mode, or an agent that never looks). */
  renderer: Renderer | null;
  /** `auto` renders only when the agent needs images; default {@link RUN_DEFAULTS}.render (`always`). */
  render?: RenderWhen;
  /** Images kept in history for the last m turns (default {@link RUN_DEFAULTS}.historyImages). */
  historyImages?: number;
  /** Called once the world is built, before the first observation. */
  onStart?(env: TaskEnv): void | Promise<void>;
  /** Called after every completed turn, with the images the agent saw that turn. */
  onTurn?(record: TurnRecord, images: ObservationImage[]): void | Promise<void>;
  /**
   * Turns recorded by an earlier run of this episode: their replies are replayed instead of
   * asking the agent, and each turn's state hash must match (resume after a crash).
   */
  replay?: TurnRecord[];
  /** Polled between turns; true ends the episode as `stopped` (e.g. a cost limit). */
  shouldStop?(): boolean;
  /**
   * Called once when the episode has ended (not when stopped), with the observation of the
   * final state (a rollback view when the last turn was rolled back), so a replay can show
   * the end; no images when the episode renders none.
   */
  onEnd?(images: ObservationImage[]): void | Promise<void>;
}

function addUsage(a: Usage, b: Usage | undefined): Usage {
  if (!b) return a;
  const out: Usage = { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens };
  if (a.cost !== undefined || b.cost !== undefined) out.cost = (a.cost ?? 0) + (b.cost ?? 0);
  return out;
}

/**
 * Runs one episode of the SAPA loop: observe, ask the agent, execute its 1–5 calls in order
 * under the world's checks (stopping the turn at the first violation), record, repeat until
 * the task terminates (solved or committed) or the turn budget truncates it.
 */
export async function runEpisode(opts: EpisodeOptions): Promise<EpisodeOutcome> {
  const { family, instance, agent, mode } = opts;
  const render = opts.render ?? RUN_DEFAULTS.render;
  const wantImages = !mode.blind && (render === 'always' || (render === 'auto' && agent.needsImages));
  if (wantImages && !opts.renderer) throw new SpaceActError('invalid-argument', 'this episode needs a renderer');
  const env = await TaskEnv.create(family, instance, { lockCamera: mode.noCamera });
  const actionCap = mode.cap1 ? 1 : instance.budgets.actionsPerTurn;
  const history: HistoryEntry[] = [];
  const keepImages = opts.historyImages ?? RUN_DEFAULTS.historyImages;
  let note = '';
  let usage: Usage = { inputTokens: 0, outputTokens: 0 };
  let actions = 0;
  let perceptionActions = 0;
  let violations = 0;
  let invalidCalls = 0;
  let invalidReplies = 0;
  let turn = 0;
  let endReason: EpisodeOutcome['endReason'] | null = null;
  let abandonReason: string | undefined;
  try {
    await opts.onStart?.(env);
    // Only an oracle baseline that asks for it gets the reference; every agent gets the public view.
    const privileged: PrivilegedChannel | undefined = agent.privileged ? { reference: () => referenceSolution(family, instance) } : undefined;
    await agent.start({ instance: env.view, tools: env.tools, mode, preview: (call) => env.preview(call) }, privileged);
    while (endReason === null) {
      if (turn >= instance.budgets.turns) {
        endReason = 'turn-budget';
        break;
      }
      // A turn of the event loop between turns: an agent that never waits on I/O (reference,
      // random) would otherwise hold it for the whole episode, and a Ctrl-C, a timer or a
      // message from the coordinator would be seen only at the end.
      if (opts.shouldStop) await new Promise<void>((resolve) => setImmediate(resolve));
      if (opts.shouldStop?.()) {
        endReason = 'stopped';
        break;
      }
      turn += 1;
      const replayed = opts.replay?.[turn - 1];
      // Replayed turns are rendered only where the agent will see them again in its history.
      const replayTurns = opts.replay?.length ?? 0;
      const show = wantImages && (!replayed || turn > replayTurns - keepImages);
      const seen = await env.observation({ renderer: opts.renderer, images: show, split: !mode.nosplit, plan: mode.plan, state: mode.state });
      const images = seen.images;
      const obs: Observation = {
        ...seen,
        turn,
        turnsLeft: instance.budgets.turns - turn + 1,
        actionCap,
        ...(instance.budgets.actions !== undefined ? { actionsLeft: instance.budgets.actions - actions } : {}),
        ...(instance.budgets.refusals !== undefined ? { refusalsLeft: Math.max(0, instance.budgets.refusals - env.refusals) } : {}),
        instance: env.view,
        tools: env.tools,
        history,
        note: mode.nonote ? '' : note,
        mode,
      };

      let reply: AgentReply;
      if (replayed) {
        reply = { ...replayed.reply };
      } else {
        reply = await agent.act(obs);
      }
      usage = addUsage(usage, reply.usage);
      invalidReplies += reply.invalidReplies ?? 0;
      if (reply.abandoned) {
        endReason = 'abandoned';
        abandonReason = reply.abandoned.reason;
        if (!replayed) await opts.onTurn?.(turnRecord(turn, env.time, env.time, images, reply, [], env.stateHash()), images);
        break;
      }
      if (reply.gaveUp) {
        endReason = 'gave-up';
        if (!mode.nonote) note = reply.note;
        if (!replayed) await opts.onTurn?.(turnRecord(turn, env.time, env.time, images, reply, [], env.stateHash()), images);
        break;
      }
      const timeBefore = env.time;
      const progressBefore = env.progress();
      const results = executeTurn(env, Array.isArray(reply.actions) ? reply.actions : [], actionCap, instance.budgets.actions !== undefined ? instance.budgets.actions - actions : Infinity);
      for (const r of results) {
        if (r.status === 'invalid') invalidCalls += 1;
        if (r.status === 'violation') violations += 1;
        if (r.status === 'ok' || r.status === 'violation') {
          if (r.kind === 'perception') perceptionActions += 1;
          else actions += 1;
        }
      }
      if (!mode.nonote) note = reply.note;
      const record = turnRecord(turn, timeBefore, env.time, images, reply, results, env.stateHash());
      record.progress = { before: progressBefore, after: env.solved() ? 1 : env.progress() };
      if (replayed && replayed.stateHash !== record.stateHash) {
        throw new SpaceActError(
          'invalid-state',
          `resume of ${instance.id} diverged at turn ${turn}: recorded state hash ${replayed.stateHash}, replayed ${record.stateHash}`,
          { instance: instance.id, turn },
        );
      }
      const entry: HistoryEntry = { turn, rationale: reply.rationale, results, images };
      if (reply.refused) entry.refused = reply.refused;
      history.push(entry);
      // Bound memory: only the last m turns keep their images.
      for (let i = 0; i < history.length - keepImages; i++) delete history[i].images;
      if (!replayed) await opts.onTurn?.(record, images);
      if (env.terminated) endReason = env.endReason!;
      else if (instance.budgets.actions !== undefined && actions >= instance.budgets.actions) endReason = 'action-budget';
    }
    const abandoned = endReason === 'abandoned';
    const solved = !abandoned && env.solved();
    const outcome: EpisodeOutcome = {
      instance: instance.id,
      family: instance.family,
      tier: instance.tier,
      agent: agent.name,
      mode: modeName(mode),
      solved,
      terminated: endReason === 'solved' || endReason === 'commit' || endReason === 'failed' || endReason === 'gave-up',
      truncated: endReason === 'turn-budget' || endReason === 'action-budget',
      abandoned,
      endReason: endReason!,
      turns: turn,
      actions,
      perceptionActions,
      violations,
      invalidCalls,
      invalidReplies,
      progress: solved ? 1 : env.progress(),
      finalStateHash: env.stateHash(),
      worldTime: env.time,
      usage,
    };
    if (abandonReason) outcome.abandonReason = abandonReason;
    if (endReason !== 'stopped' && opts.onEnd) {
      await opts.onEnd(wantImages ? await env.observe(opts.renderer!, { split: !mode.nosplit }) : []);
    }
    return outcome;
  } finally {
    env.free();
  }
}

function turnRecord(
  turn: number,
  worldTimeBefore: number,
  worldTimeAfter: number,
  images: ObservationImage[],
  reply: AgentReply,
  results: CallResult[],
  stateHash: string,
): TurnRecord {
  const r: TurnRecord['reply'] = { rationale: reply.rationale, note: reply.note, actions: reply.actions };
  if (reply.usage) r.usage = reply.usage;
  if (reply.invalidReplies) r.invalidReplies = reply.invalidReplies;
  if (reply.apiRetries) r.apiRetries = reply.apiRetries;
  if (reply.raw !== undefined) r.raw = reply.raw;
  if (reply.requestDigest) r.requestDigest = reply.requestDigest;
  if (reply.requests) r.requests = reply.requests;
  if (reply.refused) r.refused = reply.refused;
  if (reply.abandoned) r.abandoned = reply.abandoned;
  if (reply.gaveUp) r.gaveUp = true;
  return {
    turn,
    worldTimeBefore,
    worldTimeAfter,
    images: images.map((i) => ({ kind: i.kind, caption: i.caption })),
    reply: r,
    results,
    stateHash,
  };
}

/**
 * Executes a turn's calls in order. The first violation (or refused call) ends the turn:
 * the calls after it are reported `not-run`. Calls beyond the cap are never run, nor are
 * actions past what is left of the episode's action budget (`actionsLeft`; perception calls
 * cost none of it).
 */
export function executeTurn(env: TaskEnv, calls: ToolCall[], cap: number, actionsLeft = Infinity): CallResult[] {
  const results: CallResult[] = [];
  let stopped: string | null = null;
  let spent = 0;
  const perception = new Set(env.tools.filter((t) => t.kind === 'perception').map((t) => t.name));
  calls.forEach((call, i) => {
    const t = env.time;
    const skip = (message: string): CallResult => ({ call, status: 'not-run', message, timeBefore: t, timeAfter: t });
    if (i >= cap) results.push(skip(`not run: at most ${cap} action(s) per turn`));
    else if (stopped) results.push(skip(stopped));
    else if (env.terminated) results.push(skip('not run: the episode had already ended'));
    else if (spent >= actionsLeft && !perception.has(call.tool)) results.push(skip('not run: the action budget is spent'));
    else {
      const r = env.execute(call);
      if ((r.status === 'ok' || r.status === 'violation') && r.kind !== 'perception') spent++;
      results.push(r);
      if (r.status === 'violation') stopped = `not run: call ${i + 1} was rolled back after a ${r.violation?.kind} violation`;
      else if (r.status === 'invalid') stopped = `not run: call ${i + 1} was refused`;
    }
  });
  return results;
}
