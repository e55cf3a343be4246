import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkReply, nestingExceeds } from '../agents/reply-parser.ts';
import { SpaceActError } from '../core/errors.ts';
import type { PlaySession } from './human-agent.ts';
import type { PlayStateBuilder } from './state.ts';

/** Largest request body read, bytes (a turn is a few hundred bytes). */
export const MAX_BODY_BYTES = 256 * 1024;
/** Deepest nesting of a turn's reply accepted (a real one is 4 levels deep). */
const MAX_REPLY_DEPTH = 32;

/** The play page's content security policy: its own inline code, its own images and API only. */
export const PLAY_CSP =
  "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; form-action 'none'; base-uri 'none'";

const COMMON_HEADERS: Record<string, string> = {
  // frame-ancestors works only as a header, so the page's <meta> copy leaves it out.
  'Content-Security-Policy': `${PLAY_CSP}; frame-ancestors 'none'`,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'X-Frame-Options': 'DENY',
};

/** A refusal with its HTTP status; the message is ours, never the request's text. */
class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly problems: string[] = [],
  ) {
    super(message);
  }
}

/**
 * The play page's HTTP server, bound to 127.0.0.1 only. Routes: `GET /` (the page),
 * `GET /api/state` (the state as JSON), `GET /api/image/<id>` (a PNG of the current
 * observation), `POST /api/turn` (the person's turn: `{version, reply: {rationale, note,
 * actions}}`, checked exactly as a model's reply is; answered with the next state once the
 * turn has run). Anything else is 404; a request for another host, from another origin, or
 * with a bad body is refused without echoing it.
 */
export class PlayServer {
  private server: Server | null = null;
  private port = 0;

  constructor(
    private readonly session: PlaySession,
    private readonly states: PlayStateBuilder,
    private readonly page: string,
  ) {}

  /** Starts listening on 127.0.0.1 (`port` 0: any free port); returns the page's URL. */
  async listen(port = 0): Promise<string> {
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new SpaceActError('invalid-argument', `--port must be a whole number from 0 to 65535, got ${port}`);
    const server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => this.fail(res, err));
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', (err: NodeJS.ErrnoException) =>
        reject(new SpaceActError('io', `cannot listen on 127.0.0.1:${port}: ${err.code ?? err.message}`, { port })),
      );
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    return this.url;
  }

  /** The page's URL. */
  get url(): string {
    return `http://127.0.0.1:${this.port}/`;
  }

  /** Stops accepting requests, lets answers in flight finish (2 s at most), and closes. */
  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const timer = setTimeout(() => server.closeAllConnections(), 2000);
    await closed;
    clearTimeout(timer);
  }

  private send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
    res.writeHead(status, { ...COMMON_HEADERS, 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  }

  private json(res: ServerResponse, status: number, value: unknown): void {
    this.send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
  }

  private fail(res: ServerResponse, err: unknown): void {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (err instanceof HttpError) this.json(res, err.status, { error: err.message, ...(err.problems.length ? { problems: err.problems } : {}) });
    else this.json(res, 500, { error: 'internal error' });
  }

  /** Rejects requests addressed to another host name (DNS rebinding) or sent by another site. */
  private checkOrigin(req: IncomingMessage): void {
    const hosts = [`127.0.0.1:${this.port}`, `localhost:${this.port}`];
    if (!hosts.includes(req.headers.host ?? '')) throw new HttpError(421, 'this server answers only 127.0.0.1');
    const origin = req.headers.origin;
    if (origin !== undefined && !hosts.some((h) => origin === `http://${h}`)) throw new HttpError(403, 'cross-origin requests are refused');
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.checkOrigin(req);
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

  private async body(req: IncomingMessage): Promise<string> {
    const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (type !== 'application/json') throw new HttpError(415, 'send the turn as application/json');
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) throw new HttpError(413, `the request body is larger than ${MAX_BODY_BYTES} bytes`);
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /** `POST /api/give-up` with `{version}`: the episode ends unsolved now; answers with the end state. */
  private async giveUp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { version, ...rest } = (await this.jsonObject(req, '{version}')) as { version?: unknown };
    if (Object.keys(rest).length) throw new HttpError(400, 'the body may hold only "version"');
    if (!Number.isInteger(version)) throw new HttpError(400, '"version" must be the whole number of the state given up on');
    const s = this.session;
    if (s.status !== 'waiting') throw new HttpError(409, `no turn is awaited now (the episode is ${s.status})`);
    if (version !== s.version) throw new HttpError(409, 'this answers an older state; reload the page');
    const before = s.version;
    if (!s.giveUp()) throw new HttpError(409, 'no turn is awaited now');
    await this.settled(before);
    this.json(res, 200, this.states.state());
  }

  /** The request's body as a JSON object (`shape` names the expected object in the error). */
  private async jsonObject(req: IncomingMessage, shape: string): Promise<object> {
    const text = await this.body(req);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new HttpError(400, 'the body is not valid JSON');
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new HttpError(400, `the body must be an object ${shape}`);
    return parsed;
  }

  /** Waits until the session has left `running` after the change past `version` (the next observation, or the end). */
  private async settled(version: number): Promise<void> {
    const s = this.session;
    let v = version + 1;
    // (Read through a function: the status changes while this handler waits.)
    const running = (): boolean => s.status === 'running';
    while (running()) {
      await s.changed(v);
      v = s.version;
    }
  }

  private async turn(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { version, reply, ...rest } = (await this.jsonObject(req, '{version, reply}')) as { version?: unknown; reply?: unknown };
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
    await this.settled(before);
    this.json(res, 200, this.states.state());
  }
}
