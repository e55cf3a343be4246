import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Browser, Page } from 'puppeteer-core';
import { parseMode } from '../agents/modes.ts';
import { runInstances, type RunSummary, type SummaryEntry } from '../agents/runner.ts';
import { aggregateBy, groupStats } from '../report/aggregate.ts';
import { escapeHtml, html } from '../core/html-escape.ts';
import { writeReport } from '../report/html.ts';
import { SpaceActError } from '../core/errors.ts';
import { endReasonText } from '../agents/end-reasons.ts';
import { ReferenceAgent } from '../agents/reference.ts';
import { RandomAgent } from '../agents/random-agent.ts';
import type { Agent, AgentReply, EpisodeStart, Observation, PrivilegedChannel } from '../agents/types.ts';
import { launchBrowser, watchedPage, type PageWatch } from './support/report-browser.ts';
import { entry, mixedEpisodes, writeHandmadeRun, XSS } from './support/report-run.ts';

const run = promisify(execFile);

/** A rationale a hostile model might write, with a word to search for. */
const HOSTILE_RATIONALE = 'quokka plan </script><img src=x onerror=alert(1)>';

/**
 * One run, two real agents: the reference plays the instances in `reference`, the random
 * baseline the others; on `hostile` the random agent's rationale is {@link HOSTILE_RATIONALE}.
 */
class MixedAgent implements Agent {
  readonly name = 'reference+random';
  readonly settings = {};
  readonly needsImages = false;
  readonly privileged = true;
  private inner: Agent = new ReferenceAgent();
  private hostile = false;

  constructor(
    private readonly reference: readonly string[],
    private readonly hostileOn: string,
  ) {}

  start(ctx: EpisodeStart, privileged?: PrivilegedChannel): Promise<void> | void {
    const id = ctx.instance.id;
    this.inner = this.reference.includes(id) ? new ReferenceAgent() : new RandomAgent(7);
    this.hostile = id === this.hostileOn;
    return this.inner.start(ctx, this.inner.privileged ? privileged : undefined);
  }

  async act(obs: Observation): Promise<AgentReply> {
    const reply = await this.inner.act(obs);
    return this.hostile ? { ...reply, rationale: HOSTILE_RATIONALE } : reply;
  }
}

/** Opens a report file and waits until every image it shows has loaded or failed. */
async function open(browser: Browser, file: string, hash = ''): Promise<{ page: Page; watch: PageWatch }> {
  const { page, watch } = await watchedPage(browser);
  await page.goto(pathToFileURL(file).href + hash, { waitUntil: 'load' });
  return { page, watch };
}

/** Opens every replay and waits for its images; returns how many loaded and how many did not. */
async function loadAllImages(page: Page): Promise<{ loaded: number; broken: string[] }> {
  return page.evaluate(async () => {
    for (const d of Array.from(document.querySelectorAll('section.episode'))) (d as HTMLElement).hidden = false;
    for (const d of Array.from(document.querySelectorAll('section.episode details'))) (d as HTMLDetailsElement).open = true;
    const imgs = Array.from(document.querySelectorAll('img'));
    for (const img of imgs) img.loading = 'eager';
    await Promise.all(imgs.map((img) => img.decode().catch(() => undefined)));
    return { loaded: imgs.filter((i) => i.naturalWidth > 0).length, broken: imgs.filter((i) => i.naturalWidth === 0).map((i) => i.src.slice(0, 80)) };
  });
}

function cell(page: Page, group: string, col: string): Promise<string> {
  return page.$eval(`tr[data-group="${group}"] td[data-col="${col}"]`, (td) => td.textContent ?? '');
}

describe('spaceact report: the HTML report of a run', function () {
  this.timeout(120000);
  let tmp: string;
  let browser: Browser;

  before(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'spaceact-report-'));
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('escapes text through one function and the html template', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).to.equal('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
    expect(escapeHtml(null)).to.equal('');
    const inner = html`<b>${XSS.img}</b>`;
    expect(html`<p title="${XSS.attr}">${inner}${[XSS.script, 1]}${false}</p>`.text).to.equal(
      `<p title="&quot;&gt;&lt;svg onload=alert(3)&gt;"><b>&lt;img src=x onerror=alert(1)&gt;</b>&lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt;1</p>`,
    );
  });

  it('counts graded episodes toward the mean score and every episode toward success', () => {
    const entries = mixedEpisodes().filter((e) => !e.unfinished).map((e) => e.entry);
    const all = groupStats('all', entries);
    expect(all.episodes).to.equal(6);
    expect(all.solved).to.equal(2);
    // P6 85 and 17.5, M1 12.3, abandoned T1 0; the two pass/fail B episodes have no score.
    expect(all.graded).to.equal(4);
    expect(all.meanScore).to.be.closeTo((85 + 17.5 + 12.3 + 0) / 4, 1e-9);
    expect(all.abandoned).to.equal(1);
    expect(all.cost).to.be.closeTo(0.0143, 1e-9);
    expect(aggregateBy(entries, 'category').map((g) => g.key)).to.deep.equal(['B', 'P', 'M', 'T']);
    expect(aggregateBy(entries, 'family').map((g) => g.key)).to.deep.equal(['B1', 'B2', 'P6', 'M1', 'T1']);
    const b = aggregateBy(entries, 'category')[0];
    expect(b).to.include({ episodes: 2, solved: 1, graded: 0, meanScore: null });
  });

  it('shows every episode, the summary numbers, and hostile model text as plain text', async () => {
    const dir = join(tmp, 'mixed');
    const summary = await writeHandmadeRun(dir, mixedEpisodes());
    const file = await writeReport(dir);
    expect(file).to.equal(join(dir, 'report.html'));
    const { page, watch } = await open(browser, file);

    const ids = await page.$$eval('section.episode', (s) => s.map((x) => (x as HTMLElement).dataset.instance));
    expect(ids).to.deep.equal([...summary.episodes.map((e) => e.instance), ...summary.unfinished]);
    const rows = await page.$$eval('table.episodes tbody tr', (r) => r.map((x) => (x as HTMLElement).dataset.instance));
    expect(rows).to.deep.equal(ids);

    // The tables against summary.json, recomputed here from its rows.
    const check = async (group: string, es: SummaryEntry[]): Promise<void> => {
      const graded = es.filter((e) => e.score !== null);
      const mean = graded.length ? (graded.reduce((s, e) => s + e.score!, 0) / graded.length).toFixed(1) : '–';
      expect(await cell(page, group, 'episodes'), group).to.equal(String(es.length));
      expect(await cell(page, group, 'solved'), group).to.equal(String(es.filter((e) => e.solved).length));
      expect(await cell(page, group, 'score'), group).to.equal(mean);
      expect(await cell(page, group, 'violations'), group).to.equal((es.reduce((s, e) => s + e.violations, 0) / es.length).toFixed(1));
      expect(await cell(page, group, 'input-tokens'), group).to.equal(String(es.reduce((s, e) => s + e.inputTokens, 0)));
      expect(await cell(page, group, 'abandoned'), group).to.equal(String(es.filter((e) => e.abandoned).length));
    };
    for (const fam of new Set(summary.episodes.map((e) => e.family))) await check(`family:${fam}`, summary.episodes.filter((e) => e.family === fam));
    for (const cat of ['B', 'P', 'M', 'T']) await check(`category:${cat}`, summary.episodes.filter((e) => e.family.startsWith(cat)));
    await check('tier:L5', summary.episodes.filter((e) => e.tier === 'L5'));
    await check('all:all', summary.episodes);
    expect(await cell(page, 'all:all', 'success')).to.match(/^33\.3%/);
    expect(await cell(page, 'all:all', 'cost')).to.equal('$0.0143');
    // Success and score by category, one per category, and the analysis section's four.
    expect(await page.$$eval('svg.chart', (s) => s.length)).to.equal(2 + 4 + 4);

    const images = await loadAllImages(page);
    expect(images.broken).to.deep.equal([]);
    const turns = mixedEpisodes().reduce((s, e) => s + (e.turns ?? e.entry.turns), 0);
    expect(images.loaded).to.equal(turns + 1); // one image a turn, plus the rollback view
    expect(await page.$$eval('section[data-instance="P6-L5-s1"] figure.img-rollback img', (i) => i.length)).to.equal(1);
    expect(await page.$$eval('section[data-instance="M1-L7-s1"] figure.img-strobe img', (i) => i.length)).to.equal(2);
    expect(await page.$$eval('section[data-instance="P6-L5-s1"] tr.s-violation', (i) => i.length)).to.equal(1);

    // Model text is on the page as text, and none of it became markup.
    const text = await page.evaluate(() => document.body.innerText);
    for (const payload of Object.values(XSS)) expect(text).to.include(payload);
    expect(text).to.include(`API failed ${XSS.img}`);
    const injected = await page.evaluate(() => ({
      scripts: document.querySelectorAll('script').length,
      imgX: document.querySelectorAll('img[src="x"]').length,
      bold: document.querySelectorAll('#xss-bold').length,
      svgOnload: document.querySelectorAll('svg[onload]').length,
    }));
    expect(injected).to.deep.equal({ scripts: 1, imgX: 0, bold: 0, svgOnload: 0 });
    expect(watch.dialogs).to.deep.equal([]);
    expect(watch.errors).to.deep.equal([]);
    const outside = watch.requests.filter((u) => !u.startsWith(pathToFileURL(dir).href + '/'));
    expect(outside).to.deep.equal([]);
    const csp = await page.$eval('meta[http-equiv="Content-Security-Policy"]', (m) => m.getAttribute('content'));
    expect(csp).to.equal("default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'");
    await page.close();
  });

  it('embeds images as data URIs with embed, and links them relatively from another folder', async () => {
    const dir = join(tmp, 'portable');
    await writeHandmadeRun(dir, mixedEpisodes().slice(0, 2));
    mkdirSync(join(tmp, 'elsewhere'));
    const embedded = await writeReport(dir, { embed: true, out: join(tmp, 'elsewhere', 'embedded.html') });
    const linked = await writeReport(dir, { out: join(tmp, 'elsewhere', 'linked.html') });
    expect(readFileSync(linked, 'utf8')).to.include('src="../portable/episodes/P6-L5-s1/turn-001-0-view.png"');
    for (const file of [embedded, linked]) {
      const { page, watch } = await open(browser, file);
      const images = await loadAllImages(page);
      expect(images.broken, file).to.deep.equal([]);
      expect(images.loaded, file).to.equal(3 + 1 + 2);
      if (file === embedded) expect(watch.requests.filter((u) => !u.startsWith('data:'))).to.deep.equal([pathToFileURL(file).href]);
      await page.close();
    }
  });

  it('pages long runs, filters them, and follows a link to an episode on a later page', async () => {
    const dir = join(tmp, 'long');
    const eps = Array.from({ length: 30 }, (_, i) => ({ entry: entry(`P6-L1-s${i}`, { solved: i % 3 === 0, score: i % 3 === 0 ? 100 : 10, turns: 1 }), text: `episode ${i}` }));
    await writeHandmadeRun(dir, eps);
    const file = await writeReport(dir);
    const { page } = await open(browser, file);
    const visible = (): Promise<string[]> =>
      page.$$eval('section.episode', (s) => s.filter((x) => !(x as HTMLElement).hidden).map((x) => (x as HTMLElement).dataset.instance ?? ''));
    expect(await visible()).to.have.length(25);
    expect(await page.$eval('#page-label', (e) => e.textContent)).to.match(/page 1 of 2 \(30 episodes\)/);
    await page.click('#pager button:last-of-type');
    expect(await visible()).to.deep.equal(['P6-L1-s25', 'P6-L1-s26', 'P6-L1-s27', 'P6-L1-s28', 'P6-L1-s29']);
    await page.select('#filter-result', 'solved');
    expect(await visible()).to.deep.equal(eps.filter((e) => e.entry.solved).map((e) => e.entry.instance));
    await page.select('#filter-result', 'all');
    // A link to an episode on page 2 turns the page and opens the replay.
    await page.evaluate(() => {
      location.hash = '#ep-P6-L1-s27';
    });
    await page.waitForFunction(() => (document.getElementById('ep-P6-L1-s27')?.querySelector('details') as HTMLDetailsElement | null)?.open === true);
    expect(await visible()).to.include('P6-L1-s27');
    await page.close();
    // Opened from the start with a hash, too.
    const direct = await open(browser, file, '#ep-P6-L1-s29');
    expect(await direct.page.$eval('#ep-P6-L1-s29 details', (d) => (d as HTMLDetailsElement).open)).to.equal(true);
    await direct.page.close();
  });

  it('reports a real reference run from the command line', async () => {
    const out = join(tmp, 'real');
    const summary: RunSummary = await runInstances({ instances: ['P6-L1-s103'], agent: { name: 'reference', options: {} }, mode: parseMode('default'), out });
    const res = await run(process.execPath, ['bin/spaceact.mjs', 'report', out]);
    expect(res.stdout).to.include(join(out, 'report.html'));
    const { page, watch } = await open(browser, join(out, 'report.html'), '#ep-P6-L1-s103');
    const images = await loadAllImages(page);
    expect(images.broken).to.deep.equal([]);
    // Every turn's view, and the final state after the last turn.
    expect(images.loaded).to.equal(summary.episodes[0].turns + 1);
    expect(await page.$$eval('#ep-P6-L1-s103 .end figure.img-view img', (i) => i.length)).to.equal(1);
    const text = await page.$eval('#ep-P6-L1-s103', (e) => (e as HTMLElement).innerText);
    expect(text).to.match(/solved/);
    expect(text).to.include('Reference plan, calls 1–5 of 7.');
    expect(await cell(page, 'family:P6', 'actions')).to.equal(summary.episodes[0].actions.toFixed(1));
    expect(watch.errors).to.deep.equal([]);
    await page.close();
  });

  it('filters and searches the episode list of a real run in the page, with no network request', async function () {
    this.timeout(600000);
    const out = join(tmp, 'filtered');
    const instances = ['P6-L1-s103', 'P6-L1-s104', 'B1-L1-s1', 'B1-L1-s2'];
    const reference = ['P6-L1-s103', 'B1-L1-s1'];
    const summary = await runInstances({ instances, makeAgent: () => new MixedAgent(reference, 'B1-L1-s2'), mode: parseMode('default'), out });
    const solved = summary.episodes.filter((e) => e.solved).map((e) => e.instance);
    const unsolved = summary.episodes.filter((e) => !e.solved).map((e) => e.instance);
    // The reference solves its two; the random baseline solves neither of its (else the filter tests nothing).
    expect(solved).to.deep.equal(reference);
    expect(unsolved).to.deep.equal(['P6-L1-s104', 'B1-L1-s2']);
    const file = await writeReport(out, { embed: true });

    const { page, watch } = await watchedPage(browser);
    // Anything but the page itself (and its own data: images) is refused and recorded.
    const outside: string[] = [];
    await page.setRequestInterception(true);
    page.on('request', (r) => {
      if (r.url() === pathToFileURL(file).href || r.url().startsWith('data:')) void r.continue();
      else {
        outside.push(r.url());
        void r.abort();
      }
    });
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    const visible = (selector: string): Promise<string[]> =>
      page.$$eval(selector, (s) => s.filter((x) => !(x as HTMLElement).hidden).map((x) => (x as HTMLElement).dataset.instance ?? ''));
    const replays = (): Promise<string[]> => visible('section.episode');
    const rows = (): Promise<string[]> => visible('table.episodes tbody tr');
    const counted = (): Promise<string> => page.$eval('#filter-count', (e) => e.textContent ?? '');
    expect(await replays()).to.deep.equal(instances);
    expect(await counted()).to.equal('4 of 4 episodes');

    // The selects hold the values present in the run, end reasons in words.
    const options = (id: string): Promise<string[]> => page.$$eval(`#${id} option`, (o) => o.map((x) => x.textContent ?? ''));
    expect(await options('filter-family')).to.deep.equal(['all', 'P6', 'B1']);
    expect(await options('filter-tier')).to.deep.equal(['all', 'L1']);
    const ends = await options('filter-end');
    expect(ends).to.include('solved');
    for (const e of summary.episodes) expect(await page.$eval(`tr[data-instance="${e.instance}"] td[data-col="end"]`, (td) => td.textContent)).to.equal(endReasonText(e.endReason));

    // Solved hides the unsolved episodes, in the table and among the replays.
    await page.select('#filter-solved', 'yes');
    expect(await replays()).to.deep.equal(solved);
    expect(await rows()).to.deep.equal(solved);
    expect(await counted()).to.equal('2 of 4 episodes');
    await page.select('#filter-family', 'B1');
    expect(await replays()).to.deep.equal(['B1-L1-s1']);
    expect(await counted()).to.equal('1 of 4 episodes');
    await page.click('#filter-clear');
    expect(await replays()).to.deep.equal(instances);

    // The failure label and end reason of each unsolved episode choose it.
    for (const id of unsolved) {
      const { label, end } = await page.$eval(`section[data-instance="${id}"]`, (s) => ({ label: (s as HTMLElement).dataset.label ?? '', end: (s as HTMLElement).dataset.end ?? '' }));
      expect(label).to.not.equal('none');
      await page.select('#filter-label', label);
      expect(await replays()).to.include(id);
      expect((await replays()).every((x) => !solved.includes(x))).to.equal(true);
      await page.select('#filter-label', 'all');
      await page.select('#filter-end', end);
      expect(await replays()).to.include(id);
      await page.select('#filter-end', 'all');
    }

    // Search: words from the reference's rationales, from a call, and from the hostile rationale.
    await page.type('#filter-search', 'reference PLAN');
    expect(await replays()).to.deep.equal(reference);
    expect(await counted()).to.equal('2 of 4 episodes');
    await page.$eval('#filter-search', (i) => ((i as HTMLInputElement).value = ''));
    await page.type('#filter-search', 'quokka');
    expect(await replays()).to.deep.equal(['B1-L1-s2']);
    expect(await rows()).to.deep.equal(['B1-L1-s2']);
    await page.$eval('#filter-search', (i) => ((i as HTMLInputElement).value = ''));
    await page.type('#filter-search', 'onerror=alert(1)');
    expect(await replays()).to.deep.equal(['B1-L1-s2']);
    await page.$eval('#filter-search', (i) => ((i as HTMLInputElement).value = ''));
    await page.type('#filter-search', 'no such words anywhere');
    expect(await replays()).to.deep.equal([]);
    expect(await counted()).to.equal('0 of 4 episodes');

    // The hostile rationale is text: no element came of it, no dialog, no error.
    const hostile = await page.$eval('section[data-instance="B1-L1-s2"] .rationale .text', (e) => e.textContent);
    expect(hostile).to.equal(HOSTILE_RATIONALE);
    expect(await page.evaluate(() => ({ scripts: document.querySelectorAll('script').length, imgX: document.querySelectorAll('img[src="x"]').length }))).to.deep.equal({ scripts: 1, imgX: 0 });
    expect(watch.dialogs).to.deep.equal([]);
    expect(watch.errors).to.deep.equal([]);

    // A picture of the filtered list: unsolved episodes of P6, one replay opened.
    await page.$eval('#filter-search', (i) => ((i as HTMLInputElement).value = ''));
    await page.select('#filter-solved', 'no');
    await page.type('#filter-search', 'random');
    expect(await replays()).to.deep.equal(['P6-L1-s104']);
    await page.$eval('#ep-P6-L1-s104 details', (d) => ((d as HTMLDetailsElement).open = true));
    await page.evaluate(() => document.getElementById('controls')?.scrollIntoView());
    const shot = process.env.SPACEACT_SCREENSHOTS ? join(process.env.SPACEACT_SCREENSHOTS, 'report-filtered.png') : join(tmp, 'report-filtered.png');
    await page.screenshot({ path: shot });
    expect(outside).to.deep.equal([]);
    expect(watch.requests.filter((u) => !u.startsWith('data:'))).to.deep.equal([pathToFileURL(file).href]);
    await page.close();
  });

  it('refuses a folder that is not a run, and a malformed summary, clearly', async () => {
    const empty = join(tmp, 'empty');
    mkdirSync(empty);
    let err: unknown;
    await writeReport(empty).catch((e: unknown) => (err = e));
    expect(err).to.be.instanceOf(SpaceActError);
    expect((err as Error).message).to.match(/summary\.json does not exist/);
    writeFileSync(join(empty, 'summary.json'), JSON.stringify({ episodes: [{ instance: 'P6-L1-s1', family: 'P6', solved: 'yes' }] }));
    err = undefined;
    await writeReport(empty).catch((e: unknown) => (err = e));
    expect((err as Error).message).to.match(/episodes\[0\]\.tier must be a string/);
    // Nothing was written for a refused run.
    expect(() => readFileSync(join(empty, 'report.html'))).to.throw();
  });
});
