import { endReasonText } from '../agents/end-reasons.ts';
import { buildTurnMessages } from '../agents/prompt.ts';
import type { HistoryEntry, Observation, ObservationImage } from '../agents/types.ts';
import type { LogTurn } from '../agents/episode-log.ts';
import type { CallResult } from '../tasks/env.ts';
import { toolForm, type ToolForm } from './form.ts';
import type { PlaySession, PlayStatus } from './human-agent.ts';

/** Earlier turns a model sees as text by default (the OpenAI agent's `historyTurns`). */
export const PROMPT_HISTORY_TURNS = 8;

/** An image as the page gets it: a URL on the play server. */
export interface PlayImage {
  kind: ObservationImage['kind'];
  caption: string;
  url: string;
}

/** One call's outcome as the page shows it. */
export interface PlayResult {
  tool: string;
  args: string;
  status: CallResult['status'];
  message: string;
  violation?: string;
  data?: string;
}

/** Everything the play page draws, as JSON. */
export interface PlayState {
  status: PlayStatus;
  version: number;
  message: string;
  instance: { id: string; title: string; family: string; tier: string; rules: string };
  mode: string;
  /** Turn being answered (while waiting), else the last one. */
  turn: number;
  turnsLeft: number;
  turnBudget: number;
  /** The episode's action budget (refused calls count), when the instance has one. */
  actionBudget?: number;
  /** Actions left of it, counting this turn's. */
  actionsLeft?: number;
  actionCap: number;
  worldTime: number;
  noteEnabled: boolean;
  note: string;
  plan?: string;
  stateText?: string;
  extraText?: string;
  /** What the conditions of this mode change, in words. */
  conditions: string[];
  tools: ToolForm[];
  images: PlayImage[];
  history: Array<{ turn: number; rationale: string; refused?: string[]; results: PlayResult[]; images: PlayImage[] }>;
  /** The text a model gets this turn (its pictures left out). */
  promptText: string;
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
    summaryFile: string;
  };
}

/** Fixed facts of the episode the state is built around. */
export interface PlayContext {
  instance: { id: string; title: string; family: string; tier: string; rules: string; turns: number; actions?: number };
  mode: string;
  logFile: string;
  summaryFile: string;
  /** Turns logged so far (after the episode ends, the history comes from here: it has the last turn too). */
  loggedTurns(): LogTurn[];
  /** The pictures of the final state the log wrote beside it (none when it wrote none). */
  finalImages?(): ObservationImage[];
}

function json(x: unknown): string {
  try {
    return JSON.stringify(x) ?? '';
  } catch {
    return '(unprintable)';
  }
}

function playResult(r: CallResult): PlayResult {
  const out: PlayResult = { tool: String(r.call?.tool ?? ''), args: json(r.call?.args ?? {}), status: r.status, message: r.message };
  if (r.violation) out.violation = r.violation.kind;
  if (r.data) out.data = json(r.data);
  return out;
}

/** What the conditions of an observation's mode change, in words. */
export function conditionsOf(obs: Observation): string[] {
  const m = obs.mode;
  const out: string[] = [];
  if (m.blind) out.push('blind: no pictures in this episode.');
  if (m.noCamera) out.push('no-camera: the camera is fixed; there are no camera tools.');
  if (m.nosplit && !m.blind) out.push('nosplit: after a failed call you see only the state it was undone to.');
  if (m.nonote) out.push('nonote: the note is switched off.');
  if (m.cap1) out.push('cap1: one call per turn.');
  if (m.state) out.push('state: the exact state of the scene is given as text every turn.');
  else if (m.plan) out.push('plan: a reference plan is given; you still carry it out.');
  return out;
}

function promptText(obs: Observation): string {
  const messages = buildTurnMessages(obs, { historyTurns: PROMPT_HISTORY_TURNS });
  const out: string[] = [];
  for (const m of messages) {
    if (typeof m.content === 'string') out.push(m.content);
    else if (Array.isArray(m.content)) {
      for (const p of m.content) out.push(p.type === 'text' ? p.text : '[picture]');
    }
  }
  return out.join('\n\n');
}

/**
 * Builds the page state of a session and keeps the images it refers to, so the server can
 * answer `/api/image/<id>` requests for the current observation (older ones are dropped).
 */
export class PlayStateBuilder {
  private cached: { version: number; state: PlayState } | null = null;
  private images = new Map<string, Buffer>();

  constructor(
    private readonly session: PlaySession,
    private readonly ctx: PlayContext,
  ) {}

  /** PNG bytes of an image id of the current state, or undefined. */
  image(id: string): Buffer | undefined {
    return this.images.get(id);
  }

  private loggedHistory(): HistoryEntry[] {
    return this.ctx.loggedTurns().map((t) => {
      const h: HistoryEntry = { turn: t.turn, rationale: t.reply.rationale, results: t.results };
      if (t.reply.refused) h.refused = t.reply.refused;
      return h;
    });
  }

  /** The state now (rebuilt only when the session changed). */
  state(): PlayState {
    const s = this.session;
    if (this.cached && this.cached.version === s.version) return this.cached.state;
    const images = new Map<string, Buffer>();
    const publish = (imgs: ObservationImage[] | undefined, prefix: string): PlayImage[] =>
      (imgs ?? []).map((img, i) => {
        const id = `${s.version}-${prefix}${i}`;
        images.set(id, img.png);
        return { kind: img.kind, caption: img.caption, url: `/api/image/${id}` };
      });
    const obs = s.observation;
    const st: PlayState = {
      status: s.status,
      version: s.version,
      message: s.message,
      instance: { id: this.ctx.instance.id, title: this.ctx.instance.title, family: this.ctx.instance.family, tier: this.ctx.instance.tier, rules: this.ctx.instance.rules },
      mode: this.ctx.mode,
      turn: obs?.turn ?? 0,
      turnsLeft: obs?.turnsLeft ?? this.ctx.instance.turns,
      turnBudget: this.ctx.instance.turns,
      ...(this.ctx.instance.actions !== undefined ? { actionBudget: this.ctx.instance.actions, actionsLeft: obs?.actionsLeft ?? this.ctx.instance.actions } : {}),
      actionCap: obs?.actionCap ?? 0,
      worldTime: obs?.worldTime ?? 0,
      noteEnabled: obs ? !obs.mode.nonote : true,
      note: obs?.note ?? '',
      conditions: obs ? conditionsOf(obs) : [],
      tools: (obs?.tools ?? []).map(toolForm),
      // After the end: the final state, as the log keeps it, inline (the server closes when the
      // episode ends, so the page could not ask for it afterwards).
      images:
        s.status === 'waiting'
          ? publish(obs?.images, 'now')
          : s.status === 'finished'
            ? (this.ctx.finalImages?.() ?? []).map((img) => ({ kind: img.kind, caption: img.caption, url: `data:image/png;base64,${img.png.toString('base64')}` }))
            : [],
      history: (s.status === 'waiting' ? (obs?.history ?? []) : this.loggedHistory()).map((h) => ({
        turn: h.turn,
        rationale: h.rationale,
        ...(h.refused ? { refused: h.refused } : {}),
        results: h.results.map(playResult),
        images: s.status === 'waiting' ? publish(h.images, `h${h.turn}-`) : [],
      })),
      promptText: obs && s.status === 'waiting' ? promptText(obs) : '',
    };
    if (obs?.plan !== undefined) st.plan = obs.plan;
    if (obs?.state !== undefined) st.stateText = obs.state;
    if (obs?.extraText !== undefined) st.extraText = obs.extraText;
    const e = s.outcome;
    // After the end the last observation's count is a turn old: the outcome has the actions spent.
    if (e && st.actionBudget !== undefined) st.actionsLeft = Math.max(0, st.actionBudget - e.actions);
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
        logFile: this.ctx.logFile,
        summaryFile: this.ctx.summaryFile,
      };
    }
    this.images = images;
    this.cached = { version: s.version, state: st };
    return st;
  }
}
