/**
 * The HTTP mechanism shared by the play page's server (`play/server.ts`) and the episode server
 * (`play/serve.ts`): listening on 127.0.0.1 only, the Host and Origin checks against DNS
 * rebinding and other sites, the body size cap, JSON bodies, and refusals as structured JSON
 * whose message is ours, never the request's text.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpaceActError } from '../core/errors.ts';

/** Largest request body read by default, bytes (a turn is a few hundred bytes). */
export const MAX_BODY_BYTES = 256 * 1024;

/** The play page's content security policy: its own inline code, its own images and API only. */
export const PLAY_CSP =
  "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; form-action 'none'; base-uri 'none'";

/** Headers of every answer. */
export const COMMON_HEADERS: Readonly<Record<string, string>> = {
  // frame-ancestors works only as a header, so the page's <meta> copy leaves it out.
  'Content-Security-Policy': `${PLAY_CSP}; frame-ancestors 'none'`,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'X-Frame-Options': 'DENY',
};

/**
 * A refusal with its HTTP status. `code` is a stable word a program can branch on
 * (`bad-host`, `too-large`, `invalid-reply`, …); the message is ours, never the request's text;
 * `problems` lists what was wrong with a reply.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly problems: string[] = [],
    readonly code: string = codeOfStatus(status),
  ) {
    super(message);
  }
}

/** The default `code` of a status. */
function codeOfStatus(status: number): string {
  const codes: Record<number, string> = {
    400: 'bad-request',
    403: 'cross-origin',
    404: 'not-found',
    405: 'method-not-allowed',
    409: 'conflict',
    413: 'too-large',
    415: 'unsupported-media-type',
    421: 'bad-host',
    429: 'too-many',
    500: 'internal',
  };
  return codes[status] ?? 'error';
}

/**
 * A JSON-speaking HTTP server bound to 127.0.0.1. Subclasses answer {@link route}; every
 * request first passes the Host and Origin checks, and anything thrown becomes a JSON refusal
 * (`{error, code?, problems?}`), an unexpected failure a bare 500 that reveals nothing.
 */
export abstract class LoopbackJsonServer {
  private server: Server | null = null;
  private port = 0;

  /** Largest request body read, bytes. */
  protected maxBodyBytes = MAX_BODY_BYTES;
  /** Refusals carry their stable `code` word (the episode server's clients branch on it). */
  protected errorCodes = false;

  /** Answers one request that passed the Host and Origin checks. */
  protected abstract route(req: IncomingMessage, res: ServerResponse): Promise<void>;

  /** Starts listening on 127.0.0.1 (`port` 0: any free port); returns the root URL. */
  async listen(port = 0): Promise<string> {
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new SpaceActError('invalid-argument', `--port must be a whole number from 0 to 65535, got ${port}`);
    const server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => this.fail(res, err));
    });
    // A client that resets its connection mid-request must not reach the process as an error.
    server.on('clientError', (_err, socket) => socket.destroy());
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

  /** The root URL (`http://127.0.0.1:PORT/`). */
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

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.checkOrigin(req);
    await this.route(req, res);
  }

  /** Sends a body with the common headers. */
  protected send(res: ServerResponse, status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}): void {
    res.writeHead(status, { ...COMMON_HEADERS, ...headers, 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  }

  /** Sends a JSON value. */
  protected json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
    this.send(res, status, 'application/json; charset=utf-8', JSON.stringify(value), headers);
  }

  /** Answers a failure: an {@link HttpError} as it says, anything else as a bare 500. */
  protected fail(res: ServerResponse, err: unknown): void {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const code = (c: string): { code?: string } => (this.errorCodes ? { code: c } : {});
    if (err instanceof HttpError) this.json(res, err.status, { error: err.message, ...code(err.code), ...(err.problems.length ? { problems: err.problems } : {}) });
    else this.json(res, 500, { error: 'internal error', ...code('internal') });
  }

  /** Rejects requests addressed to another host name (DNS rebinding) or sent by another site. */
  private checkOrigin(req: IncomingMessage): void {
    const hosts = [`127.0.0.1:${this.port}`, `localhost:${this.port}`];
    if (!hosts.includes(req.headers.host ?? '')) throw new HttpError(421, 'this server answers only 127.0.0.1');
    const origin = req.headers.origin;
    if (origin !== undefined && !hosts.some((h) => origin === `http://${h}`)) throw new HttpError(403, 'cross-origin requests are refused');
  }

  /** The request's body as text: JSON only, at most {@link maxBodyBytes}. */
  protected async body(req: IncomingMessage): Promise<string> {
    const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (type !== 'application/json') throw new HttpError(415, 'send the body as application/json');
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > this.maxBodyBytes) throw new HttpError(413, `the request body is larger than ${this.maxBodyBytes} bytes`);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > this.maxBodyBytes) throw new HttpError(413, `the request body is larger than ${this.maxBodyBytes} bytes`);
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /** The request's body as a JSON object (`shape` names the expected object in the error). */
  protected async jsonObject(req: IncomingMessage, shape: string): Promise<Record<string, unknown>> {
    const text = await this.body(req);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new HttpError(400, 'the body is not valid JSON');
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new HttpError(400, `the body must be an object ${shape}`);
    return parsed as Record<string, unknown>;
  }
}
