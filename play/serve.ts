/**
 * `spaceact serve`: an HTTP/JSON episode server on 127.0.0.1 for agents written in any
 * language. A client creates an episode (an instance id and a mode), reads the observation a
 * model gets, sends replies in the SAPA format (checked by the same parser as a model's text),
 * and gets the results of its calls and the next observation, until the episode ends.
 *
 * Each episode runs through the product's one episode runner (`agents/episode-runner.ts` →
 * `agents/loop.ts`) with a {@link SessionAgent} waiting on a {@link PlaySession}, exactly as
 * the play page drives it for a person, and is logged into the server's run folder as a `run`
 * logs it (`episodes/<id>/log.jsonl` and its pictures, `summary.json`), so `report`, `analyze`
 * and `leaderboard` read the folder. Routes and shapes: `docs/serve.md`, `docs/serve-openapi.json`.
 */
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';
import { endReasonText } from '../agents/end-reasons.ts';
import { EpisodeLog, LogDamageError } from '../agents/episode-log.ts';
import { roundCost, summaryEntry } from '../agents/episode-runner.ts';
import { outFolderError, refuseSpecialFolder } from '../agents/fs-errors.ts';
import { modeName, parseMode, type Mode } from '../agents/modes.ts';
import { checkReply, nestingExceeds } from '../agents/reply-parser.ts';
import { RUN_DEFAULTS } from '../agents/run-defaults.ts';
import { folderEpisodes, lockRunFolder, runLoggedEpisodeResult, writeSummary, type RunStop, type RunSummary, type SummaryEntry } from '../agents/runner.ts';
import type { ObservationImage } from '../agents/types.ts';
import { SpaceActError } from '../core/errors.ts';
import { packageVersion } from '../core/package-info.ts';
import { Renderer } from '../render/renderer.ts';
import { familyAndInstanceFromId } from '../tasks/registry.ts';
import type { Instance } from '../tasks/types.ts';
import { PlayInterrupted, PlaySession, SessionAgent } from './human-agent.ts';
import { HttpError, LoopbackJsonServer } from './loopback-http.ts';
import { MAX_REPLY_DEPTH } from './server.ts';
import { ServedStateBuilder, type ServedState, type ServedStateOptions, type ServedTurn } from './serve-state.ts';

/** Episodes waiting for their client at once, by default. */
export const DEFAULT_MAX_LIVE = 4;
/** Largest request body of the episode server, bytes (a reply's text may be up to the parser's 400,000 characters). */
export const SERVE_MAX_BODY_BYTES = 512 * 1024;
/** An agent label a client may give: logged as agent `http:<label>`. */
const LABEL = /^[A-Za-z0-9][A-Za-z0-9._-]{0,47}$/;
/** What an instance id or a mode may look like before it is looked up (so no error echoes arbitrary text). */
const INSTANCE_TEXT = /^[A-Za-z0-9-]{1,40}$/;
const MODE_TEXT = /^[a-z0-9+,-]{0,80}$/;
/** Settings recorded in every served episode's log header. */
const AGENT_SETTINGS = { interface: 'spaceact serve (HTTP/JSON)' };

/** Options of {@link startServe}. */
export interface ServeOptions {
  /** The run folder every episode is logged into. */
  out: string;
  /** Port on 127.0.0.1 (default 0: any free port). */
  port?: number;
  /** Mode of an episode whose request names none (default `default`). */
  mode?: string;
  /** Agent label of an episode whose request names none: logged as `http:<label>` (none: `http`). */
  agent?: string;
  /** Episodes in play at once (default {@link DEFAULT_MAX_LIVE}). */
  maxLive?: number;
}

/** One episode of the server. */
interface ServedEpisode {
  instance: Instance;
  session: PlaySession;
  states: ServedStateBuilder;
  log: EpisodeLog;
  /** Settles when the episode's run has returned (ended, stopped or failed). */
  done: Promise<void>;
}

/** The agent name logged for a label. */
function agentName(label: string | undefined): string {
  return label ? `http:${label}` : 'http';
}

/** Reads a query flag (`?images=base64`, `?prompt=1`). */
function stateOptions(url: URL): ServedStateOptions {
  return { inlineImages: url.searchParams.get('images') === 'base64', prompt: ['1', 'true'].includes(url.searchParams.get('prompt') ?? '') };
}

/**
 * The episode server. Routes (all JSON but the pictures):
 * - `GET /api` — the server: version, log folder, the folder's agent and mode, limits;
 * - `GET /api/episodes` — the episodes of this server;
 * - `POST /api/episodes` `{instance, mode?, agent?}` — starts (or continues an unfinished log of) an episode;
 *   answers 201 with its first observation;
 * - `GET /api/episodes/<id>` — the observation now (or the end);
 * - `POST /api/episodes/<id>/turn` `{turn, reply}` — one reply (an object or the reply's text);
 *   answers the turn's results and the next observation;
 * - `POST /api/episodes/<id>/give-up` `{turn}` — ends the episode unsolved;
 * - `GET /api/episodes/<id>/images/<name>.png` — a picture of the current observation.
 * A refused request changes nothing and is answered `{error, code, problems?}`.
 */
export class EpisodeServer extends LoopbackJsonServer {
  private readonly episodes = new Map<string, ServedEpisode>();
  /** The folder's agent and mode, once known (from its logs or its first episode). */
  private identity: { agent: string; mode: string } | null = null;
  private renderer: Renderer | null = null;
  private closing = false;
  private summaryTimer: NodeJS.Timeout | null = null;
  private unlock: (() => void) | null = null;
  private readonly maxLive: number;
  private readonly defaultMode: Mode;
  private readonly defaultLabel: string | undefined;
  /** The run folder (absolute). */
  readonly out: string;
  /** The summary last written (null before the first episode of a new folder). */
  summary: RunSummary | null = null;

  constructor(opts: ServeOptions) {
    super();
    this.errorCodes = true;
    this.maxBodyBytes = SERVE_MAX_BODY_BYTES;
    this.out = resolve(opts.out);
    this.maxLive = opts.maxLive ?? DEFAULT_MAX_LIVE;
    if (!Number.isInteger(this.maxLive) || this.maxLive < 1 || this.maxLive > 64) throw new SpaceActError('invalid-argument', `--max-live must be a whole number from 1 to 64, got ${opts.maxLive}`);
    this.defaultMode = parseMode(opts.mode);
    if (opts.agent !== undefined && !LABEL.test(opts.agent)) throw new SpaceActError('invalid-argument', '--agent must be 1–48 letters, digits, dots, dashes or underscores, starting with a letter or digit');
    this.defaultLabel = opts.agent;
  }

  /**
   * Takes the run folder (locked while the server runs, as a run locks it), checks its logs
   * (a damaged one stops the start, naming it), and starts listening.
   */
  async start(port = 0): Promise<string> {
    const out = this.out;
    if (existsSync(out) && !statSync(out).isDirectory()) throw new SpaceActError('io', `--out ${out} is a file, not a folder`, { path: out });
    refuseSpecialFolder(out);
    try {
      mkdirSync(out, { recursive: true });
    } catch (err) {
      throw outFolderError(out, err);
    }
    this.unlock = lockRunFolder(out);
    try {
      for (const e of folderEpisodes(out)) {
        if (e.contents.damage) throw new LogDamageError(e.log.file, e.contents.damage);
        const h = e.contents.header;
        if (h && !this.identity) this.identity = { agent: h.agent.name, mode: h.mode };
      }
      return await this.listen(port);
    } catch (err) {
      this.unlock();
      this.unlock = null;
      throw err;
    }
  }

  /**
   * Stops: episodes still waiting for their client are stopped (their logs keep every finished
   * turn; creating the same episode on a server of the same folder continues them), the summary
   * is written, the browser closed and the folder unlocked.
   */
  override async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    for (const ep of this.episodes.values()) if (['starting', 'waiting', 'running'].includes(ep.session.status)) ep.session.interrupt('the server was stopped');
    await Promise.all([...this.episodes.values()].map((ep) => ep.done));
    await super.close();
    if (this.summaryTimer) clearTimeout(this.summaryTimer);
    try {
      this.writeSummary();
    } finally {
      await this.renderer?.close().catch(() => undefined);
      this.renderer = null;
      this.unlock?.();
      this.unlock = null;
    }
  }

  /** `summary.json` of the folder, rebuilt from its logs (earlier servers' episodes included). */
  writeSummary(): RunSummary | null {
    if (!this.identity) return null;
    const episodes: SummaryEntry[] = [];
    const unfinished: string[] = [];
    for (const e of folderEpisodes(this.out)) {
      if (!e.contents.header) continue;
      const end = e.contents.end;
      if (end) episodes.push(summaryEntry(end.outcome, end.score, end.referenceActions));
      else unfinished.push(e.id);
    }
    const totals: RunSummary['totals'] = {
      episodes: episodes.length,
      solved: episodes.filter((e) => e.solved).length,
      abandoned: episodes.filter((e) => e.abandoned).length,
      inputTokens: episodes.reduce((s, e) => s + e.inputTokens, 0),
      outputTokens: episodes.reduce((s, e) => s + e.outputTokens, 0),
    };
    if (episodes.some((e) => e.cost !== undefined)) totals.cost = roundCost(episodes.reduce((s, e) => s + (e.cost ?? 0), 0));
    const summary: RunSummary = {
      package: { name: 'spaceact', version: packageVersion() },
      agent: { name: this.identity.agent, settings: AGENT_SETTINGS },
      mode: this.identity.mode,
      episodes,
      totals,
      unfinished,
    };
    if (unfinished.length) {
      const stopped: RunStop = { reason: 'requested', message: 'episodes left unfinished when the server stopped; create them again on `spaceact serve` with the same --out to continue' };
      if (this.closing) summary.stopped = stopped;
    }
    writeSummary(this.out, summary);
    this.summary = summary;
    return summary;
  }

  /** Rewrites the summary soon (several episodes ending together write it once). */
  private summarySoon(): void {
    if (this.summaryTimer || this.closing) return;
    this.summaryTimer = setTimeout(() => {
      this.summaryTimer = null;
      try {
        this.writeSummary();
      } catch {
        // The next end or the close writes it again; the logs are the record.
      }
    }, 200);
  }

  protected async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    const allow = (ok: string): void => {
      if (method !== ok) throw new HttpError(405, `use ${ok} here`);
    };
    if (path === '/api' || path === '/api/') {
      allow('GET');
      return this.json(res, 200, this.info());
    }
    if (path === '/api/episodes') {
      if (method === 'POST') return this.create(req, res, url);
      allow('GET');
      return this.json(res, 200, { episodes: [...this.episodes.values()].map((ep) => this.listing(ep)) });
    }
    const m = /^\/api\/episodes\/([A-Za-z0-9-]{1,40})(\/turn|\/give-up|\/images\/([0-9]{1,9}-[a-z0-9-]{1,24}\.png))?$/.exec(path);
    if (!m) throw new HttpError(404, 'not found (see GET /api for the routes)');
    const ep = this.episodes.get(m[1]);
    if (!ep) throw new HttpError(404, 'no such episode on this server (create it with POST /api/episodes)', [], 'unknown-episode');
    if (m[2] === '/turn') {
      allow('POST');
      return this.turn(req, res, ep, url);
    }
    if (m[2] === '/give-up') {
      allow('POST');
      return this.giveUp(req, res, ep, url);
    }
    allow('GET');
    if (m[3]) {
      const png = ep.states.image(m[3]);
      if (!png) throw new HttpError(404, 'no such picture (the observation has moved on)', [], 'unknown-image');
      return this.send(res, 200, 'image/png', png);
    }
    return this.json(res, 200, ep.states.state(stateOptions(url)));
  }

  private info(): Record<string, unknown> {
    return {
      name: 'spaceact serve',
      version: packageVersion(),
      out: this.out,
      agent: this.identity?.agent ?? null,
      mode: this.identity?.mode ?? null,
      defaults: { agent: agentName(this.defaultLabel), mode: modeName(this.defaultMode) },
      limits: { maxBodyBytes: this.maxBodyBytes, maxLive: this.maxLive, maxReplyDepth: MAX_REPLY_DEPTH },
      modes: ['default', 'plan', 'state', 'no-camera', 'blind', 'nonote', 'nosplit', 'cap1'],
    };
  }

  private listing(ep: ServedEpisode): Record<string, unknown> {
    const s = ep.session;
    return {
      episode: ep.instance.id,
      status: s.status,
      ...(s.outcome ? { solved: s.outcome.solved, endReason: s.outcome.endReason, endText: endReasonText(s.outcome.endReason) } : {}),
      url: `/api/episodes/${ep.instance.id}`,
    };
  }

  private live(): number {
    return [...this.episodes.values()].filter((ep) => ['starting', 'waiting', 'running'].includes(ep.session.status)).length;
  }

  /** `POST /api/episodes`: checks everything first, so a refused request starts nothing. */
  private async create(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const body = await this.jsonObject(req, '{instance, mode?, agent?}');
    const { instance: idText, mode: modeText, agent: label, ...rest } = body;
    if (Object.keys(rest).length) throw new HttpError(400, 'the body may hold only "instance", "mode" and "agent"');
    if (typeof idText !== 'string' || !INSTANCE_TEXT.test(idText)) throw new HttpError(400, '"instance" must be an instance id such as P6-L3-s100', [], 'unknown-instance');
    if (modeText !== undefined && (typeof modeText !== 'string' || !MODE_TEXT.test(modeText))) throw new HttpError(400, '"mode" must be mode names joined by +, e.g. "plan+nosplit"', [], 'invalid-mode');
    if (label !== undefined && (typeof label !== 'string' || !LABEL.test(label))) {
      throw new HttpError(400, '"agent" must be 1–48 letters, digits, dots, dashes or underscores, starting with a letter or digit', [], 'invalid-agent');
    }
    if (this.closing) throw new HttpError(409, 'the server is stopping', [], 'stopping');
    let instance: Instance;
    let mode: Mode;
    // The messages name only ids and modes checked above, never arbitrary text.
    try {
      instance = familyAndInstanceFromId(idText).instance;
    } catch (err) {
      if (err instanceof SpaceActError) throw new HttpError(404, err.message, [], 'unknown-instance');
      throw err;
    }
    try {
      mode = modeText === undefined ? this.defaultMode : parseMode(modeText);
    } catch (err) {
      if (err instanceof SpaceActError) throw new HttpError(400, err.message, [], 'invalid-mode');
      throw err;
    }
    const agent = agentName(label ?? this.defaultLabel);
    const modeText2 = modeName(mode);
    const id = instance.id;
    const existing = this.episodes.get(id);
    if (existing && existing.session.status !== 'failed') {
      throw new HttpError(409, `episode ${id} exists on this server (${existing.session.status}); GET /api/episodes/${id}`, [], existing.session.status === 'finished' ? 'episode-ended' : 'episode-exists');
    }
    if (this.identity && (this.identity.agent !== agent || this.identity.mode !== modeText2)) {
      throw new HttpError(
        409,
        `this log folder holds agent ${this.identity.agent} in mode ${this.identity.mode} (a run folder holds one agent and one mode); start another server with another --out for agent ${agent} in mode ${modeText2}`,
        [],
        'folder-mismatch',
      );
    }
    const log = new EpisodeLog(this.out, id);
    const earlier = log.read();
    if (earlier.end && !earlier.end.outcome.abandoned) throw new HttpError(409, `${id} already ended in this log folder (${endReasonText(earlier.end.outcome.endReason)})`, [], 'episode-ended');
    if (this.live() >= this.maxLive) throw new HttpError(429, `${this.maxLive} episodes are in play already; finish or give up one first`, [], 'too-many');

    this.identity ??= { agent, mode: modeText2 };
    const session = new PlaySession();
    const states = new ServedStateBuilder(session, {
      instance,
      agent,
      mode: modeText2,
      logFile: log.file,
      imagePath: `/api/episodes/${id}/images/`,
      loggedTurns: () => log.read().turns,
      finalImages: () => finalImages(log),
    });
    const ep: ServedEpisode = { instance, session, states, log, done: Promise.resolve() };
    this.episodes.set(id, ep);
    ep.done = this.play(ep, mode, agent);
    // Answer once the first observation is out (turns of an unfinished log are replayed first), or the episode is over.
    while (session.status === 'starting') await session.changed(session.version);
    this.json(res, 201, ep.states.state(stateOptions(url)), { Location: `/api/episodes/${id}` });
  }

  /** Runs the episode through the one episode runner; never rejects. */
  private async play(ep: ServedEpisode, mode: Mode, agent: string): Promise<void> {
    const { session, instance } = ep;
    try {
      const renderer = mode.blind ? null : (this.renderer ??= new Renderer());
      const result = await runLoggedEpisodeResult(
        instance.id,
        {
          makeAgent: () => new SessionAgent(session, agent, AGENT_SETTINGS, !mode.blind),
          mode,
          out: this.out,
          render: RUN_DEFAULTS.render,
          historyImages: RUN_DEFAULTS.historyImages,
        },
        renderer,
      );
      if (result) {
        session.finish(result.entry);
        // The pictures of an ended episode are served from its log; a long-running server keeps no PNGs of it.
        const obs = session.observation;
        if (obs) {
          obs.images = [];
          for (const h of obs.history) delete h.images;
        }
      } else session.interrupt('the episode was stopped before it ended');
    } catch (err) {
      if (err instanceof PlayInterrupted) {
        if (session.status !== 'stopped') session.interrupt('the episode was stopped');
      } else {
        session.fail(err instanceof Error ? err.message : String(err));
      }
    } finally {
      this.summarySoon();
    }
  }

  /** The turn number a body answers (`turn`), checked against the episode's state. */
  private awaited(ep: ServedEpisode, turn: unknown): void {
    const s = ep.session;
    if (s.status === 'finished') {
      throw new HttpError(409, `the episode has ended (${endReasonText(s.outcome?.endReason ?? 'stopped')}); nothing ran`, [], 'episode-ended');
    }
    if (s.status === 'failed' || s.status === 'stopped') throw new HttpError(409, `the episode is ${s.status}: ${s.message}`, [], 'episode-ended');
    if (s.status !== 'waiting' || !s.observation) throw new HttpError(409, `no reply is awaited now (the episode is ${s.status}); GET the episode and answer its turn`, [], 'not-awaited');
    if (!Number.isInteger(turn)) throw new HttpError(400, '"turn" must be the whole number of the turn this answers', [], 'bad-request');
    if (turn !== s.observation.turn) throw new HttpError(409, `this answers turn ${turn as number}, but turn ${s.observation.turn} is awaited; nothing ran`, [], 'stale-turn');
  }

  /** The answer to a turn: the results of the calls it ran and the state after it. */
  private afterTurn(ep: ServedEpisode, url: URL): { turn: ServedTurn | null; state: ServedState } {
    return { turn: ep.states.lastTurn(), state: ep.states.state(stateOptions(url)) };
  }

  /** `POST …/turn` `{turn, reply}`: the reply is checked as a model's is; a refused one changes nothing. */
  private async turn(req: IncomingMessage, res: ServerResponse, ep: ServedEpisode, url: URL): Promise<void> {
    const { turn, reply, ...rest } = await this.jsonObject(req, '{turn, reply}');
    if (Object.keys(rest).length) throw new HttpError(400, 'the body may hold only "turn" and "reply"');
    this.awaited(ep, turn);
    let text: string;
    if (typeof reply === 'string') text = reply;
    else if (reply && typeof reply === 'object' && !Array.isArray(reply)) {
      // Checked before anything recursive (JSON.stringify overflows the stack at ~10,000 levels).
      if (nestingExceeds(reply, MAX_REPLY_DEPTH)) throw new HttpError(400, `the reply is nested deeper than ${MAX_REPLY_DEPTH} levels; nothing ran`, [], 'invalid-reply');
      text = JSON.stringify(reply);
    } else throw new HttpError(400, '"reply" must be an object {rationale, note, actions} or the reply\'s text', [], 'invalid-reply');
    const s = ep.session;
    const obs = s.observation!;
    // The same check a model's reply text gets: schema, action cap, every call against its tool.
    const check = checkReply(text, { tools: obs.tools, actionCap: obs.actionCap, noteRequired: !obs.mode.nonote });
    if (!check.ok) throw new HttpError(400, 'the reply was refused; nothing ran and the turn is still awaited', check.problems, 'invalid-reply');
    const before = s.version;
    if (!s.submit({ rationale: check.reply.rationale, note: check.reply.note, actions: check.reply.actions })) throw new HttpError(409, 'no reply is awaited now', [], 'not-awaited');
    await s.settled(before);
    this.json(res, 200, this.afterTurn(ep, url));
  }

  /** `POST …/give-up` `{turn}`: the episode ends unsolved now (logged and scored like any end). */
  private async giveUp(req: IncomingMessage, res: ServerResponse, ep: ServedEpisode, url: URL): Promise<void> {
    const { turn, ...rest } = await this.jsonObject(req, '{turn}');
    if (Object.keys(rest).length) throw new HttpError(400, 'the body may hold only "turn"');
    this.awaited(ep, turn);
    const s = ep.session;
    const before = s.version;
    if (!s.giveUp()) throw new HttpError(409, 'no reply is awaited now', [], 'not-awaited');
    await s.settled(before);
    this.json(res, 200, this.afterTurn(ep, url));
  }
}

/** The final state's pictures a log wrote beside it (plain file names in the episode's folder only). */
function finalImages(log: EpisodeLog): ObservationImage[] {
  return (log.read().end?.finalImages ?? []).flatMap((f) => {
    const file = join(log.dir, f.file);
    return /^[A-Za-z0-9_.-]+\.png$/.test(f.file) && existsSync(file) ? [{ kind: f.kind, caption: f.caption, png: readFileSync(file) }] : [];
  });
}

/** Starts an episode server on 127.0.0.1 logging into `opts.out`; `close()` stops it. */
export async function startServe(opts: ServeOptions): Promise<EpisodeServer> {
  const server = new EpisodeServer(opts);
  await server.start(opts.port ?? 0);
  return server;
}
