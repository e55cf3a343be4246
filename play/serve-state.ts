/**
 * What `spaceact serve` tells a client about one episode, as JSON: the observation a model gets
 * (rules, tools with their argument schemas, pictures, captions, turn, budgets, note, the reply
 * schema), the results of the calls, and the end in words. Built from the same {@link
 * PlaySession} the play page reads; nothing here is hidden from a model or shown only to it.
 */
import { endReasonText } from '../agents/end-reasons.ts';
import type { LogTurn } from '../agents/episode-log.ts';
import { buildTurnMessages } from '../agents/prompt.ts';
import { replySchema } from '../agents/reply-parser.ts';
import type { SummaryEntry } from '../agents/run-types.ts';
import type { HistoryEntry, Observation, ObservationImage } from '../agents/types.ts';
import type { CallResult } from '../tasks/env.ts';
import type { Instance, ToolCall, ToolKind } from '../tasks/types.ts';
import type { PlaySession, PlayStatus } from './human-agent.ts';
import { conditionsOf, PROMPT_HISTORY_TURNS } from './state.ts';

/** A picture as served: a URL on the server, and its PNG as base64 when asked for (`?images=base64`). */
export interface ServedImage {
  kind: ObservationImage['kind'];
  caption: string;
  /** Path of the PNG on the server (`GET` it; valid while this observation is current). */
  url: string;
  /** The PNG, base64, when the request asked for `images=base64`. */
  png?: string;
}

/** One call's outcome as a client gets it: what a model is told, nothing more (no contact points, no diagnostics). */
export interface ServedResult {
  call: ToolCall;
  /** `ok` ran; `violation` ran, broke a rule and was rolled back; `invalid` refused unchanged; `not-run` dropped. */
  status: CallResult['status'];
  kind?: ToolKind;
  message: string;
  /** The kind of rule broken, for a violation. */
  violation?: string;
  data?: Record<string, unknown>;
  /** World time before and after the call, seconds. */
  timeBefore: number;
  timeAfter: number;
}

/** One played turn as a client gets it. */
export interface ServedTurn {
  turn: number;
  rationale: string;
  /** Set when the turn ran no calls because no valid reply came (not for replies this server refused: those change nothing). */
  refused?: string[];
  results: ServedResult[];
  /** The pictures seen that turn, for the last few turns a model is shown pictures of. */
  images?: ServedImage[];
}

/** Everything a client needs to play one turn, or the end. */
export interface ServedState {
  /** The episode's id: its instance id (one episode per instance in a log folder). */
  episode: string;
  /** `starting`, `waiting` (a reply is awaited), `running` (a turn runs), `finished`, `failed`, `stopped`. */
  status: PlayStatus;
  /** Bumped at every change of the episode. */
  version: number;
  /** Why the episode failed or stopped. */
  message: string;
  agent: string;
  mode: string;
  instance: { id: string; family: string; tier: string; title: string; rules: string; dynamic: boolean; scoring: Instance['scoring'] };
  /** What this mode changes, in words. */
  conditions: string[];
  /** The turn awaiting a reply (while `waiting`), else the last one played. */
  turn: number;
  turnBudget: number;
  turnsUsed: number;
  turnsLeft: number;
  /** Most calls in one reply this turn (5, or 1 under `cap1`). */
  actionCap: number;
  /** Actions spent so far (refused and rolled-back calls count; perception calls do not). */
  actionsUsed: number;
  /** The episode's action budget, when the instance has one. */
  actionBudget?: number;
  actionsLeft?: number;
  /** Refused calls still allowed before the next one ends the episode, when the instance limits them (`budgets.refusals`, e.g. P6: none). */
  refusalsLeft?: number;
  worldTime: number;
  noteEnabled: boolean;
  /** The note as the agent last wrote it. */
  note: string;
  plan?: string;
  stateText?: string;
  extraText?: string;
  /** The tools, each with its argument schema (JSON Schema). */
  tools: Array<{ name: string; description: string; kind: ToolKind; parameters: unknown }>;
  /** The JSON Schema a reply object must satisfy this turn. */
  replySchema: unknown;
  /** The pictures of this turn (none under `blind`, none once the episode has ended but the final ones). */
  images: ServedImage[];
  /** Every earlier turn, oldest first. */
  history: ServedTurn[];
  /** The text a model gets this turn, pictures left out (only with `prompt=1`). */
  promptText?: string;
  outcome?: {
    solved: boolean;
    score: number | null;
    endReason: string;
    /** The end reason in words. */
    endText: string;
    turns: number;
    actions: number;
    referenceActions: number;
    violations: number;
    logFile: string;
  };
}

/** How a state is asked for. */
export interface ServedStateOptions {
  /** Put each picture's PNG into the JSON as base64. */
  inlineImages: boolean;
  /** Add the model's prompt text. */
  prompt: boolean;
}

/** Fixed facts of a served episode. */
export interface ServedContext {
  instance: Instance;
  agent: string;
  mode: string;
  logFile: string;
  /** Path prefix of the episode's pictures on the server (`/api/episodes/<id>/images/`). */
  imagePath: string;
  /** Turns logged so far (after the end, the history comes from here: it has the last turn too). */
  loggedTurns(): LogTurn[];
  /** The final state's pictures the log wrote beside it. */
  finalImages(): ObservationImage[];
}

/** A call's result without what a model is never shown (contact points, diagnostics). */
export function servedResult(r: CallResult): ServedResult {
  const out: ServedResult = {
    call: { tool: String(r.call?.tool ?? ''), args: r.call?.args ?? {} },
    status: r.status,
    message: r.message,
    timeBefore: r.timeBefore,
    timeAfter: r.timeAfter,
  };
  if (r.kind) out.kind = r.kind;
  if (r.violation) out.violation = r.violation.kind;
  if (r.data) out.data = r.data;
  return out;
}

function promptText(obs: Observation): string {
  const out: string[] = [];
  for (const m of buildTurnMessages(obs, { historyTurns: PROMPT_HISTORY_TURNS })) {
    if (typeof m.content === 'string') out.push(m.content);
    else if (Array.isArray(m.content)) for (const p of m.content) out.push(p.type === 'text' ? p.text : '[picture]');
  }
  return out.join('\n\n');
}

function actionsIn(history: ReadonlyArray<{ results: ReadonlyArray<Pick<CallResult, 'status' | 'kind'>> }>): number {
  let n = 0;
  for (const h of history) for (const r of h.results) if ((r.status === 'ok' || r.status === 'violation') && r.kind !== 'perception') n++;
  return n;
}

/**
 * Builds the served state of one episode and keeps the PNGs it refers to, so the server can
 * answer `GET …/images/<name>.png` for the current observation (older ones are dropped).
 */
export class ServedStateBuilder {
  private images = new Map<string, Buffer>();
  private imagesVersion = -1;

  constructor(
    private readonly session: PlaySession,
    private readonly ctx: ServedContext,
  ) {}

  /** PNG bytes of a picture name of the current state, or undefined. */
  image(name: string): Buffer | undefined {
    this.state({ inlineImages: false, prompt: false });
    return this.images.get(name);
  }

  /** The last turn played, as logged (its results are the ones the client's reply produced). */
  lastTurn(): ServedTurn | null {
    const t = this.ctx.loggedTurns().at(-1);
    if (!t) return null;
    return { turn: t.turn, rationale: t.reply.rationale, ...(t.reply.refused ? { refused: t.reply.refused } : {}), results: t.results.map(servedResult) };
  }

  /** The state now. */
  state(opts: ServedStateOptions): ServedState {
    const s = this.session;
    const ctx = this.ctx;
    const inst = ctx.instance;
    const images = new Map<string, Buffer>();
    const publish = (imgs: ObservationImage[] | undefined, prefix: string): ServedImage[] =>
      (imgs ?? []).map((img, i) => {
        const name = `${s.version}-${prefix}${i}.png`;
        images.set(name, img.png);
        return { kind: img.kind, caption: img.caption, url: `${ctx.imagePath}${name}`, ...(opts.inlineImages ? { png: img.png.toString('base64') } : {}) };
      });
    const obs = s.observation;
    const waiting = s.status === 'waiting' && obs !== null;
    const history: ServedTurn[] = waiting
      ? obs.history.map((h: HistoryEntry) => ({
          turn: h.turn,
          rationale: h.rationale,
          ...(h.refused ? { refused: h.refused } : {}),
          results: h.results.map(servedResult),
          ...(h.images?.length ? { images: publish(h.images, `h${h.turn}-`) } : {}),
        }))
      : ctx.loggedTurns().map((t) => ({ turn: t.turn, rationale: t.reply.rationale, ...(t.reply.refused ? { refused: t.reply.refused } : {}), results: t.results.map(servedResult) }));
    const turnBudget = inst.budgets.turns;
    const turn = waiting ? obs.turn : history.length;
    const e: SummaryEntry | null = s.outcome;
    const actionsUsed = e ? e.actions : actionsIn(history);
    const st: ServedState = {
      episode: inst.id,
      status: s.status,
      version: s.version,
      message: s.message,
      agent: ctx.agent,
      mode: ctx.mode,
      instance: { id: inst.id, family: inst.family, tier: inst.tier, title: inst.title, rules: inst.rules, dynamic: inst.dynamic, scoring: inst.scoring },
      conditions: obs ? conditionsOf(obs) : [],
      turn,
      turnBudget,
      turnsUsed: waiting ? obs.turn - 1 : history.length,
      turnsLeft: waiting ? obs.turnsLeft : Math.max(0, turnBudget - history.length),
      actionCap: obs?.actionCap ?? inst.budgets.actionsPerTurn,
      actionsUsed,
      ...(inst.budgets.actions !== undefined ? { actionBudget: inst.budgets.actions, actionsLeft: Math.max(0, inst.budgets.actions - actionsUsed) } : {}),
      ...(obs?.refusalsLeft !== undefined ? { refusalsLeft: obs.refusalsLeft } : {}),
      worldTime: obs?.worldTime ?? 0,
      noteEnabled: obs ? !obs.mode.nonote : true,
      note: obs?.note ?? '',
      tools: (obs?.tools ?? []).map((t) => ({ name: t.name, description: t.description, kind: t.kind, parameters: t.parameters })),
      replySchema: replySchema(obs?.actionCap ?? inst.budgets.actionsPerTurn, obs ? !obs.mode.nonote : true),
      images: waiting ? publish(obs.images, 'now') : s.status === 'finished' ? publish(ctx.finalImages(), 'final') : [],
      history,
    };
    if (obs?.plan !== undefined) st.plan = obs.plan;
    if (obs?.state !== undefined) st.stateText = obs.state;
    if (obs?.extraText !== undefined) st.extraText = obs.extraText;
    if (opts.prompt && waiting) st.promptText = promptText(obs);
    if (e) {
      st.outcome = {
        solved: e.solved,
        score: e.score,
        endReason: e.endReason,
        endText: endReasonText(e.endReason),
        turns: e.turns,
        actions: e.actions,
        referenceActions: e.referenceActions,
        violations: e.violations,
        logFile: ctx.logFile,
      };
    }
    // Pictures stay fetchable by URL for the version they were published in.
    if (this.imagesVersion !== s.version || images.size >= this.images.size) {
      this.images = images;
      this.imagesVersion = s.version;
    }
    return st;
  }
}
