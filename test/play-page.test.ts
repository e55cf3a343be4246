import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { EpisodeLog } from '../agents/episode-log.ts';
import type { RunSummary } from '../agents/runner.ts';
import { toolForm, type FormField } from '../play/form.ts';
import { startPlay, type PlayHandle } from '../play/play.ts';
import type { PlayState } from '../play/state.ts';
import { SpaceActError } from '../core/errors.ts';
import { CAMERA_TOOLS } from '../tasks/camera-tools.ts';
import { familyAndInstanceFromId } from '../tasks/registry.ts';
import { launchBrowser, watchedPage } from './support/report-browser.ts';
import { entry, writeHandmadeRun, XSS, XSS_ALL } from './support/report-run.ts';

// Seven moves, so the person's play takes two turns (P6 L1 draws 4–7 moves).
const ID = 'P6-L1-s103';

/** A raw HTTP request (fetch cannot set Host), answering status and body text. */
function raw(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: opts.method ?? 'GET', headers: opts.headers ?? {} }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

async function state(url: string): Promise<PlayState> {
  return (await (await fetch(new URL('/api/state', url))).json()) as PlayState;
}

async function waitForTurn(url: string): Promise<PlayState> {
  for (;;) {
    const s = await state(url);
    if (s.status === 'waiting') return s;
    if (s.status !== 'starting' && s.status !== 'running') throw new Error(`play session is ${s.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function postTurn(url: string, body: unknown): Promise<{ status: number; body: string }> {
  return raw(new URL('/api/turn', url).href, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
}

describe('spaceact play: a person plays an instance in the browser', function () {
  this.timeout(120000);
  let tmp: string;
  let browser: Browser;
  const open: PlayHandle[] = [];

  before(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'spaceact-play-'));
    browser = await launchBrowser();
  });
  after(async () => {
    for (const h of open) {
      h.stop();
      await h.done.catch(() => undefined);
    }
    await browser?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('builds each tool form from its argument schema', () => {
    const { instance } = familyAndInstanceFromId(ID);
    const move = toolForm(instance.tools.find((t) => t.name === 'move')!);
    expect(move.fields).to.deep.equal([
      { name: 'from', required: true, control: 'choice', style: 'buttons', options: ['A', 'B', 'C'].map((v) => ({ label: v, value: v })) },
      { name: 'to', required: true, control: 'choice', style: 'buttons', options: ['A', 'B', 'C'].map((v) => ({ label: v, value: v })) },
    ]);
    const zoom = toolForm(CAMERA_TOOLS.find((t) => t.name === 'zoom')!);
    expect(zoom.fields).to.deep.equal([{ name: 'factor', required: true, control: 'number', integer: false, min: 0.25, max: 4 }]);
    const orbit = toolForm(CAMERA_TOOLS.find((t) => t.name === 'orbit')!);
    expect(orbit.fields.map((f) => [f.name, f.required, f.control])).to.deep.equal([
      ['azimuth_deg', false, 'number'],
      ['elevation_deg', false, 'number'],
    ]);
    const made = toolForm({
      name: 'made',
      kind: 'physical',
      description: 'every kind of field',
      parameters: {
        type: 'object',
        properties: {
          count: { type: 'integer', minimum: 0, maximum: 9, description: 'how many' },
          hold: { type: 'boolean' },
          label: { type: 'string', maxLength: 12 },
          at: { type: 'array', items: { type: 'number', minimum: -1, maximum: 1 }, minItems: 3, maxItems: 3 },
          colour: { enum: ['red', 'green', 'blue', 'cyan', 'magenta', 'yellow', 'black', 'white', 'grey'] },
          mode: { const: 'fast' },
          shape: { type: 'object', properties: { r: { type: 'number' } } },
          gap: { type: 'number', exclusiveMinimum: 0 },
        },
        required: ['count', 'hold'],
      },
    });
    const by = (name: string): FormField => made.fields.find((f) => f.name === name)!;
    expect(by('count')).to.deep.equal({ name: 'count', required: true, control: 'number', integer: true, min: 0, max: 9, description: 'how many' });
    expect(by('hold')).to.deep.equal({ name: 'hold', required: true, control: 'checkbox' });
    expect(by('label')).to.deep.equal({ name: 'label', required: false, control: 'text', maxLength: 12 });
    expect(by('at')).to.deep.equal({ name: 'at', required: false, control: 'vector', length: 3, integer: false, min: -1, max: 1 });
    expect(by('colour')).to.include({ control: 'choice', style: 'select' });
    expect(by('mode')).to.deep.include({ control: 'choice', options: [{ label: 'fast', value: 'fast' }] });
    expect(by('shape')).to.include({ control: 'json' });
    expect(by('gap')).to.include({ control: 'number', exclusiveMin: 0 });
  });

  it('plays P6-L1-s103 to success by clicking the built buttons, logging it as a model run is logged', async () => {
    const out = join(tmp, 'solved');
    const handle = await startPlay({ instance: ID, out });
    open.push(handle);
    const { family, instance } = familyAndInstanceFromId(ID);
    const calls = (await family.reference(instance)).calls;
    expect(calls).to.have.length(7);
    const { page, watch } = await watchedPage(browser, { height: 1000 });
    await page.goto(handle.url);
    const seen: Buffer[] = [];
    const waitForVersion = (v: string): Promise<unknown> =>
      page.waitForFunction((old) => document.body.dataset.version !== old && /st-(waiting|finished)/.test(document.body.className), { timeout: 60000 }, v);
    for (let i = 0; i < calls.length; i += instance.budgets.actionsPerTurn) {
      await page.waitForSelector('body.st-waiting [data-add="move"]:not([disabled])', { timeout: 60000 });
      // What the page shows is what the model is shown; keep it to compare with the log.
      const src = await page.$eval('#images img', (img) => (img as HTMLImageElement).src);
      seen.push(Buffer.from(await (await fetch(src)).arrayBuffer()));
      for (const c of calls.slice(i, i + instance.budgets.actionsPerTurn)) {
        await page.click(`[data-tool="move"] [data-field="from"] button[data-label="${String(c.args.from)}"]`);
        await page.click(`[data-tool="move"] [data-field="to"] button[data-label="${String(c.args.to)}"]`);
        await page.click('[data-add="move"]');
      }
      expect(await page.$$eval('#queue li', (l) => l.length)).to.equal(Math.min(5, calls.length - i));
      await page.type('#rationale', i === 0 ? `first ${XSS_ALL}` : 'second');
      const version = await page.$eval('body', (b) => (b as HTMLElement).dataset.version ?? '');
      await page.click('#submit');
      await waitForVersion(version);
    }
    await page.waitForSelector('#outcome:not([hidden])');
    expect(await page.$eval("#outcome", (e) => e.textContent)).to.match(/Solved[\s\S]*score 100/);
    // The person's text came back in the history as text, not markup.
    const history = await page.$eval('#history', (e) => (e as HTMLElement).innerText);
    for (const payload of Object.values(XSS)) expect(history).to.include(payload);
    expect(await page.$$eval('img[src="x"], #xss-bold, svg[onload]', (e) => e.length)).to.equal(0);
    expect(watch.dialogs).to.deep.equal([]);
    expect(watch.errors).to.deep.equal([]);
    expect(watch.requests.every((u) => u.startsWith(handle.url) || u.startsWith('data:image/png;base64,'))).to.equal(true);

    const outcome = await handle.done;
    expect(outcome.status).to.equal('finished');
    expect(outcome.entry).to.include({ instance: ID, agent: 'human', solved: true, actions: 7, turns: 2, violations: 0, score: 100 });
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as RunSummary;
    expect(summary.agent.name).to.equal('human');
    expect(summary.episodes).to.have.length(1);
    expect(summary.episodes[0]).to.deep.equal(outcome.entry);
    const log = new EpisodeLog(out, ID).read();
    expect(log.header!.agent.name).to.equal('human');
    expect(log.turns).to.have.length(2);
    expect(log.turns[0].reply.rationale).to.equal(`first ${XSS_ALL}`);
    expect(log.turns[0].reply.actions).to.deep.equal(calls.slice(0, 5));
    expect(log.end!.outcome.solved).to.equal(true);
    for (let t = 0; t < 2; t++) {
      expect(readFileSync(join(new EpisodeLog(out, ID).dir, log.turns[t].images[0].file)).equals(seen[t]), `turn ${t + 1} image`).to.equal(true);
    }
    // The server is gone once the episode ended.
    let closed = false;
    await fetch(handle.url).catch(() => (closed = true));
    expect(closed).to.equal(true);
    await page.close();
  });

  it('shows moves and turns used and left, gives up on request, and ends on a screen with the final picture and the end in words', async () => {
    const out = join(tmp, 'gives-in');
    const handle = await startPlay({ instance: ID, out });
    open.push(handle);
    const { family, instance } = familyAndInstanceFromId(ID);
    const budget = instance.budgets.actions!;
    const calls = (await family.reference(instance)).calls;
    const { page, watch } = await watchedPage(browser, { height: 1000 });
    await page.goto(handle.url);
    await page.waitForSelector('body.st-waiting [data-add="move"]:not([disabled])', { timeout: 60000 });
    expect(await page.$eval('#turn-info', (e) => e.textContent)).to.match(new RegExp(`^moves used 0 of ${budget} \\(${budget} left\\) · turn 1 of ${instance.budgets.turns} \\(${instance.budgets.turns - 1} left after this\\) · `));
    // One move, then the counters move on.
    const c = calls[0];
    await page.click(`[data-tool="move"] [data-field="from"] button[data-label="${String(c.args.from)}"]`);
    await page.click(`[data-tool="move"] [data-field="to"] button[data-label="${String(c.args.to)}"]`);
    await page.click('[data-add="move"]');
    let version = await page.$eval('body', (b) => (b as HTMLElement).dataset.version ?? '');
    await page.click('#submit');
    await page.waitForFunction((old) => document.body.dataset.version !== old && document.body.classList.contains('st-waiting'), { timeout: 60000 }, version);
    expect(await page.$eval('#turn-info', (e) => e.textContent)).to.match(new RegExp(`^moves used 1 of ${budget} \\(${budget - 1} left\\) · turn 2 of `));
    version = await page.$eval('body', (b) => (b as HTMLElement).dataset.version ?? '');
    await page.click('#give-up');
    // A first click only asks; the second gives up.
    expect(await page.$eval('#give-up', (e) => e.textContent)).to.equal('Click again to give up (the episode ends unsolved)');
    expect(await page.$eval('body', (b) => b.classList.contains('st-waiting'))).to.equal(true);
    await page.click('#give-up');
    await page.waitForSelector('#outcome:not([hidden])', { timeout: 60000 });
    const outcomeText = await page.$eval('#outcome', (e) => e.textContent ?? '');
    expect(outcomeText).to.match(/Not solved[\s\S]*the agent gave up · 2 turns · 1 actions/);
    expect(outcomeText).to.not.include('gave-up');
    // The end screen shows the final state, inline (the server has closed).
    const finalSrc = await page.$eval('#images img', (img) => (img as HTMLImageElement).src);
    expect(finalSrc.startsWith('data:image/png;base64,')).to.equal(true);
    const log = new EpisodeLog(out, ID).read();
    expect(Buffer.from(finalSrc.slice('data:image/png;base64,'.length), 'base64').equals(readFileSync(join(new EpisodeLog(out, ID).dir, log.end!.finalImages![0].file)))).to.equal(true);
    expect(await page.$eval('#turn-section', (e) => (e as HTMLElement).hidden)).to.equal(true);
    await page.screenshot({ path: join(tmp, 'gave-up.png') });
    if (process.env.SPACEACT_SCREENSHOTS) await page.screenshot({ path: join(process.env.SPACEACT_SCREENSHOTS, 'play-gave-up.png'), fullPage: true });
    expect(watch.errors).to.deep.equal([]);
    expect(watch.dialogs).to.deep.equal([]);
    const outcome = await handle.done;
    expect(outcome.entry).to.include({ solved: false, endReason: 'gave-up', turns: 2, actions: 1 });
    expect(log.turns[1].reply).to.include({ gaveUp: true });
    expect(log.turns[1].results).to.deep.equal([]);
    await page.close();
  });

  it('validates every request, refuses bad turns without running them, and stops and resumes', async () => {
    const out = join(tmp, 'http');
    const handle = await startPlay({ instance: ID, out });
    open.push(handle);
    const url = handle.url;
    const s = await waitForTurn(url);
    expect(s.turn).to.equal(1);
    expect(s.images.map((i) => i.kind)).to.deep.equal(['view']);
    expect(s.promptText).to.include('## Task');

    const notFound = await raw(new URL('/nope/%3Cscript%3Ealert(1)%3C/script%3E', url).href);
    expect(notFound.status).to.equal(404);
    expect(notFound.body).to.not.match(/script|nope/i);
    expect((await raw(url, { method: 'PUT' })).status).to.equal(405);
    expect((await raw(new URL('/api/image/999-now0', url).href)).status).to.equal(404);
    expect((await raw(url, { headers: { Host: 'evil.example' } })).status).to.equal(421);
    expect((await raw(new URL('/api/state', url).href, { headers: { Origin: 'http://evil.example' } })).status).to.equal(403);
    const plain = await raw(new URL('/api/turn', url).href, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{}' });
    expect(plain.status).to.equal(415);
    const badJson = await raw(new URL('/api/turn', url).href, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"version": 1,' });
    expect(badJson.status).to.equal(400);
    const big = await raw(new URL('/api/turn', url).href, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: 'x'.repeat(300_000) });
    expect(big.status).to.equal(413);
    const unknown = await postTurn(url, { version: s.version, reply: { rationale: '', note: '', actions: [{ tool: '<script>alert(1)</script>', args: {} }] } });
    expect(unknown.status).to.equal(400);
    expect((JSON.parse(unknown.body) as { problems: string[] }).problems.join(' ')).to.match(/unknown tool/);
    const tooMany = await postTurn(url, { version: s.version, reply: { rationale: '', note: '', actions: Array(6).fill({ tool: 'move', args: { from: 'A', to: 'B' } }) } });
    expect(tooMany.status).to.equal(400);
    expect(tooMany.body).to.match(/at most 5 calls/);
    const badArgs = await postTurn(url, { version: s.version, reply: { rationale: '', note: '', actions: [{ tool: 'move', args: { from: 'D', to: 'B' } }] } });
    expect(badArgs.status).to.equal(400);
    const stale = await postTurn(url, { version: s.version - 1, reply: { rationale: '', note: '', actions: [{ tool: 'move', args: { from: 'A', to: 'C' } }] } });
    expect(stale.status).to.equal(409);
    // Nothing of that ran.
    expect((await state(url)).version).to.equal(s.version);
    expect(new EpisodeLog(out, ID).read().turns).to.have.length(0);

    // A legal first move of this start: the reference's (the disks' places are drawn per seed).
    const { family, instance } = familyAndInstanceFromId(ID);
    const firstMove = (await family.reference(instance)).calls[0];
    const ok = await postTurn(url, { version: s.version, reply: { rationale: 'one move', note: 'kept', actions: [firstMove] } });
    expect(ok.status).to.equal(200);
    const next = JSON.parse(ok.body) as PlayState;
    expect(next).to.include({ status: 'waiting', turn: 2, note: 'kept' });
    expect(next.history.map((h) => h.results.map((r) => r.status))).to.deep.equal([['ok']]);

    handle.stop();
    const stopped = await handle.done;
    expect(stopped.status).to.equal('stopped');
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as RunSummary;
    expect(summary).to.deep.include({ episodes: [], unfinished: [ID] });
    expect(new EpisodeLog(out, ID).read().turns).to.have.length(1);

    // The same folder continues where the person stopped.
    const again = await startPlay({ instance: ID, out });
    open.push(again);
    const resumed = await waitForTurn(again.url);
    expect(resumed).to.include({ turn: 2, note: 'kept' });
    expect(resumed.history.map((h) => h.rationale)).to.deep.equal(['one move']);
    again.stop();
    expect((await again.done).status).to.equal('stopped');
  });

  it('refuses a folder that holds a finished episode or another agent\'s run', async () => {
    const dir = join(tmp, 'finished');
    await writeHandmadeRun(dir, [{ entry: entry(ID, { agent: 'human', solved: true, score: 100 }), text: 'done' }]);
    let err: unknown;
    await startPlay({ instance: ID, out: dir }).catch((e: unknown) => (err = e));
    expect(err).to.be.instanceOf(SpaceActError);
    expect((err as Error).message).to.match(/already holds a finished episode/);
    const other = join(tmp, 'other');
    await writeHandmadeRun(other, [{ entry: entry(ID), text: 'x', unfinished: true }]);
    err = undefined;
    await startPlay({ instance: ID, out: other }).catch((e: unknown) => (err = e));
    expect((err as Error).message).to.match(/unfinished run of agent handmade/);
    err = undefined;
    await startPlay({ instance: 'P6-L9-s1', out: join(tmp, 'bad') }).catch((e: unknown) => (err = e));
    expect(err).to.be.instanceOf(SpaceActError);
  });

  it('stops cleanly on Ctrl-C from the command line, saying where the log is', async () => {
    const out = join(tmp, 'cli');
    const child = spawn(process.execPath, ['bin/spaceact.mjs', 'play', '--instance', ID, '--out', out], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        const m = /open (http:\/\/127\.0\.0\.1:[0-9]+\/)/.exec(stdout);
        if (m) resolve(m[1]);
      });
      child.on('exit', () => reject(new Error(`play exited early: ${stdout} ${stderr}`)));
    });
    await waitForTurn(url);
    child.kill('SIGINT');
    expect(await exited).to.equal(0);
    expect(stdout).to.include('stopped before the episode ended');
    expect(stdout).to.include(`log: ${join(out, 'episodes', ID, 'log.jsonl')}`);
    expect(stderr).to.equal('');
  });
});
