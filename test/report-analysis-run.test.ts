import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'puppeteer-core';
import { EpisodeLog } from '../agents/episode-log.ts';
import { parseMode } from '../agents/modes.ts';
import { runInstances } from '../agents/runner.ts';
import { analyzeRuns } from '../report/analysis/analyze.ts';
import { writeReport } from '../report/html.ts';
import { RunProgress } from '../report/progress.ts';
import { launchBrowser, watchedPage } from './support/report-browser.ts';
import { entry, mixedEpisodes, solidPng, writeHandmadeRun } from './support/report-run.ts';
import { PassThrough } from 'node:stream';

/** Runs a command on a real pseudo-terminal (util-linux `script`) and returns what it drew. */
function onPty(command: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    // A wide terminal, so the line is never cut; `script` gives the command a real PTY.
    const child = spawn('script', ['-qfec', `stty cols 240 rows 40; ${command}`, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
    child.stdin.end();
  });
}

async function openReport(browser: Browser, file: string): Promise<Page> {
  const { page } = await watchedPage(browser);
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  await page.evaluate(async () => {
    for (const d of Array.from(document.querySelectorAll('section.episode'))) (d as HTMLElement).hidden = false;
    for (const d of Array.from(document.querySelectorAll('section.episode details'))) (d as HTMLDetailsElement).open = true;
    const imgs = Array.from(document.querySelectorAll('img'));
    for (const img of imgs) img.loading = 'eager';
    await Promise.all(imgs.map((img) => img.decode().catch(() => undefined)));
  });
  return page;
}

describe('analysis of real runs, the live progress line and report replays', function () {
  this.timeout(600000);
  let tmp: string;
  let browser: Browser;
  before(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'spaceact-analysis-run-'));
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('analyses a real random-agent run: one label per unsolved episode, figures that agree with the logs', async () => {
    const out = join(tmp, 'random');
    const ids = ['M1-L3-s100', 'P6-L3-s100', 'V1-L7-s100'];
    const summary = await runInstances({ instances: ids, agent: { name: 'random', options: { seed: 3 } }, mode: parseMode('default'), out, render: 'never' });
    const a = analyzeRuns([out]);
    expect(a.runs[0]).to.include({ agent: 'random', episodes: 3, unfinished: 0, progressRecorded: true });
    const unsolved = summary.episodes.filter((e) => !e.solved);
    expect(a.failures.episodes.map((v) => v.instance)).to.deep.equal(unsolved.map((e) => e.instance));
    for (const v of a.failures.episodes) {
      const turns = summary.episodes.find((e) => e.instance === v.instance)!.turns;
      expect(v.turns.length, v.instance).to.be.greaterThan(0);
      for (const t of v.turns) expect(t).to.be.within(1, turns);
    }
    const m = a.behaviour.overall;
    // Cross-checks against what the loop itself counted.
    const mean = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(m.violationsPerEpisode).to.be.closeTo(mean(summary.episodes.map((e) => e.violations)), 1e-9);
    expect(m.turns).to.equal(summary.episodes.reduce((s, e) => s + e.turns, 0));
    const camera = unsolved.map((e) => new EpisodeLog(out, e.instance).read().end!.outcome.perceptionActions);
    expect(m.cameraPerEpisodeUnsolved).to.be.closeTo(mean(camera), 1e-9);
    expect(m.actionsPerResponse).to.be.within(1, 5);
    expect(m.callsSavedByBatching).to.be.within(0, 1);
    expect(a.behaviour.byFamily.map((g) => g.key)).to.deep.equal(['P6', 'M1', 'V1']);

    // Run again over the same folder: every episode is reused, and both the summary and the report say so.
    const again = await runInstances({ instances: ids, agent: { name: 'random', options: { seed: 3 } }, mode: parseMode('default'), out, render: 'never' });
    expect(again.resumed).to.deep.equal({ finished: 3, continued: 0 });
    const page = await openReport(browser, await writeReport(out));
    expect(await page.$eval('#resumed', (p) => p.textContent)).to.include('3 finished episodes reused');
    expect(await page.$$eval('#failure-episodes tbody tr', (r) => r.map((x) => (x as HTMLElement).dataset.label))).to.deep.equal(a.failures.episodes.map((v) => v.label));
    expect(await page.$$eval('#analysis svg.chart', (s) => s.length)).to.equal(4);
    await page.close();
  });

  it('shows the final state of a one-turn episode, rendered by a real run', async () => {
    const out = join(tmp, 'one-turn');
    await runInstances({ instances: ['V1-L7-s100'], agent: { name: 'random', options: { seed: 1 } }, mode: parseMode('default'), out, render: 'always' });
    const end = new EpisodeLog(out, 'V1-L7-s100').read().end!;
    expect(end.finalImages?.map((i) => i.kind)).to.deep.equal(['view']);
    const page = await openReport(browser, await writeReport(out));
    const finals = await page.$$eval('#ep-V1-L7-s100 .end figure.img-view img', (i) => i.map((x) => (x as HTMLImageElement).naturalWidth));
    expect(finals).to.deep.equal([768]);
    const text = await page.$eval('#ep-V1-L7-s100', (e) => (e as HTMLElement).innerText);
    expect(text).to.include('1 turn ·');
    expect(text).not.to.match(/\b1 turns\b/);
    expect(text).to.include('Not solved: the agent committed');
    await page.close();
  });

  it('puts a rollback view under the turn that caused it, shows wide panels at full size, and fills in unfinished episodes', async () => {
    const dir = join(tmp, 'handmade');
    await writeHandmadeRun(dir, [...mixedEpisodes(), { entry: entry('V5-L7-s1', { turns: 1, solved: true, score: 100, endReason: 'solved', agent: 'reference' }), text: 'plain' }]);
    // Make V5's view the real panel size, and give the reference agent no settings.
    writeFileSync(join(dir, 'episodes', 'V5-L7-s1', 'turn-001-0-view.png'), await solidPng(972, 320, [10, 10, 10]));
    const log = join(dir, 'episodes', 'V5-L7-s1', 'log.jsonl');
    writeFileSync(log, readFileSync(log, 'utf8').replace(/"settings":\{[^}]*\}/, '"settings":{}'));
    const page = await openReport(browser, await writeReport(dir));
    // P6-L5-s1's call on turn 2 was rolled back; the model saw the split view at the start of turn 3.
    const under2 = await page.$$eval('#ep-P6-L5-s1 li[data-turn="2"] figure.img-rollback figcaption', (f) => f.map((x) => x.textContent ?? ''));
    expect(under2).to.have.length(1);
    expect(under2[0]).to.include('seen by the model at the start of turn 3');
    expect(await page.$$eval('#ep-P6-L5-s1 li[data-turn="3"] figure.img-rollback', (f) => f.length)).to.equal(0);
    expect(await page.$eval('#ep-P6-L5-s1 li[data-turn="3"]', (li) => (li as HTMLElement).innerText)).to.include('rollback view of turn 2');
    const wide = await page.$eval('#ep-V5-L7-s1 li[data-turn="1"] figure.img-view img', (i) => ({ shown: i.clientWidth, natural: (i as HTMLImageElement).naturalWidth }));
    expect(wide).to.deep.equal({ shown: 972, natural: 972 });
    const v5 = await page.$eval('#ep-V5-L7-s1', (e) => (e as HTMLElement).innerText);
    expect(v5).to.include('agent reference ·');
    expect(v5).not.to.include('{}');
    expect(v5).to.include('End\n');
    expect(v5).not.to.match(/solved: solved/);
    // The unfinished episode's row names its family and tier (from its log header).
    const row = await page.$$eval('table.episodes tr[data-instance="V1-L7-s1"] td', (t) => t.map((x) => x.textContent));
    expect(row.slice(1, 4)).to.deep.equal(['V1', 'L7', 'unfinished']);
    await page.close();
  });

  it('estimates the ETA from finished episodes and redraws on every turn', () => {
    let now = 0;
    const sink = new PassThrough();
    const p = new RunProgress(4, { live: false, stream: sink, out: sink, now: () => now });
    p.episodeDone(entry('P6-L1-s100', { turns: 1 }), { reused: true });
    expect(p.etaSeconds()).to.equal(null); // a reused episode says nothing about speed
    p.episodeStarted('P6-L3-s100');
    now = 10_000;
    p.turnDone({ turn: 1 }, 'P6-L3-s100');
    expect(p.describe()).to.include('P6-L3-s100 turn 1');
    p.episodeDone(entry('P6-L3-s100', { turns: 1 }));
    p.episodeStarted('P6-L5-s100');
    now = 14_000;
    // Mean episode 10 s: 6 s left of the running one, 10 s for the one waiting.
    expect(p.etaSeconds()).to.equal(16);
    expect(p.describe()).to.include('ETA 16s').and.include('1 resumed');
  });

  it('updates the live progress line within an episode on a real pseudo-terminal', async () => {
    const out = join(tmp, 'pty');
    const { code, output } = await onPty(`'${process.execPath}' bin/spaceact.mjs run --agent random --seed 2 --instance P6-L3-s100 --render never --no-report --out '${out}'`);
    expect(code, output).to.equal(0);
    // While the episode runs the line says "0/1 episodes | P6-L3-s100 turn N"; N must change.
    const seen = new Set([...output.matchAll(/0\/1 episodes \| P6-L3-s100 turn (\d+)/g)].map((m) => Number(m[1])));
    expect(seen.size, output.slice(0, 2000)).to.be.greaterThan(1);
    expect(output).to.include('1/1 episodes');
    expect(output).to.match(/\u001b\[/);
  });
});
