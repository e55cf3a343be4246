import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkReply, nestingExceeds } from '../agents/reply-parser.ts';
import type { PlaySession } from './human-agent.ts';
import { COMMON_HEADERS, HttpError, LoopbackJsonServer } from './loopback-http.ts';
import type { PlayStateBuilder } from './state.ts';

// Where they always were, for importers of the play server.
export { MAX_BODY_BYTES, PLAY_CSP } from './loopback-http.ts';

/** Deepest nesting of a turn's reply accepted (a real one is 4 levels deep). */
export const MAX_REPLY_DEPTH = 32;

/**
 * The play page's HTTP server, bound to 127.0.0.1 only. Routes: `GET /` (the page),
 * `GET /api/state` (the state as JSON), `GET /api/image/<id>` (a PNG of the current
 * observation), `POST /api/turn` (the person's turn: `{version, reply: {rationale, note,
 * actions}}`, checked exactly as a model's reply is; answered with the next state once the
 * turn has run). Anything else is 404; a request for another host, from another origin, or
 * with a bad body is refused without echoing it.
 */
export class PlayServer extends LoopbackJsonServer {
  constructor(
    private readonly session: PlaySession,
    private readonly states: PlayStateBuilder,
    private readonly page: string,
  ) {
    super();
  }

  protected async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    const method = req.method ?? 'GET';
    if (path === '/' && method === 'GET') return this.send(res, 200, 'text/html; charset=utf-8', this.page);
    // Browsers ask for it unprompted; an empty answer keeps their consoles clean.
    if (path === '/favicon.ico' && method === 'GET') {
      res.writeHead(204, COMMON_HEADERS);
      res.end();
      return;
    }
    if (path === '/api/state' && method === 'GET') return this.json(res, 200, this.states.state());
    const image = /^\/api\/image\/([0-9]{1,9}-[a-z0-9-]{1,24})$/.exec(path);
    if (image && method === 'GET') {
      const png = this.states.image(image[1]);
      if (!png) throw new HttpError(404, 'no such image (the observation has moved on)');
      return this.send(res, 200, 'image/png', png);
    }
    if (path === '/api/turn' && method === 'POST') return this.turn(req, res);
    if (path === '/api/give-up' && method === 'POST') return this.giveUp(req, res);
    if (['/', '/api/state', '/api/turn', '/api/give-up'].includes(path) || image) throw new HttpError(405, 'method not allowed');
    throw new HttpError(404, 'not found');
  }

  /** `POST /api/give-up` with `{version}`: the episode ends unsolved now; answers with the end state. */
  private async giveUp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { version, ...rest } = await this.jsonObject(req, '{version}');
    if (Object.keys(rest).length) throw new HttpError(400, 'the body may hold only "version"');
    if (!Number.isInteger(version)) throw new HttpError(400, '"version" must be the whole number of the state given up on');
    const s = this.session;
    if (s.status !== 'waiting') throw new HttpError(409, `no turn is awaited now (the episode is ${s.status})`);
    if (version !== s.version) throw new HttpError(409, 'this answers an older state; reload the page');
    const before = s.version;
    if (!s.giveUp()) throw new HttpError(409, 'no turn is awaited now');
    await s.settled(before);
    this.json(res, 200, this.states.state());
  }

  private async turn(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { version, reply, ...rest } = await this.jsonObject(req, '{version, reply}');
    if (Object.keys(rest).length) throw new HttpError(400, 'the body may hold only "version" and "reply"');
    if (!Number.isInteger(version)) throw new HttpError(400, '"version" must be the whole number of the state the turn answers');
    if (!reply || typeof reply !== 'object' || Array.isArray(reply)) throw new HttpError(400, '"reply" must be an object {rationale, note, actions}');
    // Checked before anything recursive (JSON.stringify overflows the stack at ~10,000 levels).
    if (nestingExceeds(reply, MAX_REPLY_DEPTH)) throw new HttpError(400, `the reply is nested deeper than ${MAX_REPLY_DEPTH} levels`);
    const s = this.session;
    const obs = s.observation;
    if (s.status !== 'waiting' || !obs) throw new HttpError(409, `no turn is awaited now (the episode is ${s.status})`);
    if (version !== s.version) throw new HttpError(409, 'this turn answers an older state; reload the page');
    // The same check a model's reply gets: schema, action cap, every call against its tool.
    const check = checkReply(JSON.stringify(reply), { tools: obs.tools, actionCap: obs.actionCap, noteRequired: !obs.mode.nonote });
    if (!check.ok) throw new HttpError(400, 'the turn was refused; nothing ran', check.problems);
    const before = s.version;
    if (!s.submit({ rationale: check.reply.rationale, note: check.reply.note, actions: check.reply.actions })) {
      throw new HttpError(409, 'no turn is awaited now');
    }
    // Answer with the state after the turn: the next observation, or the end.
    await s.settled(before);
    this.json(res, 200, this.states.state());
  }
}
