import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { RunSummary, SummaryEntry } from '../agents/runner.ts';
import { compareRuns, compareSummaries, formatComparison } from '../report/compare.ts';
import { bootstrapMean, quantile, wilson } from '../core/statistics.ts';
import { SpaceActError } from '../core/errors.ts';
import { entry, writeHandmadeRun, XSS_ALL } from './support/report-run.ts';
import { launchBrowser, watchedPage } from './support/report-browser.ts';

const run = promisify(execFile);

function summary(entries: SummaryEntry[], agent = 'a'): RunSummary {
  return {
    package: { name: 'spaceact', version: 'test' },
    agent: { name: agent, settings: {} },
    mode: 'default',
    episodes: entries,
    totals: { episodes: entries.length, solved: 0, abandoned: 0, inputTokens: 0, outputTokens: 0 },
    unfinished: [],
  };
}

describe('report statistics: Wilson intervals and the bootstrap', () => {
  it('gives the textbook Wilson 95% intervals', () => {
    const cases: Array<[number, number, number, number]> = [
      [0, 10, 0, 0.2775],
      [5, 10, 0.2366, 0.7634],
      [8, 10, 0.4902, 0.9433],
      [10, 10, 0.7225, 1],
      [81, 263, 0.2553, 0.3662],
    ];
    for (const [k, n, lo, hi] of cases) {
      const w = wilson(k, n)!;
      expect(w.lo, `${k}/${n} lo`).to.be.closeTo(lo, 5e-5);
      expect(w.hi, `${k}/${n} hi`).to.be.closeTo(hi, 5e-5);
    }
    expect(wilson(0, 0)).to.equal(null);
    expect(() => wilson(3, 2)).to.throw(RangeError);
    expect(() => wilson(0.5, 2)).to.throw(RangeError);
  });

  it('interpolates quantiles between ranks', () => {
    expect(quantile([1, 2, 3, 4], 0)).to.equal(1);
    expect(quantile([1, 2, 3, 4], 1)).to.equal(4);
    expect(quantile([1, 2, 3, 4], 0.5)).to.equal(2.5);
    expect(quantile([10], 0.975)).to.equal(10);
  });

  it('bootstraps a constant to an interval of zero width', () => {
    const b = bootstrapMean([0.1, 0.1, 0.1, 0.1, 0.1], 'k')!;
    expect(b.lo).to.equal(b.estimate);
    expect(b.hi).to.equal(b.estimate);
    expect(b.resamples).to.equal(10_000);
    expect(bootstrapMean([], 'k')).to.equal(null);
  });

  it('is reproducible under its key and changes with it', () => {
    const xs = Array.from({ length: 40 }, (_, i) => (i * 37) % 11);
    const a = bootstrapMean(xs, 'seed-1')!;
    expect(bootstrapMean(xs, 'seed-1')).to.deep.equal(a);
    const c = bootstrapMean(xs, 'seed-2')!;
    expect([c.lo, c.hi]).to.not.deep.equal([a.lo, a.hi]);
    expect(a.lo).to.be.below(a.estimate);
    expect(a.hi).to.be.above(a.estimate);
  });

  it('matches the normal approximation for a large sample', () => {
    // 200 values, half 0 and half 1: mean 0.5, standard error 0.5/sqrt(200) ≈ 0.0354.
    const xs = Array.from({ length: 200 }, (_, i) => i % 2);
    const b = bootstrapMean(xs, 'normal')!;
    const se = 0.5 / Math.sqrt(200);
    expect(b.estimate).to.equal(0.5);
    expect(b.lo).to.be.closeTo(0.5 - 1.96 * se, 0.01);
    expect(b.hi).to.be.closeTo(0.5 + 1.96 * se, 0.01);
  });
});

describe('spaceact compare: paired comparison of two runs', () => {
  const a = summary(
    [
      entry('P6-L5-s1', { solved: true, score: 70 }),
      entry('P6-L5-s2', { solved: false, score: 20 }),
      entry('M1-L5-s1', { solved: false, score: 10 }),
      entry('B1-L5-s1', { solved: false, score: null, graded: false }),
      entry('T1-L5-s1', { solved: false, score: 0, abandoned: true }),
      entry('V1-L5-s1', { solved: true, score: 100 }),
    ],
    'A',
  );
  const b = summary(
    [
      entry('P6-L5-s1', { solved: true, score: 80 }),
      entry('P6-L5-s2', { solved: true, score: 60 }),
      entry('M1-L5-s1', { solved: false, score: 20 }),
      entry('B1-L5-s1', { solved: true, score: null, graded: false }),
      entry('T1-L5-s1', { solved: true, score: 100 }),
      entry('A1-L5-s1', { solved: true, score: 100 }),
    ],
    'B',
  );

  it('pairs by instance, says what it dropped, and differences B − A', () => {
    const c = compareSummaries(a, b, { seed: 7, resamples: 2000 });
    expect(c.onlyInA).to.deep.equal(['V1-L5-s1']);
    expect(c.onlyInB).to.deep.equal(['A1-L5-s1']);
    expect(c.abandonedDropped).to.deep.equal(['T1-L5-s1']);
    expect(c.overall.pairs).to.equal(4);
    expect(c.pairs.map((p) => p.instance)).to.deep.equal(['B1-L5-s1', 'P6-L5-s1', 'P6-L5-s2', 'M1-L5-s1']);
    // Success over all four pairs (the pass/fail family counts here)...
    expect(c.overall.success.a).to.include({ n: 4, solved: 1 });
    expect(c.overall.success.b).to.include({ n: 4, solved: 3 });
    expect(c.overall.success.diff!.diff).to.equal(0.5);
    expect(c.overall.success.a.wilson95).to.deep.equal(wilson(1, 4));
    // ...but the score only over the three graded pairs: (10 + 40 + 10) / 3 = 20.
    expect(c.overall.score!.n).to.equal(3);
    expect(c.overall.score!.meanA).to.be.closeTo(100 / 3, 1e-9);
    expect(c.overall.score!.diff).to.be.closeTo(20, 1e-9);
    expect(c.overall.score!.lo).to.be.at.least(10 - 1e-9);
    expect(c.overall.score!.hi).to.be.at.most(40 + 1e-9);
    expect(c.categories.map((s) => s.scope)).to.deep.equal(['B', 'P', 'M']);
    const b1 = c.categories.find((s) => s.scope === 'B')!;
    expect(b1.score).to.equal(null);
    expect(b1.success.diff!.diff).to.equal(1);
    const text = formatComparison(c);
    expect(text).to.match(/dropped 1 instance\(s\) only in A: V1-L5-s1/);
    expect(text).to.match(/dropped 1 instance\(s\) only in B: A1-L5-s1/);
    expect(text).to.match(/dropped 1 pair\(s\) abandoned on one side or both: T1-L5-s1/);
    expect(text).to.match(/^all\s+4\s+1\/4 25\.0%/m);
  });

  it('gives a constant difference an interval of zero width', () => {
    const ids = ['P6-L5-s1', 'P6-L5-s2', 'M1-L5-s1', 'V1-L5-s1', 'A2-L5-s1'];
    const x = summary(ids.map((id, i) => entry(id, { score: 10 * i, solved: i % 2 === 0 })));
    const y = summary(ids.map((id, i) => entry(id, { score: 10 * i + 12.5, solved: i % 2 === 0 })));
    const c = compareSummaries(x, y);
    expect(c.overall.score).to.include({ diff: 12.5, lo: 12.5, hi: 12.5 });
    expect(c.overall.success.diff).to.include({ diff: 0, lo: 0, hi: 0 });
    expect(c.resamples).to.equal(10_000);
  });

  it('is deterministic under its seed', () => {
    const ids = Array.from({ length: 30 }, (_, i) => `P6-L5-s${i}`);
    const x = summary(ids.map((id, i) => entry(id, { score: (i * 37) % 100, solved: i % 3 === 0 })));
    const y = summary(ids.map((id, i) => entry(id, { score: (i * 53) % 100, solved: i % 2 === 0 })));
    const one = compareSummaries(x, y, { seed: 3 });
    expect(compareSummaries(x, y, { seed: 3 })).to.deep.equal(one);
    const other = compareSummaries(x, y, { seed: 4 });
    expect(other.overall.score!.diff).to.equal(one.overall.score!.diff);
    expect([other.overall.score!.lo, other.overall.score!.hi]).to.not.deep.equal([one.overall.score!.lo, one.overall.score!.hi]);
  });

  it('refuses bad options and missing runs', () => {
    expect(() => compareSummaries(a, b, { seed: -1 })).to.throw(SpaceActError);
    expect(() => compareSummaries(a, b, { resamples: 5 })).to.throw(SpaceActError);
    expect(() => compareRuns('/nonexistent/run-a', '/nonexistent/run-b')).to.throw(SpaceActError, /not a folder/);
  });

  it('prints the same JSON from the command line for the same seed', async function () {
    this.timeout(60000);
    const tmp = mkdtempSync(join(tmpdir(), 'spaceact-compare-'));
    try {
      await writeHandmadeRun(join(tmp, 'a'), a.episodes.map((e) => ({ entry: e, turns: 1, text: 'plain' })));
      await writeHandmadeRun(join(tmp, 'b'), b.episodes.map((e) => ({ entry: e, turns: 1, text: 'plain' })));
      const args = ['bin/spaceact.mjs', 'compare', join(tmp, 'a'), join(tmp, 'b'), '--json', '--seed', '11'];
      const first = await run(process.execPath, args);
      const c = JSON.parse(first.stdout) as ReturnType<typeof compareSummaries>;
      expect(c.seed).to.equal(11);
      expect(c.overall.pairs).to.equal(4);
      expect(c).to.deep.equal(JSON.parse(JSON.stringify(compareRuns(join(tmp, 'a'), join(tmp, 'b'), { seed: 11 }))));
      const bad = await run(process.execPath, ['bin/spaceact.mjs', 'compare', join(tmp, 'a'), join(tmp, 'missing')]).catch((e: { code: number; stderr: string }) => e);
      expect((bad as { code: number }).code).to.equal(2);
      expect((bad as { stderr: string }).stderr).to.match(/missing is not a folder/);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('writes --html: a self-contained page whose rows and differences are the JSON\'s, log text inert', async function () {
    this.timeout(180000);
    const tmp = mkdtempSync(join(tmpdir(), 'spaceact-compare-html-'));
    // An instance id carrying markup, paired on both sides, and log text that tries to inject.
    const hostile = 'P6-L5-<script>window.pwned=1</script>';
    const ha = entry(hostile, { solved: false, score: 30 });
    const hb = entry(hostile, { solved: true, score: 90 });
    const browser = await launchBrowser();
    try {
      await writeHandmadeRun(join(tmp, 'a'), [...a.episodes, ha].map((e) => ({ entry: e, turns: 3, text: XSS_ALL })));
      await writeHandmadeRun(join(tmp, 'b'), [...b.episodes, hb].map((e) => ({ entry: e, turns: 3, text: XSS_ALL })));
      const page = join(tmp, 'cmp.html');
      const args = ['bin/spaceact.mjs', 'compare', join(tmp, 'a'), join(tmp, 'b'), '--json', '--seed', '5', '--html', page];
      const out = await run(process.execPath, args);
      const c = JSON.parse(out.stdout) as ReturnType<typeof compareSummaries>;
      expect(c.pairs.map((p) => p.instance)).to.include(hostile);
      expect(readdirSync(tmp).filter((f) => f.endsWith('.tmp'))).to.deep.equal([]);
      const text = readFileSync(page, 'utf8');
      expect(text).to.not.include('<script');
      expect(text).to.include('Content-Security-Policy');

      const { page: tab, watch } = await watchedPage(browser);
      await tab.goto(`file://${page}`, { waitUntil: 'load' });
      const seen = await tab.evaluate(() => {
        // No named function in here: tsx would wrap it in a helper the page does not have.
        const overall = document.querySelector('#scopes tr[data-scope="all"]')!;
        return {
          scripts: document.querySelectorAll('script').length,
          pwned: (window as unknown as { pwned?: number }).pwned ?? null,
          xssBold: document.getElementById('xss-bold') !== null,
          pairs: [...document.querySelectorAll('#pairs tbody tr')].map((tr) => [...tr.querySelectorAll('td,th')].map((td) => td.textContent ?? '')),
          overall: [...overall.querySelectorAll('td,th')].map((td) => td.textContent ?? ''),
          overallData: { diff: overall.getAttribute('data-diff'), lo: overall.getAttribute('data-lo'), hi: overall.getAttribute('data-hi'), score: overall.getAttribute('data-score-diff') },
          scopes: [...document.querySelectorAll('#scopes tbody tr')].map((tr) => tr.getAttribute('data-scope')),
          failureRows: document.querySelectorAll('#failure-deltas tbody tr').length,
          charts: document.querySelectorAll('#compare-charts svg').length,
        };
      });
      await tab.screenshot({ path: join(process.env.SPACEACT_SCREENSHOT_DIR ?? tmp, 'compare-page.png'), fullPage: true });
      await tab.close();
      expect(seen.scripts).to.equal(0);
      expect(seen.pwned).to.equal(null);
      expect(seen.xssBold).to.equal(false);
      expect(watch.requests.filter((u) => !u.startsWith('file://'))).to.deep.equal([]);
      expect(watch.dialogs).to.deep.equal([]);
      // One row per JSON pair, in its order, with its values.
      const f = (x: number | null): string => (x === null ? '–' : x.toFixed(1));
      expect(seen.pairs).to.deep.equal(
        c.pairs.map((p) => {
          const ds = (p.b.solved ? 1 : 0) - (p.a.solved ? 1 : 0);
          const d = p.a.score !== null && p.b.score !== null ? p.b.score - p.a.score : null;
          return [p.instance, p.family, p.tier, p.a.solved ? 'solved' : 'unsolved', f(p.a.score), p.b.solved ? 'solved' : 'unsolved', f(p.b.score), ds > 0 ? '+1' : ds < 0 ? '−1' : '0', d === null ? '–' : `${d > 0 ? '+' : ''}${d.toFixed(1)}`];
        }),
      );
      expect(seen.pairs.find((r) => r[0] === hostile)!.slice(1, 3)).to.deep.equal(['P6', 'L5']);
      // The overall difference: the JSON's numbers, exactly in the attributes and as printed in the cell.
      const d = c.overall.success.diff!;
      expect(seen.overallData).to.deep.equal({ diff: String(d.diff), lo: String(d.lo), hi: String(d.hi), score: String(c.overall.score!.diff) });
      const pp = (v: number): string => `${v > 0 ? '+' : ''}${(100 * v).toFixed(1)}`;
      expect(seen.overall[4]).to.equal(`${pp(d.diff)} [${pp(d.lo)}, ${pp(d.hi)}]${d.lo > 0 || d.hi < 0 ? '*' : ''}`);
      expect(seen.overall[1]).to.equal(String(c.overall.pairs));
      expect(seen.scopes).to.deep.equal(['all', ...c.categories.map((s) => s.scope)]);
      expect(seen.failureRows).to.be.greaterThan(0);
      expect(seen.charts).to.equal(2);
      // A folder that does not exist is refused before anything is written.
      const bad = await run(process.execPath, ['bin/spaceact.mjs', 'compare', join(tmp, 'a'), join(tmp, 'b'), '--html', join(tmp, 'nope', 'x.html')]).catch((e: { code: number; stderr: string }) => e);
      expect((bad as { code: number }).code).to.equal(2);
      expect((bad as { stderr: string }).stderr).to.match(/folder of .* does not exist/);
      expect(existsSync(join(tmp, 'nope'))).to.equal(false);
    } finally {
      await browser.close();
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
