import type { OptionValues } from '../core/options.ts';
import type { CallResult } from '../tasks/env.ts';
import type { InstanceView } from '../tasks/instance-view.ts';
import type { ReferenceSolution, ToolCall, ToolSpec } from '../tasks/types.ts';
import type { Mode } from './modes.ts';

import type { ObservationImage } from '../tasks/types.ts';
export type { ObservationImage } from '../tasks/types.ts';

/** An agent's options: from the command line (strings) or from code (numbers), read with `core/options.ts`. */
export type AgentOptions = OptionValues;

/** What the agent was told about one earlier turn. */
export interface HistoryEntry {
  turn: number;
  rationale: string;
  results: CallResult[];
  /** The images the agent saw that turn (kept only for the last few turns the agent shows). */
  images?: ObservationImage[];
  /** Set when no valid reply came that turn: what was wrong with the last one refused. */
  refused?: string[];
}

/** Everything an agent gets at the start of a turn. */
export interface Observation {
  /** 1-based turn number. */
  turn: number;
  turnsLeft: number;
  /** Actions allowed this turn (5, or 1 in `cap1`). */
  actionCap: number;
  /** Actions left in the episode's action budget (counting this turn's), when the instance has one. */
  actionsLeft?: number;
  /** Refused calls the episode still allows before the next one ends it (`budgets.refusals`), when the instance sets a limit. */
  refusalsLeft?: number;
  /** What the agent is told about the instance: id, title, rules, tools, budgets, camera limits — never the scene or the answer. */
  instance: InstanceView;
  /** Tools available this episode (no camera tools under `no-camera`). */
  tools: ToolSpec[];
  /** Images now; empty under `blind`. */
  images: ObservationImage[];
  /** Earlier turns, oldest first (the agent chooses how many to show). */
  history: HistoryEntry[];
  /** The persistent note, as the agent last wrote it ('' under `nonote`). */
  note: string;
  /** A reference plan in words (`plan` and `state` modes). */
  plan?: string;
  /** Exact layout and payload poses (`state` mode). */
  state?: string;
  /** A short read-out the family allows every agent (e.g. a timer). */
  extraText?: string;
  /** World time now, seconds (frozen while the agent thinks). */
  worldTime: number;
  mode: Mode;
}

/** Token use of one model call. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** Dollars, when a price table is known. */
  cost?: number;
}

/** One request a model agent sent during a turn, for the log (never holds secrets). */
export interface RequestRecord {
  /** 1-based; a re-ask after a refused reply is the next attempt. */
  attempt: number;
  /** Digest of the request (model, endpoint, messages, settings), also the response-cache key. */
  digest: string;
  /** API failures (timeouts, 429, 5xx) retried before this request was answered or given up. */
  apiRetries: number;
  /** Answered from the response cache (no tokens were billed). */
  cached?: boolean;
  usage?: Usage;
  /** Why the endpoint stopped writing (`stop`, `length`, ...). */
  finishReason?: string;
  /** Raw text of a refused reply (the accepted one is `AgentReply.raw`), clipped for the log. */
  raw?: string;
  /** Length of the refused reply in characters, when `raw` was clipped. */
  rawChars?: number;
  /**
   * Infrastructure faults met and retried before this request was answered (a timeout, a reset,
   * a body that was not a chat completion...): the endpoint's, never the model's.
   */
  faults?: Array<{ kind: string; reason: string }>;
  /** What was wrong with the reply, when it was refused. */
  problems?: string[];
  /** The failure, when the request got no answer (scrubbed of the API key). */
  error?: string;
  /** Wall-clock milliseconds the request took, retries included (informational only). */
  ms?: number;
}

/** An agent's answer for one turn. */
export interface AgentReply {
  rationale: string;
  note: string;
  actions: ToolCall[];
  /** Token use over every request this turn (retries included). */
  usage?: Usage;
  /** Replies refused as invalid and re-asked this turn. */
  invalidReplies?: number;
  /** API retries this turn (timeouts, 429, 5xx). */
  apiRetries?: number;
  /** The agent could not produce a reply (API failures past retries): the episode is abandoned. */
  abandoned?: { reason: string };
  /** The agent gives up (a person's "Give up" button): the episode ends unsolved, no call runs. */
  gaveUp?: true;
  /** Raw text of the accepted reply, for the log. */
  raw?: string;
  /** A digest of the request that produced the reply (for logs and the response cache). */
  requestDigest?: string;
  /** Every request sent this turn, in order (model agents). */
  requests?: RequestRecord[];
  /**
   * Set when every reply this turn was refused: the problems of the last one. The turn runs
   * no calls, the note is kept, and the agent is shown these problems in its history.
   */
  refused?: string[];
}

/** Context an agent gets once per episode. */
export interface EpisodeStart {
  /** What the agent is told about the instance (never the scene or the answer). */
  instance: InstanceView;
  tools: ToolSpec[];
  mode: Mode;
  /**
   * Simulates a call on the live world and rolls it back: what a look-ahead baseline may use.
   * Models never get it.
   */
  preview(call: ToolCall): { result: CallResult; progress: number; solved: boolean };
}

/**
 * What the loop hands, apart from the public view, to an agent that declares itself
 * `privileged`: the instance's verified reference solution. Only oracle baselines (the
 * reference agent) ask for it; models and people never get it.
 */
export interface PrivilegedChannel {
  reference(): Promise<ReferenceSolution>;
}

/**
 * Anything that plays an episode: a model, a baseline, the reference solver, a person. All
 * go through the same loop (`agents/loop.ts`).
 */
export interface Agent {
  /** e.g. `reference`, `random`, `openai:gpt-x` */
  readonly name: string;
  /** Settings recorded in the log header (never secrets). */
  readonly settings: Record<string, unknown>;
  /** False when the agent never looks at images, so the loop may skip rendering. */
  readonly needsImages: boolean;
  /** True for an oracle baseline that plays the verified solution: the loop then passes it the {@link PrivilegedChannel}. */
  readonly privileged?: boolean;
  start(ctx: EpisodeStart, privileged?: PrivilegedChannel): Promise<void> | void;
  act(obs: Observation): Promise<AgentReply>;
  /** Release connections, browsers, worker processes. */
  close?(): Promise<void> | void;
}

/** The loop's record of one turn. */
export interface TurnRecord {
  turn: number;
  worldTimeBefore: number;
  worldTimeAfter: number;
  /** Captions and kinds of the images shown (the PNGs are handed to the logger separately). */
  images: Array<{ kind: ObservationImage['kind']; caption: string }>;
  reply: {
    rationale: string;
    note: string;
    actions: ToolCall[];
    usage?: Usage;
    invalidReplies?: number;
    apiRetries?: number;
    raw?: string;
    requestDigest?: string;
    requests?: RequestRecord[];
    refused?: string[];
    /** Set on the turn that abandoned the episode, so a resumed run ends it the same way. */
    abandoned?: { reason: string };
    /** Set on the turn the agent gave up on, so a resumed run ends it the same way. */
    gaveUp?: true;
  };
  results: CallResult[];
  stateHash: string;
  /**
   * The family's progress measure before and after the turn (for analysis: loops and stalls
   * are turns without progress). Logged, never shown to the agent; absent in older logs.
   */
  progress?: { before: number; after: number };
}

/** The outcome of one episode, before scoring. */
export interface EpisodeOutcome {
  instance: string;
  family: string;
  tier: string;
  agent: string;
  mode: string;
  solved: boolean;
  terminated: boolean;
  truncated: boolean;
  abandoned: boolean;
  abandonReason?: string;
  endReason: 'solved' | 'commit' | 'failed' | 'gave-up' | 'turn-budget' | 'action-budget' | 'abandoned' | 'stopped';
  turns: number;
  /** Executed non-perception calls (violations included). */
  actions: number;
  perceptionActions: number;
  violations: number;
  invalidCalls: number;
  invalidReplies: number;
  progress: number;
  finalStateHash: string;
  worldTime: number;
  usage: Usage;
}
