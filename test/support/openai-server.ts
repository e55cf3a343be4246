import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HEADINGS } from '../../agents/prompt.ts';
import { sampleCall } from '../../agents/schema-sampler.ts';
import { familyAndInstanceFromId } from '../../tasks/registry.ts';
import { Rng } from '../../core/rng.ts';
import type { Instance, ToolCall, ToolSpec } from '../../tasks/types.ts';

/** One chat-completions request as the scripted server saw it. */
export interface ChatRequest {
  /** 1-based count of requests this server received. */
  n: number;
  body: { model?: string; messages?: Array<{ role: string; content: unknown }>; [k: string]: unknown };
  /** Every text part of every message, joined. */
  text: string;
  /** Text of the last user message (a re-ask after a refused reply shows up here). */
  lastUserText: string;
  /** Image URLs in the request, in order. */
  images: string[];
  /** SHA-256 of the whole request body: equal requests, equal digest. */
  digest: string;
  /** The bearer key the request carried (a misbehaving endpoint may reflect it). */
  bearer: string;
}

/**
 * Ways an endpoint, proxy or network misbehaves, each as a real HTTP exchange on the socket:
 * - `truncated`: a 200 JSON completion cut in half (complete HTTP framing, broken JSON);
 * - `not-json`: a 200 labelled JSON whose body is plain text;
 * - `html`: a 200 HTML page, as a captive portal or proxy error page sends;
 * - `error-object`: a 200 whose JSON is an error object, not a completion;
 * - `reset-before-headers`: the connection is dropped before any response byte;
 * - `reset-mid-body`: headers and half the body, then the connection is dropped;
 * - `stall`: nothing at all is sent until the client gives up (or `ms` pass);
 * - `trickle`: a good completion sent one byte every `intervalMs` (a slow gateway);
 * - `oversized`: a 200 body of `bytes` bytes of JSON whitespace.
 * `content` is the reply the good body would have carried (default: the script's next answer
 * is not consulted; a stock reply is used).
 */
export type FaultKindServed = 'truncated' | 'not-json' | 'html' | 'error-object' | 'reset-before-headers' | 'reset-mid-body' | 'stall' | 'trickle' | 'oversized';

/** A fault the server plays instead of an answer. */
export interface ScriptedFault {
  fault: FaultKindServed;
  content?: string;
  intervalMs?: number;
  ms?: number;
  bytes?: number;
  delayMs?: number;
}

/** What the script tells the server to answer. */
export type ScriptedResponse =
  | { content: string; finishReason?: string; usage?: { prompt_tokens: number; completion_tokens: number }; delayMs?: number }
  | { status: number; message: string; headers?: Record<string, string>; delayMs?: number }
  | { rawBody: string; status?: number; delayMs?: number; contentType?: string }
  | ScriptedFault;

/** Decides the answer to each request. */
export type Script = (req: ChatRequest) => ScriptedResponse | Promise<ScriptedResponse>;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Masks a key the way real endpoints echo it (first 5 and last 4 characters kept). */
function maskKey(key: string): string {
  return key.length > 10 ? `${key.slice(0, 5)}${'*'.repeat(key.length - 9)}${key.slice(-4)}` : '***';
}

/**
 * A small OpenAI-compatible chat-completions server on 127.0.0.1 (port 0), for tests and for
 * trying the model agent by hand. The real `openai` client talks to it over loopback. It
 * checks the bearer key when one is set (answering 401 with a masked echo of the wrong key,
 * as real endpoints do) and checks that every image is a PNG data URL (answering 400 if not).
 */
export class ScriptedOpenAIServer {
  readonly requests: ChatRequest[] = [];
  /** Problems found with images sent (should stay empty). */
  readonly imageProblems: string[] = [];
  /** Requests refused for a wrong or missing key. */
  unauthorized = 0;
  /** Faults played, by kind. */
  readonly faultsServed: Partial<Record<FaultKindServed, number>> = {};
  private readonly server: Server;
  private readonly timers = new Set<NodeJS.Timeout>();
  script: Script;
  private readonly apiKey: string | undefined;

  private constructor(script: Script, apiKey: string | undefined) {
    this.script = script;
    this.apiKey = apiKey;
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        if (!res.headersSent && !res.destroyed) this.json(res, 500, { error: { message: `script failed: ${String(err)}`, type: 'server_error' } });
      });
    });
  }

  /** Starts a server with `script`; `apiKey` makes it demand that bearer key. */
  static async start(script: Script, opts: { apiKey?: string; port?: number } = {}): Promise<ScriptedOpenAIServer> {
    const s = new ScriptedOpenAIServer(script, opts.apiKey);
    await new Promise<void>((resolve) => s.server.listen(opts.port ?? 0, '127.0.0.1', resolve));
    return s;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** The base URL to give the client (`http://127.0.0.1:PORT/v1`). */
  get url(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    if (res.destroyed || res.writableEnded) return;
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        resolve();
      }, ms);
      this.timers.add(t);
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      this.json(res, 404, { error: { message: `no route ${req.method} ${req.url}`, type: 'invalid_request_error' } });
      return;
    }
    if (this.apiKey !== undefined) {
      const auth = req.headers.authorization ?? '';
      const given = auth.startsWith('Bearer ') ? auth.slice(7) : '';
      if (given !== this.apiKey) {
        this.unauthorized += 1;
        this.json(res, 401, { error: { message: `Incorrect API key provided: ${maskKey(given)}.`, type: 'invalid_request_error', code: 'invalid_api_key' } });
        return;
      }
    }
    let body: ChatRequest['body'];
    try {
      body = JSON.parse(raw) as ChatRequest['body'];
    } catch {
      this.json(res, 400, { error: { message: 'body is not JSON', type: 'invalid_request_error' } });
      return;
    }
    const texts: string[] = [];
    const images: string[] = [];
    let lastUserText = '';
    for (const m of body.messages ?? []) {
      const parts = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? (m.content as Array<Record<string, unknown>>) : [];
      const own: string[] = [];
      for (const p of parts) {
        if (p.type === 'text' && typeof p.text === 'string') own.push(p.text);
        if (p.type === 'image_url') images.push(String((p.image_url as { url?: unknown } | undefined)?.url ?? ''));
      }
      texts.push(...own);
      if (m.role === 'user') lastUserText = own.join('\n');
    }
    for (const url of images) {
      const prefix = 'data:image/png;base64,';
      const ok = url.startsWith(prefix) && Buffer.from(url.slice(prefix.length, prefix.length + 16), 'base64').subarray(0, 8).equals(PNG_SIGNATURE);
      if (!ok) {
        this.imageProblems.push(`not a PNG data URL: ${url.slice(0, 40)}`);
        this.json(res, 400, { error: { message: 'every image must be a PNG data URL', type: 'invalid_request_error' } });
        return;
      }
    }
    const request: ChatRequest = {
      n: this.requests.length + 1,
      body,
      text: texts.join('\n'),
      lastUserText,
      images,
      digest: createHash('sha256').update(raw).digest('hex'),
      bearer: (req.headers.authorization ?? '').replace(/^Bearer /, ''),
    };
    this.requests.push(request);
    const answer = await this.script(request);
    if (answer.delayMs) await this.wait(answer.delayMs);
    if ('fault' in answer) {
      this.faultsServed[answer.fault] = (this.faultsServed[answer.fault] ?? 0) + 1;
      await this.playFault(req, res, answer, request);
      return;
    }
    if ('rawBody' in answer) {
      if (res.destroyed) return;
      res.writeHead(answer.status ?? 200, { 'content-type': answer.contentType ?? 'application/json' });
      res.end(answer.rawBody);
      return;
    }
    if ('status' in answer) {
      const type = answer.status === 429 ? 'rate_limit_exceeded' : answer.status >= 500 ? 'server_error' : 'invalid_request_error';
      this.json(res, answer.status, { error: { message: answer.message, type } }, answer.headers);
      return;
    }
    this.json(res, 200, completion(request, answer.content, answer.finishReason, answer.usage));
  }

  /** Plays one fault on the real socket. */
  private async playFault(req: IncomingMessage, res: ServerResponse, f: ScriptedFault, request: ChatRequest): Promise<void> {
    const good = JSON.stringify(completion(request, f.content ?? replyText([{ tool: 'view', args: { name: 'initial' } }], 'stock', 'stock reply')));
    const json = { 'content-type': 'application/json' };
    switch (f.fault) {
      case 'truncated':
        res.writeHead(200, json);
        res.end(good.slice(0, Math.floor(good.length / 2)));
        return;
      case 'not-json':
        res.writeHead(200, json);
        res.end('upstream connect error or disconnect/reset before headers. reset reason: overflow');
        return;
      case 'html':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><html><head><title>Gateway notice</title></head><body><h1>Please sign in to continue</h1><p>Your session expired.</p></body></html>');
        return;
      case 'error-object':
        res.writeHead(200, json);
        res.end(JSON.stringify({ error: { message: 'upstream model overloaded, try again', type: 'server_error' } }));
        return;
      case 'reset-before-headers':
        req.socket.destroy();
        return;
      case 'reset-mid-body': {
        res.writeHead(200, { ...json, 'content-length': String(Buffer.byteLength(good)) });
        res.write(good.slice(0, Math.floor(good.length / 2)));
        // Let the bytes leave before the connection is torn down mid-body.
        await this.wait(20);
        req.socket.destroy();
        return;
      }
      case 'stall':
        await this.untilClosed(res, f.ms ?? 600_000);
        if (!res.destroyed && !res.writableEnded) this.json(res, 200, JSON.parse(good));
        return;
      case 'trickle': {
        res.writeHead(200, { ...json, 'content-length': String(Buffer.byteLength(good)) });
        for (const ch of good) {
          if (res.destroyed) return;
          res.write(ch);
          await this.untilClosed(res, f.intervalMs ?? 1000);
        }
        res.end();
        return;
      }
      case 'oversized': {
        const total = f.bytes ?? 40 * 1024 * 1024;
        res.writeHead(200, json);
        const chunk = Buffer.alloc(1024 * 1024, 0x20);
        for (let sent = 0; sent < total && !res.destroyed; sent += chunk.length) {
          if (!res.write(chunk)) {
            await new Promise<void>((resolve) => {
              const done = (): void => {
                res.off('drain', done);
                res.off('close', done);
                resolve();
              };
              res.once('drain', done);
              res.once('close', done);
            });
          }
        }
        if (!res.destroyed) res.end('{}');
        return;
      }
    }
  }

  /** Waits `ms`, or less if the client goes away. */
  private untilClosed(res: ServerResponse, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(t);
        this.timers.delete(t);
        res.off('close', done);
        resolve();
      };
      const t = setTimeout(done, ms);
      this.timers.add(t);
      res.once('close', done);
    });
  }
}

/** A chat completion carrying `content`, with usage estimated from the request when not given. */
function completion(request: ChatRequest, content: string, finishReason = 'stop', given?: { prompt_tokens: number; completion_tokens: number }): Record<string, unknown> {
  const usage = given ?? {
    prompt_tokens: Math.ceil(request.text.length / 4) + 85 * request.images.length,
    completion_tokens: Math.ceil(content.length / 4),
  };
  return {
    id: `chatcmpl-${request.n}`,
    object: 'chat.completion',
    created: 0,
    model: request.body.model ?? 'scripted',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finishReason }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

/** A reply in the agent's format. */
export function replyText(actions: ToolCall[], note = '', rationale = 'scripted'): string {
  return JSON.stringify({ rationale, note, actions });
}

/** The section of the prompt under `heading`, up to the next heading. */
export function promptSection(text: string, heading: string): string | null {
  const at = text.lastIndexOf(`${heading}\n`);
  if (at < 0) return null;
  const rest = text.slice(at + heading.length + 1);
  const end = rest.search(/\n## /);
  return end < 0 ? rest : rest.slice(0, end);
}

/** The tools listed in a turn prompt, with their schemas. */
export function promptTools(text: string): ToolSpec[] {
  const section = promptSection(text, HEADINGS.tools) ?? '';
  const tools: ToolSpec[] = [];
  for (const m of section.matchAll(/^- ([a-z][a-z0-9_]*) \[(\w+)\]: ([\s\S]*?)\n {2}\([^\n]*\)\n {2}args schema: (.*)$/gm)) {
    tools.push({ name: m[1], kind: m[2] as ToolSpec['kind'], description: m[3], parameters: JSON.parse(m[4]) as Record<string, unknown> });
  }
  return tools;
}

/** The action cap a turn prompt states. */
export function promptActionCap(text: string): number {
  const m = /Send (?:exactly 1 call|1 to (\d+) calls) this turn/.exec(text);
  return m?.[1] ? Number(m[1]) : 1;
}

/**
 * Random valid calls, chosen from a generator seeded by the request itself: the same request
 * always gets the same answer, so a resumed run gets exactly the answers an uninterrupted run
 * got, and any difference in what it asks (history, note, images) shows. The note counts turns.
 */
export function randomScript(seed = 0): Script {
  return (req) => {
    const rng = new Rng(`scripted-random/${seed}/${req.digest}`);
    const tools = promptTools(req.text);
    const cap = promptActionCap(req.text);
    const note = promptSection(req.text, HEADINGS.note) ?? '';
    const seen = Number(/turns seen: (\d+)/.exec(note)?.[1] ?? 0);
    const actions: ToolCall[] = [];
    const n = rng.int(1, cap);
    for (let i = 0; i < n && tools.length; i++) {
      const c = sampleCall(rng.pick(tools), rng, tools);
      if (c) actions.push(c);
    }
    return { content: replyText(actions, `turns seen: ${seen + 1}`, `random pick ${req.digest.slice(0, 8)}`) };
  };
}

/**
 * Plays each instance's reference solution, finding the instance by its rules text among
 * `instanceIds`, and keeping its place in the plan in its own note (`ref-step N`), as a model
 * would keep its memory.
 */
export function referenceScript(instanceIds: string[]): Script {
  const known: Array<{ instance: Instance; calls: Promise<ToolCall[]> }> = instanceIds.map((id) => {
    const { family, instance } = familyAndInstanceFromId(id);
    return { instance, calls: Promise.resolve(family.reference(instance)).then((s) => s.calls) };
  });
  return async (req) => {
    const task = promptSection(req.text, HEADINGS.task) ?? '';
    const matches = known.filter((k) => task.includes(k.instance.rules) && task.includes(k.instance.title));
    if (matches.length !== 1) {
      return { content: `I cannot tell which task this is (${matches.length} candidates).` };
    }
    const calls = await matches[0].calls;
    const note = promptSection(req.text, HEADINGS.note) ?? '';
    const step = Number(/ref-step (\d+)/.exec(note)?.[1] ?? 0);
    const next = calls.slice(step, step + promptActionCap(req.text));
    const actions = next.length ? next : [{ tool: 'view', args: { name: 'initial' } }];
    return { content: replyText(actions, `ref-step ${step + next.length}`, `reference calls ${step + 1}..${step + next.length}`) };
  };
}
