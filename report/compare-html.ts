/**
 * `spaceact compare --html FILE`: the comparison of two runs as one self-contained page — the
 * scope table (overall and per category: each side's success with its Wilson interval, B − A
 * with its paired bootstrap interval, the same for mean score), charts in the report's style,
 * the paired per-instance table and, when the logs allow, both sides' failure labels and
 * behaviour metrics. Every number is the {@link Comparison} `compare --json` prints, and every
 * text from the logs goes through the escaping template.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { html, inlineElement, type Html } from '../core/html-escape.ts';
import { barChart, type Bar } from './charts.ts';
import { COMPARISON_COLUMNS, comparisonNotes, droppedLines, scopeCells, type Comparison, type CompareScope, type ComparePair } from './compare.ts';
import type { BehaviourComparison } from './analysis/compare-behaviour.ts';
import { categoryLabel, formatMetric, METRIC_ROWS } from './analysis/analyze.ts';
import { ANALYSIS_STYLE, labelBadge, PAGE_STYLE } from './analysis/html.ts';
import { FAILURE_LABELS } from './analysis/taxonomy.ts';

const COLOR_A = '#9db4d6';
const COLOR_B = '#2e5f99';

const COMPARE_STYLE = `
td.pos{color:#1b6e2a} td.neg{color:#a31515} tr.scope-all th,tr.scope-all td{font-weight:600}
#behaviour-tables{align-items:flex-start} table.stats th[scope=row]{text-align:left} #pairs th:nth-child(-n+3){text-align:left}
.side{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:4px;vertical-align:baseline}
`;

function scopeName(s: CompareScope): string {
  return s.scope === 'all' ? 'all' : categoryLabel(s.scope);
}

/** A number as a data attribute: exactly the JSON's value (`String` of a number round-trips). */
function raw(x: number | null | undefined): string {
  return x === null || x === undefined ? '' : String(x);
}

function scopeRow(s: CompareScope): Html {
  const cells = scopeCells(s);
  const d = s.success.diff;
  const cls = (v: number | undefined): string => (v === undefined ? '' : v > 0 ? 'pos' : v < 0 ? 'neg' : '');
  return html`<tr class="scope-${s.scope}" data-scope="${s.scope}" data-diff="${raw(d?.diff)}" data-lo="${raw(d?.lo)}" data-hi="${raw(d?.hi)}" data-score-diff="${raw(s.score?.diff)}" data-score-lo="${raw(s.score?.lo)}" data-score-hi="${raw(s.score?.hi)}"><th scope="row" title="${scopeName(s)}">${cells[0]}</th>${cells.slice(1).map((c, i) => html`<td data-col="${COMPARISON_COLUMNS[i + 1]}" class="${i === 3 ? cls(d?.diff) : i === 7 ? cls(s.score?.diff) : ''}">${c}</td>`)}</tr>`;
}

function solvedText(x: boolean): string {
  return x ? 'solved' : 'unsolved';
}

function scoreText(x: number | null): string {
  return x === null ? '–' : x.toFixed(1);
}

function pairRow(p: ComparePair): Html {
  const solvedDiff = (p.b.solved ? 1 : 0) - (p.a.solved ? 1 : 0);
  const scoreDiff = p.a.score !== null && p.b.score !== null ? p.b.score - p.a.score : null;
  const cls = (v: number | null): string => (v === null || v === 0 ? '' : v > 0 ? 'pos' : 'neg');
  return html`<tr data-instance="${p.instance}"><td>${p.instance}</td><td>${p.family}</td><td>${p.tier}</td><td>${solvedText(p.a.solved)}</td><td>${scoreText(p.a.score)}</td><td>${solvedText(p.b.solved)}</td><td>${scoreText(p.b.score)}</td><td class="${cls(solvedDiff)}">${solvedDiff > 0 ? '+1' : solvedDiff < 0 ? '−1' : '0'}</td><td class="${cls(scoreDiff)}">${scoreDiff === null ? '–' : `${scoreDiff > 0 ? '+' : ''}${scoreDiff.toFixed(1)}`}</td></tr>`;
}

function charts(c: Comparison): Html {
  const scopes = [c.overall, ...c.categories];
  const success: Bar[] = scopes.flatMap((s) => [
    { label: `${s.scope} · A`, value: s.success.a.rate, interval: s.success.a.wilson95, note: `${s.success.a.solved}/${s.success.a.n}`, color: COLOR_A },
    { label: `${s.scope} · B`, value: s.success.b.rate, interval: s.success.b.wilson95, note: `${s.success.b.solved}/${s.success.b.n}`, color: COLOR_B },
  ]);
  const score: Bar[] = scopes.flatMap((s) => [
    { label: `${s.scope} · A`, value: s.score?.meanA ?? null, note: `n=${s.score?.n ?? 0}`, color: COLOR_A },
    { label: `${s.scope} · B`, value: s.score?.meanB ?? null, note: `n=${s.score?.n ?? 0}`, color: COLOR_B },
  ]);
  const successChart = barChart({ title: 'Success per scope, A and B (Wilson 95% whiskers)', max: 1, format: (v) => `${Math.round(v * 100)}%`, ticks: [0, 0.25, 0.5, 0.75, 1], bars: success });
  const scoreChart = barChart({ title: 'Mean score per scope over pairs graded on both sides', max: 100, format: (v) => v.toFixed(v === Math.round(v) ? 0 : 1), ticks: [0, 20, 40, 60, 80, 100], bars: score });
  return html`<div class="charts" id="compare-charts"><figure class="chart-box">${successChart}</figure><figure class="chart-box">${scoreChart}</figure></div>`;
}

function behaviourSection(b: BehaviourComparison | string | null): Html {
  if (b === null) return html``;
  if (typeof b === 'string') return html`<h2>Behaviour</h2><p class="muted" id="behaviour-missing">Behaviour metrics and failure labels are left out: ${b}</p>`;
  const fa = b.a.failures.overall;
  const fb = b.b.failures.overall;
  const signedInt = (d: number): string => `${d > 0 ? '+' : ''}${d}`;
  const labelRows = FAILURE_LABELS.map((l) => html`<tr data-label="${l}"><th scope="row">${labelBadge(l)}</th><td>${fa.counts[l]}</td><td>${fb.counts[l]}</td><td>${signedInt(fb.counts[l] - fa.counts[l])}</td></tr>`);
  const oa = b.a.behaviour.overall;
  const ob = b.b.behaviour.overall;
  const metricRows = METRIC_ROWS.map((m) => {
    const x = oa[m.field];
    const y = ob[m.field];
    const d = typeof x === 'number' && typeof y === 'number' && Number.isFinite(x) && Number.isFinite(y) ? y - x : null;
    return html`<tr data-metric="${m.field}"><th scope="row">${m.label}</th><td>${formatMetric(x, m.format)}</td><td>${formatMetric(y, m.format)}</td><td>${d === null ? '–' : `${d > 0 ? '+' : ''}${formatMetric(d, m.format)}`}</td></tr>`;
  });
  return html`<h2>Behaviour</h2>
<p class="muted">Over the ${b.instances.length} paired instance(s), as <code>spaceact compare --analysis</code> prints them; labels and metrics as "Behaviour analysis" in docs/analysis.md defines them.</p>
<div class="charts" id="behaviour-tables"><table class="stats analysis" id="failure-deltas"><thead><tr><th>failure label (unsolved episodes)</th><th>A</th><th>B</th><th>B − A</th></tr></thead><tbody>${labelRows}<tr><th scope="row">unsolved</th><td>${fa.unsolved}</td><td>${fb.unsolved}</td><td>${signedInt(fb.unsolved - fa.unsolved)}</td></tr></tbody></table>
<table class="stats analysis" id="behaviour-deltas"><thead><tr><th>behaviour</th><th>A</th><th>B</th><th>B − A</th></tr></thead><tbody>${metricRows}</tbody></table></div>`;
}

/**
 * The comparison as one self-contained HTML page (no network request; `csp` goes into its
 * meta tag). `behaviour` is both sides' analysis, a sentence saying why it is missing, or null
 * to leave the section out.
 */
export function comparisonPage(c: Comparison, behaviour: BehaviourComparison | string | null, csp: string): string {
  const dropped = droppedLines(c);
  const side = (name: 'A' | 'B', s: Comparison['a'], color: string): Html =>
    html`<li><span class="side" style="background:${color}"></span><b>${name}</b>: <code>${s.dir}</code> — agent <code>${s.agent}</code>, mode ${s.mode}, ${s.episodes} episode(s)</li>`;
  const body = html`<h1>SpaceAct comparison: B − A</h1>
<ul id="runs">${side('A', c.a, COLOR_A)}${side('B', c.b, COLOR_B)}</ul>
<p id="paired">Paired instances: ${c.overall.pairs}. ${dropped.length ? dropped.join('. ') + '.' : 'Nothing dropped.'}</p>
${charts(c)}
<h2>Overall and per category</h2>
<div class="table-scroll"><table class="stats analysis" id="scopes"><thead><tr>${COMPARISON_COLUMNS.map((h) => html`<th>${h}</th>`)}</tr></thead><tbody>${[c.overall, ...c.categories].map(scopeRow)}</tbody></table></div>
${comparisonNotes(c).map((n) => html`<p class="muted">${n}</p>`)}
<p class="muted">Categories: ${c.categories.map((s) => scopeName(s)).join('; ') || '–'}.</p>
${behaviourSection(behaviour)}
<h2>Paired instances</h2>
<div class="table-scroll"><table class="stats analysis" id="pairs"><thead><tr><th>instance</th><th>family</th><th>tier</th><th>A</th><th>A score</th><th>B</th><th>B score</th><th>solved B − A</th><th>score B − A</th></tr></thead><tbody>${c.pairs.map(pairRow)}</tbody></table></div>`;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="referrer" content="no-referrer">
<title>SpaceAct comparison</title>
${inlineElement('style', PAGE_STYLE + ANALYSIS_STYLE + COMPARE_STYLE)}
</head><body>
${body}
</body></html>
`.text;
}

/** Writes {@link comparisonPage} to `out` atomically (a temporary file beside it, then a rename). */
export function writeComparisonPage(out: string, c: Comparison, behaviour: BehaviourComparison | string | null, csp: string): void {
  const tmp = `${out}.${process.pid}.tmp`;
  writeFileSync(tmp, comparisonPage(c, behaviour, csp));
  renameSync(tmp, out);
}
