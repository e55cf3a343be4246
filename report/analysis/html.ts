/**
 * The analysis as HTML: a section of the run report (behaviour metrics, failure labels,
 * diagnostic deltas, with charts) and the leaderboard page. Every text goes through the
 * escaping template.
 */
import { barChart } from '../charts.ts';
import { html, inlineElement, type Html } from '../../core/html-escape.ts';
import { categoryLabel, formatMetric, METRIC_ROWS, turnRanges, type Analysis } from './analyze.ts';
import type { Leaderboard } from './leaderboard.ts';
import { FAILURE_LABELS, type FailureLabel } from './taxonomy.ts';

/** Colours of the failure labels in charts and badges. */
export const LABEL_COLORS: Record<FailureLabel, string> = {
  abandoned: '#a31515',
  'premature commit': '#8e5ea2',
  'budget exhaustion': '#3e95cd',
  'violation loop': '#e67e22',
  'collision loop': '#c0392b',
  'observation loop': '#d4a017',
  stall: '#6b6b6b',
};

/** CSS the analysis section and the leaderboard page add to a page. */
export const ANALYSIS_STYLE = `
.table-scroll{max-width:100%;overflow-x:auto} .table-scroll table{min-width:0}
table.analysis td,table.analysis th{white-space:nowrap} table.failures td:nth-child(n+2){text-align:left;white-space:normal} table.failures td:first-child{white-space:nowrap}
.label{border-radius:9px;padding:1px 8px;font-size:12px;color:#fff;white-space:nowrap}
li.turn.earned{background:#fff8e1} .earned-mark{font-size:12px;font-weight:600;margin-left:6px}
`;

function pct(x: number | null): string {
  return x === null ? '–' : `${(100 * x).toFixed(1)}%`;
}

function fixed(x: number | null | undefined, digits = 1): string {
  return x === null || x === undefined ? '–' : x.toFixed(digits);
}

/** A label as a coloured badge. */
export function labelBadge(label: FailureLabel): Html {
  return html`<span class="label" style="background:${LABEL_COLORS[label]}">${label}</span>`;
}

function behaviourTable(a: Analysis): Html {
  const groups = [a.behaviour.overall, ...a.behaviour.byCategory];
  const kinds = [...new Set(groups.flatMap((g) => Object.keys(g.violationsByKind)))].sort();
  const rows = METRIC_ROWS.map((m) => html`<tr data-metric="${m.field}"><th scope="row">${m.label}</th>${groups.map((g) => html`<td>${formatMetric(g[m.field], m.format)}</td>`)}</tr>`);
  const kindRows = kinds.map((k) => html`<tr data-metric="violations-${k}"><th scope="row">… ${k} violations per episode</th>${groups.map((g) => html`<td>${formatMetric(g.episodes ? (g.violationsByKind[k] ?? 0) : null, 'num')}</td>`)}</tr>`);
  return html`<table class="stats analysis" id="behaviour-table"><thead><tr><th>metric</th>${groups.map((g) => html`<th title="${g.key === 'all' ? 'all episodes' : categoryLabel(g.key)}">${g.key === 'all' ? 'all' : g.key}</th>`)}</tr></thead><tbody>${rows}${kindRows}</tbody></table>`;
}

function familyTable(a: Analysis): Html {
  const fams = a.behaviour.byFamily;
  const rows = METRIC_ROWS.map((m) => html`<tr><th scope="row">${m.label}</th>${fams.map((g) => html`<td>${formatMetric(g[m.field], m.format)}</td>`)}</tr>`);
  return html`<details><summary>Behaviour by family</summary><table class="stats analysis"><thead><tr><th>metric</th>${fams.map((g) => html`<th>${g.key}</th>`)}</tr></thead><tbody>${rows}</tbody></table></details>`;
}

function charts(a: Analysis): Html {
  const o = a.behaviour.overall;
  const f = a.failures.overall;
  const taxonomy = barChart({
    title: `Failure labels of ${f.unsolved} unsolved episode(s)`,
    max: 1,
    format: (v) => `${Math.round(v * 100)}%`,
    ticks: [0, 0.25, 0.5, 0.75, 1],
    bars: FAILURE_LABELS.map((l) => ({ label: l, value: f.unsolved ? f.counts[l] / f.unsolved : null, note: `${f.counts[l]}`, color: LABEL_COLORS[l] })),
  });
  const camMax = Math.max(1, o.cameraPerEpisodeSolved ?? 0, o.cameraPerEpisodeUnsolved ?? 0);
  const camera = barChart({
    title: 'Camera calls per episode: solved vs unsolved',
    max: camMax,
    format: (v) => v.toFixed(1),
    ticks: [0, camMax / 2, camMax],
    bars: [
      { label: 'solved', value: o.cameraPerEpisodeSolved, note: `share ${pct(o.cameraShareSolved)}`, color: '#2e7d32' },
      { label: 'unsolved', value: o.cameraPerEpisodeUnsolved, note: `share ${pct(o.cameraShareUnsolved)}`, color: '#b26a00' },
    ],
  });
  const collisions = barChart({
    title: `After a collision (${o.collisionTurnsWithNext} collision turn(s) with a next turn)`,
    max: 1,
    format: (v) => `${Math.round(v * 100)}%`,
    ticks: [0, 0.5, 1],
    bars: [
      { label: 'next turn collides too', value: o.repeatCollisionRate, color: '#c0392b' },
      { label: 'next turn moves the camera', value: o.cameraAfterCollisionRate, color: '#d4a017' },
    ],
  });
  const batchMax = 5;
  const batching = barChart({
    title: 'Calls per response (batching)',
    max: batchMax,
    format: (v) => v.toFixed(2),
    ticks: [0, 1, 2, 3, 4, 5],
    bars: [
      { label: 'all responses', value: o.actionsPerResponse, note: `saves ${pct(o.callsSavedByBatching)}`, color: '#4a7bb7' },
      { label: 'on a collision turn', value: o.batchBeforeCollision, color: '#c0392b' },
      { label: 'on the turn after', value: o.batchAfterCollision, color: '#7b52ab' },
      ...a.behaviour.byCategory.map((g) => ({ label: categoryLabel(g.key), value: g.actionsPerResponse, color: '#9db4d6' })),
    ],
  });
  return html`<div class="charts" id="analysis-charts"><figure class="chart-box">${taxonomy}</figure><figure class="chart-box">${camera}</figure><figure class="chart-box">${collisions}</figure><figure class="chart-box">${batching}</figure></div>`;
}

function failureTable(a: Analysis): Html {
  const groups = [a.failures.overall, ...a.failures.byCategory];
  const rows = FAILURE_LABELS.map(
    (l) => html`<tr data-label="${l}"><th scope="row">${labelBadge(l)}</th>${groups.map((g) => html`<td>${g.unsolved ? `${g.counts[l]} (${pct(g.counts[l] / g.unsolved)})` : '–'}</td>`)}</tr>`,
  );
  return html`<table class="stats analysis" id="failure-counts"><thead><tr><th>label</th>${groups.map((g) => html`<th title="${g.key === 'all' ? 'all' : categoryLabel(g.key)}">${g.key}</th>`)}</tr></thead><tbody>${rows}<tr><th scope="row">unsolved</th>${groups.map((g) => html`<td>${g.unsolved}</td>`)}</tr><tr><th scope="row">loops (collision + observation)</th>${groups.map((g) => html`<td>${pct(g.loopShare)}</td>`)}</tr></tbody></table>`;
}

function verdictList(a: Analysis, link: (instance: string, turn?: number) => string | null): Html {
  if (a.failures.episodes.length === 0) return html`<p class="muted">No unsolved episode.</p>`;
  const rows = a.failures.episodes.map((v) => {
    const href = link(v.instance);
    const name = href ? html`<a href="${href}">${v.instance}</a>` : html`${v.instance}`;
    return html`<tr data-instance="${v.instance}" data-label="${v.label}"><td>${name}</td><td>${labelBadge(v.label)}</td><td>${turnRanges(v.turns)}</td><td>${v.reason}</td></tr>`;
  });
  return html`<table class="stats failures" id="failure-episodes"><thead><tr><th>instance</th><th>label</th><th>turns that earned it</th><th>why</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function deltaTables(a: Analysis): Html {
  const m = a.deltas.modes;
  const l = a.deltas.levers;
  const modes = m.length
    ? html`<table class="stats analysis" id="mode-deltas"><thead><tr><th>agent</th><th>mode</th><th>pairs</th><th>default score</th><th>mode score</th><th>gap closed</th><th>collisions/episode default</th><th>collisions/episode mode</th><th>abandoned dropped</th></tr></thead><tbody>${m.map((d) => html`<tr><td>${d.agent}</td><td>${d.mode}</td><td>${d.pairs}</td><td>${fixed(d.meanDefault)}</td><td>${fixed(d.meanMode)}</td><td>${pct(d.gapClosed)}</td><td>${fixed(d.collisionsDefault, 2)}</td><td>${fixed(d.collisionsMode, 2)}</td><td>${d.abandonedDropped}</td></tr>`)}</tbody></table>`
    : html`<p class="muted">Modes vs default: needs runs of one agent in the default mode and another (e.g. <code>--mode plan</code>, <code>--mode state</code>), analysed together with <code>spaceact analyze DIR DIR</code>.</p>`;
  const levers = l.length
    ? html`<table class="stats analysis" id="lever-deltas"><thead><tr><th>agent</th><th>mode</th><th>lever</th><th>families</th><th>pairs</th><th>L5 score</th><th>L7 score</th><th>drop L5 − L7</th></tr></thead><tbody>${l.map((d) => html`<tr><td>${d.agent}</td><td>${d.mode}</td><td>${d.lever}</td><td>${d.families.join(', ')}</td><td>${d.pairs}</td><td>${fixed(d.meanL5)}</td><td>${fixed(d.meanL7)}</td><td>${d.drop === null ? '–' : `${d.drop >= 0 ? '+' : ''}${d.drop.toFixed(1)}`}</td></tr>`)}</tbody></table>`
    : html`<p class="muted">L7 levers vs L5: needs a family's L5 and L7 instances at the same seed (e.g. <code>--family F</code> or <code>--suite all</code>).</p>`;
  const st = a.deltas.leverStudies;
  const signedText = (x: number | null): string => (x === null ? '–' : `${x >= 0 ? '+' : ''}${x.toFixed(1)}`);
  const studies = st.length
    ? html`<table class="stats analysis" id="lever-studies"><thead><tr><th>agent</th><th>mode</th><th>lever</th><th>families</th><th>pairs</th><th>L5 score</th><th>L5 + lever score</th><th>delta lever − L5</th><th>95 % interval (paired bootstrap)</th><th>solved L5 / lever (all pairs, pass/fail families too)</th></tr></thead><tbody>${st.map((d) => html`<tr><td>${d.agent}</td><td>${d.mode}</td><td>${d.lever}</td><td>${d.families.join(', ')}</td><td>${d.pairs}</td><td>${fixed(d.meanL5)}</td><td>${fixed(d.meanLever)}</td><td>${signedText(d.delta)}</td><td>${d.interval ? `${signedText(d.interval.lo)} … ${signedText(d.interval.hi)}` : '–'}</td><td title="${d.successFamilies.join(', ')}">${d.solvedL5} / ${d.solvedLever} of ${d.successPairs}</td></tr>`)}</tbody></table>`
    : html`<p class="muted">Lever studies vs L5: needs a family's L5 instance and its L5 + lever instance at the same seed (<code>--suite levers</code>).</p>`;
  return html`<h3>Diagnostic deltas</h3>${modes}${levers}${studies}`;
}

/**
 * The report's analysis section: charts, behaviour by category and family, the failure
 * label of every unsolved episode with the turns that earned it, and diagnostic deltas.
 * `link` gives the page anchor of an episode (and turn).
 */
export function analysisSection(a: Analysis, link: (instance: string, turn?: number) => string | null): Html {
  return html`<section id="analysis"><h2>Behaviour analysis</h2>
<p class="muted">Measured from the logs as "Behaviour analysis" in docs/analysis.md defines: batching, camera use in solved and unsolved episodes, what follows a collision, note updates and violations; one failure label per unsolved episode.</p>
${charts(a)}
<h3>Behaviour by category</h3>${behaviourTable(a)}${familyTable(a)}
<h3>Failure taxonomy</h3>${failureTable(a)}${verdictList(a, link)}
${deltaTables(a)}</section>`;
}

// ---- the leaderboard page --------------------------------------------------------------

/** CSS of the stand-alone pages (leaderboard, comparison). */
export const PAGE_STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1400px;padding:16px 24px;color:#1b1b1b;background:#fafafa}
h1{font-size:22px;margin:0 0 4px} h2{font-size:18px;margin:24px 0 8px;border-bottom:1px solid #ddd}
table{border-collapse:collapse;background:#fff} th,td{border:1px solid #ddd;padding:3px 7px;text-align:right;vertical-align:top}
th{background:#f0f2f5} td:nth-child(-n+3){text-align:left} td{white-space:nowrap} .ci{color:#777;font-size:12px;display:block} .muted{color:#666}
.charts{display:flex;flex-wrap:wrap;gap:12px} .chart-box{margin:0;background:#fff;border:1px solid #ddd;border-radius:6px;padding:8px}
`;

function successCell(s: { solved: number; episodes: number; rate: number | null; wilson95: { lo: number; hi: number } | null }): Html {
  const w = s.wilson95 ? `[${(100 * s.wilson95.lo).toFixed(0)}, ${(100 * s.wilson95.hi).toFixed(0)}]` : '';
  return html`<td>${pct(s.rate)} <span class="ci">${s.solved}/${s.episodes} ${w}</span></td>`;
}

/** The leaderboard as one self-contained HTML page (no network request, strict CSP). */
export function leaderboardPage(lb: Leaderboard, csp: string): string {
  const cats = lb.categories;
  const rows = lb.rows.map(
    (r) =>
      html`<tr data-agent="${r.agent}" data-mode="${r.mode}"><td>${r.rank}</td><td><code>${r.agent}</code>${r.model ? html`<span class="ci">model ${r.model}</span>` : null}</td><td>${r.mode}<span class="ci">${r.instanceSet.name}, n=${r.episodes}</span></td><td data-col="score">${fixed(r.meanScore)}<span class="ci">n=${r.graded}${r.abandoned ? `; ${fixed(r.meanScoreNotAbandoned)} without abandoned` : ''}</span></td>${successCell(r.success)}${cats.map((c) => {
        const s = r.categories.find((x) => x.category === c);
        return s ? successCell(s) : html`<td>–</td>`;
      })}<td>${r.graded}</td><td>${r.ungraded}</td><td data-col="abandoned">${r.abandoned}</td><td>${fixed(r.meanTurns)}</td><td>${fixed(r.meanViolations)}</td><td>${r.tokensPerSolved === null ? '–' : Math.round(r.tokensPerSolved)}</td><td>${r.costPerSolved === undefined ? '–' : r.costPerSolved === null ? '–' : `$${r.costPerSolved.toFixed(4)}`}</td></tr>`,
  );
  const label = (r: Leaderboard['rows'][number]): string => `${r.agent} · ${r.mode}`;
  const signedText = (x: number | null): string => (x === null ? '–' : `${x >= 0 ? '+' : ''}${x.toFixed(1)}`);
  const leverRows = lb.rows.flatMap((r) => r.leverDeltas.map((d) => html`<tr><td><code>${r.agent}</code></td><td>${r.mode}</td><td>${d.lever}</td><td>${d.families.join(', ')}</td><td>${d.pairs}</td><td>${fixed(d.meanL5)}</td><td>${fixed(d.meanLever)}</td><td>${signedText(d.delta)}</td><td>${d.interval ? `${signedText(d.interval.lo)} … ${signedText(d.interval.hi)}` : '–'}</td></tr>`));
  const score = barChart({
    title: 'Mean tiered score (graded episodes)',
    max: 100,
    format: (v) => v.toFixed(v === Math.round(v) ? 0 : 1),
    ticks: [0, 20, 40, 60, 80, 100],
    bars: lb.rows.map((r) => ({ label: label(r), value: r.meanScore, note: `n=${r.graded}` })),
  });
  const success = barChart({
    title: 'Success rate (Wilson 95% whiskers)',
    max: 1,
    format: (v) => `${Math.round(v * 100)}%`,
    ticks: [0, 0.25, 0.5, 0.75, 1],
    bars: lb.rows.map((r) => ({ label: label(r), value: r.success.rate, interval: r.success.wilson95, note: `${r.solved}/${r.episodes}`, color: '#2e8b57' })),
  });
  const body = html`<h1>SpaceAct leaderboard</h1>
<p class="muted">One row per agent (model) and mode over ${lb.rows.reduce((s, r) => s + r.runs.length, 0)} run folder(s). Score: mean tiered score over graded episodes, abandoned ones counted as 0 (the figure without them beside it). Success: every episode, with its Wilson 95 % interval, overall and per category. Pass/fail episodes are ungraded and count toward success only. Tokens and cost are per solved episode. Category columns: ${cats.map((c) => categoryLabel(c)).join('; ')}.</p>
<div class="charts"><figure class="chart-box">${score}</figure><figure class="chart-box">${success}</figure></div>
<h2>Table</h2>
<div class="table-scroll"><table id="leaderboard"><thead><tr><th>#</th><th>agent</th><th>mode</th><th>score</th><th>success</th>${cats.map((c) => html`<th title="${categoryLabel(c)} success">${c}</th>`)}<th>graded</th><th>ungraded</th><th>abandoned</th><th>turns</th><th>violations</th><th>tokens / solved</th><th>cost / solved</th></tr></thead><tbody>${rows}</tbody></table></div>
${leverRows.length ? html`<h2>Lever studies</h2><p class="muted">Each L5 + lever instance against its family's L5 instance at the same seed: the mean score delta lever − L5 with its paired bootstrap 95 % interval.</p><div class="table-scroll"><table id="lever-studies"><thead><tr><th>agent</th><th>mode</th><th>lever</th><th>families</th><th>pairs</th><th>L5 score</th><th>lever score</th><th>delta</th><th>95 % interval</th></tr></thead><tbody>${leverRows}</tbody></table></div>` : null}
<h2>Runs</h2><ul>${lb.rows.map((r) => html`<li>${label(r)} (${r.instanceSet.name}, ${r.instanceSet.n} instances): ${r.runs.join(', ')}${r.duplicates.length ? html` <span class="muted">(given more than once, first kept: ${r.duplicates.join(', ')})</span>` : null}</li>`)}</ul>`;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="referrer" content="no-referrer">
<title>SpaceAct leaderboard</title>
${inlineElement('style', PAGE_STYLE)}
</head><body>
${body}
</body></html>
`.text;
}
