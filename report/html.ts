import { END_REASON_TEXT, endReasonText } from '../agents/end-reasons.ts';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, writeFileSync, renameSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import type { LogTurn } from '../agents/episode-log.ts';
import type { SummaryEntry } from '../agents/runner.ts';
import { pageScript, pageSource } from '../render/page-bundle.ts';
import { SpaceActError } from '../core/errors.ts';
import { aggregateBy, groupStats, type GroupBy, type GroupStats } from './aggregate.ts';
import { barChart } from './charts.ts';
import { html, inlineElement, type Html } from '../core/html-escape.ts';
import { CATEGORY_NAMES, categoryOf } from '../core/catalog.ts';
import { loadRun, type EpisodeData, type RunData } from './run-data.ts';
import { analyzeRunData, turnRanges } from './analysis/analyze.ts';
import { analysisSection, ANALYSIS_STYLE, labelBadge } from './analysis/html.ts';
import { FAILURE_LABELS, type FailureVerdict } from './analysis/taxonomy.ts';
import { writeReplay } from './replay.ts';


/** The report page's script (paging and filters), bundled by esbuild like the renderer's page. */
const REPORT_PAGE = pageSource('report-page', import.meta.url, 'report-page');

/** Options of {@link writeReport}. */
export interface ReportOptions {
  /** Where to write the page (default `DIR/report.html`). */
  out?: string;
  /** Put every image into the page as a data URI: one portable file, but large. */
  embed?: boolean;
  /** Episodes per page of replays (default 25). */
  pageSize?: number;
  /**
   * Also write each episode's animated replay (`spaceact replay`, WebP) under `DIR/replays/` and
   * show it, full size on a click, at the top of the episode; with `embed` the replays go into
   * the page too. Takes a second or two per episode.
   */
  replays?: boolean;
}

/** An episode's animated replay as the page refers to it, or null when it has none. */
type ReplaySource = (ep: EpisodeData) => { url: string; frames: number; width: number; height: number } | null;

/** How the page refers to one episode image: its URL and, when known, its size in pixels. */
type ImageSource = (ep: EpisodeData, file: string) => { url: string; width?: number; height?: number } | null;

/** An image as the log names it (a turn's or the end's). */
interface LoggedImage {
  kind?: unknown;
  caption?: unknown;
  file?: unknown;
}

/** Width and height of a PNG from its header, or null when it is not one. */
export function pngSize(head: Buffer): { width: number; height: number } | null {
  if (head.length < 24 || head.readUInt32BE(0) !== 0x89504e47 || head.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
}

/** "1 turn", "3 turns". */
function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** What ended an episode, in words. */
const END_TEXT: Record<string, string> = END_REASON_TEXT;

/** The content security policy of the page: nothing from the network, nothing but inline code. */
export const REPORT_CSP = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'";

/** Image file names a log may name: plain names in the episode's own folder, nothing else. */
const IMAGE_FILE = /^[A-Za-z0-9_.-]+\.png$/;

const CATEGORY_COLORS: Record<string, string> = {
  B: '#b5651d',
  P: '#4a7bb7',
  M: '#7b52ab',
  A: '#2e8b57',
  V: '#c0392b',
  T: '#d4a017',
  '?': '#777777',
};

// ---- small formatting helpers -------------------------------------------------------------

function num(x: unknown): number | null {
  return typeof x === 'number' && Number.isFinite(x) ? x : null;
}

function str(x: unknown): string {
  return typeof x === 'string' ? x : x === undefined || x === null ? '' : JSON.stringify(x);
}

function list<T>(x: unknown): T[] {
  return Array.isArray(x) ? (x as T[]) : [];
}

function fixed(x: number | null | undefined, digits = 1): string {
  return x === null || x === undefined ? '–' : x.toFixed(digits);
}

function pct(x: number | null): string {
  return x === null ? '–' : `${(100 * x).toFixed(1)}%`;
}

function money(x: number | undefined): string {
  return x === undefined ? '–' : `$${x.toFixed(4)}`;
}

function json(x: unknown): string {
  try {
    return JSON.stringify(x) ?? '';
  } catch {
    return '(unprintable)';
  }
}

/** What became of an episode, in one word. */
export function resultOf(e: SummaryEntry | null): 'solved' | 'unsolved' | 'pass' | 'fail' | 'abandoned' | 'unfinished' {
  if (!e) return 'unfinished';
  if (e.abandoned) return 'abandoned';
  if (!e.graded) return e.solved ? 'pass' : 'fail';
  return e.solved ? 'solved' : 'unsolved';
}

/** The page anchor of an episode (its folder name, which is already a safe token). */
function anchor(ep: EpisodeData): string {
  return `ep-${ep.dirName}`;
}

// ---- summary tables and charts ------------------------------------------------------------

const TABLE_HEAD = html`<tr><th>group</th><th>episodes</th><th>solved</th><th>success [Wilson 95%]</th><th>graded</th><th>mean score</th><th>turns</th><th>actions</th><th>violations</th><th>tokens in</th><th>tokens out</th><th>cost</th><th>abandoned</th></tr>`;

function groupLabel(by: GroupBy | 'all', key: string): string {
  if (by === 'category') return `${key} ${CATEGORY_NAMES[key as keyof typeof CATEGORY_NAMES] ?? ''}`.trim();
  return key;
}

function statsRow(by: GroupBy | 'all', g: GroupStats): Html {
  const w = g.success95 ? ` [${(100 * g.success95.lo).toFixed(1)}, ${(100 * g.success95.hi).toFixed(1)}]` : '';
  return html`<tr data-group="${by}:${g.key}"><th scope="row">${groupLabel(by, g.key)}</th><td data-col="episodes">${g.episodes}</td><td data-col="solved">${g.solved}</td><td data-col="success">${pct(g.successRate)}<span class="ci">${w}</span></td><td data-col="graded">${g.graded}</td><td data-col="score">${fixed(g.meanScore)}</td><td data-col="turns">${fixed(g.meanTurns)}</td><td data-col="actions">${fixed(g.meanActions)}</td><td data-col="violations">${fixed(g.meanViolations)}</td><td data-col="input-tokens">${g.inputTokens}</td><td data-col="output-tokens">${g.outputTokens}</td><td data-col="cost">${money(g.cost)}</td><td data-col="abandoned">${g.abandoned}</td></tr>`;
}

function statsTable(title: string, by: GroupBy, entries: SummaryEntry[]): Html {
  const rows = aggregateBy(entries, by).map((g) => statsRow(by, g));
  return html`<h3>${title}</h3><table class="stats" data-by="${by}"><thead>${TABLE_HEAD}</thead><tbody>${rows}</tbody><tfoot>${statsRow('all', groupStats('all', entries))}</tfoot></table>`;
}

function charts(entries: SummaryEntry[]): Html {
  if (entries.length === 0) return html``;
  const cats = aggregateBy(entries, 'category');
  const label = (k: string): string => groupLabel('category', k);
  const success = barChart({
    title: 'Success rate by category (Wilson 95% whiskers)',
    max: 1,
    format: (v) => `${Math.round(v * 100)}%`,
    ticks: [0, 0.25, 0.5, 0.75, 1],
    bars: cats.map((g) => ({ label: label(g.key), value: g.successRate, interval: g.success95, note: `${g.solved}/${g.episodes}`, color: CATEGORY_COLORS[g.key] })),
  });
  const score = barChart({
    title: 'Mean tiered score by category (graded episodes)',
    max: 100,
    format: (v) => v.toFixed(v === Math.round(v) ? 0 : 1),
    ticks: [0, 20, 40, 60, 80, 100],
    bars: cats.map((g) => ({ label: label(g.key), value: g.meanScore, note: `n=${g.graded}`, color: CATEGORY_COLORS[g.key] })),
  });
  const perCategory = cats.map((c) => {
    const fams = aggregateBy(entries.filter((e) => categoryOf(e.family) === c.key), 'family');
    const chart = barChart({
      title: `${label(c.key)}: mean score per family (success in brackets)`,
      max: 100,
      format: (v) => v.toFixed(v === Math.round(v) ? 0 : 1),
      ticks: [0, 20, 40, 60, 80, 100],
      bars: fams.map((g) => ({ label: g.key, value: g.meanScore, note: `${g.solved}/${g.episodes} solved`, color: CATEGORY_COLORS[c.key] })),
    });
    return html`<figure class="chart-box" data-category="${c.key}">${chart}</figure>`;
  });
  return html`<div class="charts"><figure class="chart-box">${success}</figure><figure class="chart-box">${score}</figure>${perCategory}</div>`;
}

// ---- the episode list and replays ---------------------------------------------------------

/** What an unfinished episode shows as its end reason (it has none yet). */
const UNFINISHED_END = 'unfinished';

/** An episode's end reason as its code (`unfinished` when it has none yet) and in plain words. */
function endOf(ep: EpisodeData): { code: string; words: string } {
  const code = ep.entry?.endReason ?? UNFINISHED_END;
  return { code, words: code === UNFINISHED_END ? 'not finished' : endReasonText(code) };
}

/** The failure label filter's value for an episode without one (solved, or not analysed). */
const NO_LABEL = 'none';

/**
 * The attributes the page's filters read, the same on an episode's table row and its replay:
 * family, tier, result, solved, end reason and failure label (all escaped like any text).
 */
function filterAttributes(ep: EpisodeData, verdict: FailureVerdict | null): Html {
  const ft = familyTier(ep);
  return html` data-family="${ft.family}" data-tier="${ft.tier}" data-result="${resultOf(ep.entry)}" data-solved="${ep.entry?.solved ? 'yes' : 'no'}" data-end="${endOf(ep).code}" data-label="${verdict?.label ?? NO_LABEL}"`;
}

function episodeRow(ep: EpisodeData, verdict: FailureVerdict | null): Html {
  const e = ep.entry;
  const result = resultOf(e);
  const score = e ? (e.score === null ? (e.solved ? 'pass' : 'fail') : e.score.toFixed(1)) : '–';
  const ft = familyTier(ep);
  return html`<tr data-instance="${ep.instance}"${filterAttributes(ep, verdict)} class="r-${result}"><td><a href="#${anchor(ep)}">${ep.instance}</a></td><td>${ft.family}</td><td>${ft.tier}</td><td data-col="result">${result}</td><td data-col="score">${score}</td><td data-col="turns">${e?.turns ?? ep.turns.length}</td><td data-col="actions">${e ? `${e.actions} (ref ${e.referenceActions})` : ''}</td><td data-col="violations">${e?.violations ?? ''}</td><td>${e?.invalidReplies ?? ''}</td><td>${e ? `${e.inputTokens}/${e.outputTokens}` : ''}</td><td>${money(e?.cost)}</td><td data-col="end">${e ? endOf(ep).words : ''}${e?.abandonReason ? `: ${e.abandonReason}` : ''}</td><td data-col="label">${verdict ? labelBadge(verdict.label) : null}</td></tr>`;
}

const IMAGE_KIND: Record<string, string> = {
  view: 'View',
  strobe: 'Strobe: five frames 0.25 s apart',
  rollback: 'Rollback: violation (left) and rolled-back state (right)',
};

/** One logged image as a figure; `note` is added to its caption. */
function figure(ep: EpisodeData, img: LoggedImage, src: ImageSource, note?: string): Html {
  const kind = str(img.kind);
  const file = str(img.file);
  const found = IMAGE_FILE.test(file) ? src(ep, file) : null;
  // A view that is not the square default (e.g. V5's wide panel) is shown at its own size.
  const natural = found?.width !== undefined && found.height !== undefined && kind === 'view' && found.width !== found.height;
  const size = found?.width !== undefined && found.height !== undefined ? html` width="${found.width}" height="${found.height}"` : null;
  const image = found ? html`<img loading="lazy" decoding="async" src="${found.url}"${size}${natural ? html` class="natural"` : null} alt="${str(img.caption) || kind}">` : null;
  // Linked files open full size in a tab; browsers refuse to open data: URIs that way.
  const body = !image ? html`<div class="missing">image ${file} is missing</div>` : found!.url.startsWith('data:') ? image : html`<a href="${found!.url}" target="_blank" rel="noopener">${image}</a>`;
  return html`<figure class="img img-${kind}${natural ? ' img-natural' : ''}"><figcaption><b>${IMAGE_KIND[kind] ?? kind}</b> ${str(img.caption)}${note ? html` <span class="seen">${note}</span>` : null}</figcaption>${body}</figure>`;
}

/**
 * A turn's images. A rollback view belongs to the turn before (whose call was rolled back):
 * it is shown there, and here only named.
 */
function imagesOf(ep: EpisodeData, t: LogTurn, src: ImageSource): Html {
  const images = list<LoggedImage>(t.images);
  const figs = images.filter((img) => str(img.kind) !== 'rollback').map((img) => figure(ep, img, src));
  const moved = images.some((img) => str(img.kind) === 'rollback')
    ? html`<p class="muted seen-here">The model also saw the split rollback view of turn ${num(t.turn) !== null ? t.turn - 1 : '?'} at the start of this turn (shown under turn ${num(t.turn) !== null ? t.turn - 1 : '?'}).</p>`
    : null;
  return figs.length || moved ? html`<div class="images">${figs}</div>${moved}` : html``;
}

/** The rollback views caused by turn `t`: in the next turn's images, or the end's after the last turn. */
function rollbackOf(ep: EpisodeData, index: number, src: ImageSource): Html {
  const next = ep.turns[index + 1];
  const pool = next ? list<LoggedImage>(next.images) : list<LoggedImage>(ep.end?.finalImages);
  const rollbacks = pool.filter((img) => str(img.kind) === 'rollback');
  if (!rollbacks.length) return html``;
  const note = next ? `(seen by the model at the start of turn ${str(next.turn)})` : '(the final state; the episode ended with this turn)';
  return html`<div class="images rollback-of-turn">${rollbacks.map((img) => figure(ep, img, src, note))}</div>`;
}

interface LooseResult {
  call?: { tool?: unknown; args?: unknown };
  status?: unknown;
  kind?: unknown;
  message?: unknown;
  violation?: { kind?: unknown; bodies?: unknown };
  timeBefore?: unknown;
  timeAfter?: unknown;
  data?: unknown;
  diagnostics?: unknown;
}

function callsTable(t: LogTurn): Html {
  const results = list<LooseResult>(t.results);
  const actions = list<{ tool?: unknown; args?: unknown }>(t.reply?.actions);
  if (results.length === 0 && actions.length === 0) return html`<p class="muted">No calls.</p>`;
  // Results carry every call, including those not run; a turn that ran nothing shows what was sent.
  const rows = (results.length ? results : actions.map((call) => ({ call, status: 'not-run', message: 'not run' }) as LooseResult)).map((r, i) => {
    const status = str(r.status);
    const t0 = num(r.timeBefore);
    const t1 = num(r.timeAfter);
    const time = t0 !== null && t1 !== null && t1 > t0 ? `${t0.toFixed(2)} → ${t1.toFixed(2)} s` : '';
    const violation = r.violation ? html`<span class="vkind">${str(r.violation.kind)}</span> ` : null;
    const data = r.data !== undefined ? html`<div class="data">data: <code>${json(r.data)}</code></div>` : null;
    const diagnostics = r.diagnostics !== undefined ? html`<div class="data">diagnostics (not shown to the agent): <code>${json(r.diagnostics)}</code></div>` : null;
    return html`<tr class="s-${status}"><td>${i + 1}</td><td><code>${str(r.call?.tool)}</code></td><td><code>${json(r.call?.args ?? {})}</code></td><td class="status">${status}</td><td>${violation}${str(r.message)}${data}${diagnostics}</td><td>${time}</td></tr>`;
  });
  return html`<table class="calls"><thead><tr><th>#</th><th>tool</th><th>args</th><th>status</th><th>result</th><th>world time</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function requestsBlock(t: LogTurn): Html {
  const reqs = list<Record<string, unknown>>(t.reply?.requests);
  if (reqs.length === 0) return html``;
  const items = reqs.map((r) => {
    const usage = r.usage as { inputTokens?: unknown; outputTokens?: unknown } | undefined;
    const problems = list<unknown>(r.problems);
    return html`<li>attempt ${str(r.attempt)}${r.cached ? ' (cached)' : ''}${num(r.apiRetries) ? `, ${str(r.apiRetries)} API retries` : ''}${usage ? `, tokens ${str(usage.inputTokens)}/${str(usage.outputTokens)}` : ''}${r.finishReason ? `, finish ${str(r.finishReason)}` : ''}${r.error ? html`, <span class="bad">error: ${str(r.error)}</span>` : null}${problems.length ? html`<ul class="problems">${problems.map((p) => html`<li>${str(p)}</li>`)}</ul>` : null}${r.raw !== undefined ? html`<details><summary>refused reply text</summary><pre>${str(r.raw)}</pre></details>` : null}</li>`;
  });
  return html`<details class="requests"><summary>${reqs.length} request(s)</summary><ul>${items}</ul></details>`;
}

function turnBlock(ep: EpisodeData, index: number, prevNote: string | null, src: ImageSource, verdict: FailureVerdict | null): Html {
  const t = ep.turns[index];
  const reply = t.reply ?? ({} as LogTurn['reply']);
  const t0 = num(t.worldTimeBefore);
  const t1 = num(t.worldTimeAfter);
  const usage = reply.usage;
  const bits: string[] = [];
  if (t0 !== null && t1 !== null) bits.push(`world time ${t0.toFixed(2)} → ${t1.toFixed(2)} s`);
  if (usage) bits.push(`tokens ${str(usage.inputTokens)}/${str(usage.outputTokens)}${num(usage.cost) !== null ? `, $${usage.cost!.toFixed(4)}` : ''}`);
  if (num(reply.invalidReplies)) bits.push(`${reply.invalidReplies} invalid repl${reply.invalidReplies === 1 ? 'y' : 'ies'}`);
  if (num(reply.apiRetries)) bits.push(`${reply.apiRetries} API retries`);
  const violations = list<LooseResult>(t.results).filter((r) => r.status === 'violation').length;
  if (violations) bits.push(`${violations} violation${violations === 1 ? '' : 's'}`);
  const note = str(reply.note);
  const noteBlock =
    prevNote !== null && note === prevNote
      ? html`<p class="muted">Note unchanged.</p>`
      : html`<div class="note"><h5>Note</h5><div class="text">${note || '(empty)'}</div></div>`;
  const refused = list<unknown>(reply.refused);
  const earned = verdict !== null && verdict.turns.includes(t.turn);
  const progress = (t as { progress?: { before?: unknown; after?: unknown } }).progress;
  if (progress && num(progress.before) !== null && num(progress.after) !== null) bits.push(`progress ${fixed(num(progress.before), 2)} → ${fixed(num(progress.after), 2)}`);
  return html`<li class="turn${violations ? ' has-violation' : ''}${earned ? ' earned' : ''}" id="${anchor(ep)}-t${str(t.turn)}" data-turn="${str(t.turn)}"><h4>Turn ${str(t.turn)} <span class="muted">${bits.join(' · ')}</span>${earned ? html`<span class="earned-mark">${labelBadge(verdict.label)}</span>` : null}</h4>
${imagesOf(ep, t, src)}
<div class="rationale"><h5>Rationale</h5><div class="text">${str(reply.rationale) || '(empty)'}</div></div>
${noteBlock}
${refused.length ? html`<div class="refused"><h5>Every reply this turn was refused; no calls ran. Problems with the last one:</h5><ul>${refused.map((p) => html`<li>${str(p)}</li>`)}</ul></div>` : null}
${reply.abandoned ? html`<p class="bad">Abandoned: ${str(reply.abandoned.reason)}</p>` : null}
${callsTable(t)}
${rollbackOf(ep, index, src)}
${requestsBlock(t)}
${reply.raw !== undefined ? html`<details class="raw"><summary>raw reply</summary><pre>${str(reply.raw)}</pre></details>` : null}</li>`;
}

function endBlock(ep: EpisodeData, src: ImageSource, verdict: FailureVerdict | null): Html {
  const end = ep.end;
  if (!end) return html``;
  const o = end.outcome ?? ({} as typeof end.outcome);
  const s = end.score ?? ({} as typeof end.score);
  const how = END_TEXT[str(o.endReason)] ?? str(o.endReason);
  const ended = o.endReason === 'solved' ? 'Solved' : `Not solved: ${how}`;
  const finals = list<LoggedImage>(end.finalImages).filter((img) => str(img.kind) !== 'rollback');
  const finalBlock = finals.length
    ? html`<h5>Final state</h5><div class="images final">${finals.map((img) => figure(ep, img, src, '(after the last turn; the model did not see it)'))}</div>`
    : ep.turns.length
      ? html`<p class="muted">No image of the final state was logged (older logs hold only what the model saw).</p>`
      : null;
  const label = verdict ? html`<p>Failure label ${labelBadge(verdict.label)}: ${verdict.reason} (turns ${turnRanges(verdict.turns)}).</p>` : null;
  return html`<div class="end"><h4>End</h4>${finalBlock}${label}<p>${ended}; score ${s.score === null ? 'none (pass/fail family)' : str(s.score)} (${str(s.band)}); progress ${fixed(num(o.progress), 3)}; ${str(o.actions)} actions (reference ${str(end.referenceActions)}), ${str(o.perceptionActions)} camera calls, ${str(o.violations)} violations, ${str(o.invalidCalls)} invalid calls; world time ${fixed(num(o.worldTime), 2)} s${o.abandonReason ? `; abandoned: ${str(o.abandonReason)}` : ''}.</p><p class="muted">final state hash <code>${str(o.finalStateHash)}</code> · finished ${str(end.finishedAt)}</p></div>`;
}

/** Agent settings as "key value" pairs (nothing when there are none). */
function settingsText(settings: unknown): string {
  if (!settings || typeof settings !== 'object') return '';
  const entries = Object.entries(settings as Record<string, unknown>);
  return entries.length ? ` (${entries.map(([k, v]) => `${k} ${typeof v === 'string' ? v : json(v)}`).join(', ')})` : '';
}

/** Family and tier of an episode: from its summary row, its log header, or its id. */
function familyTier(ep: EpisodeData): { family: string; tier: string } {
  const parts = ep.instance.split('-');
  return {
    family: ep.entry?.family ?? ep.header?.instance?.family ?? parts[0] ?? '',
    tier: ep.entry?.tier ?? ep.header?.instance?.tier ?? parts[1] ?? '',
  };
}

function episodeSection(ep: EpisodeData, src: ImageSource, verdict: FailureVerdict | null, replay: ReplaySource): Html {
  const e = ep.entry;
  const result = resultOf(e);
  const h = ep.header;
  const score = e ? (e.score === null ? (e.solved ? 'pass' : 'fail') : `score ${e.score.toFixed(1)}`) : 'unfinished';
  const head = `${e ? `${plural(e.turns, 'turn')} · ${plural(e.actions, 'action')} · ${plural(e.violations, 'violation')}` : `${plural(ep.turns.length, 'turn')} logged`}`;
  let prevNote: string | null = null;
  const turns = ep.turns.map((t, i) => {
    const block = turnBlock(ep, i, prevNote, src, verdict);
    prevNote = str(t.reply?.note);
    return block;
  });
  const meta = h
    ? html`<p class="muted">agent <code>${h.agent?.name}</code>${settingsText(h.agent?.settings)} · mode ${h.mode} · budgets ${json(h.budgets)} · history images ${str(h.historyImages)} · instance digest <code>${h.instance?.digest}</code> · started ${h.startedAt}</p>`
    : null;
  return html`<section class="episode r-${result}" id="${anchor(ep)}" data-instance="${ep.instance}"${filterAttributes(ep, verdict)}><details><summary><b>${ep.instance}</b> <span class="badge b-${result}">${result}</span> ${score} · ${head}${verdict ? html` ${labelBadge(verdict.label)}` : null}</summary>
${meta}
${replayFigure(ep, replay)}
${ep.problems.length ? html`<ul class="problems">${ep.problems.map((p) => html`<li>${p}</li>`)}</ul>` : null}
<ol class="turns">${turns}</ol>
${endBlock(ep, src, verdict)}</details></section>`;
}

/** The episode's animated replay (every picture of its log in turn, captions under them), if written. */
function replayFigure(ep: EpisodeData, replay: ReplaySource): Html | null {
  const r = replay(ep);
  if (!r) return null;
  const image = html`<img loading="lazy" decoding="async" src="${r.url}" width="${r.width}" height="${r.height}" alt="animated replay of ${ep.instance}">`;
  const body = r.url.startsWith('data:') ? image : html`<a href="${r.url}" target="_blank" rel="noopener">${image}</a>`;
  return html`<figure class="img img-replay"><figcaption><b>Animated replay</b> ${r.frames} frames: every picture of the log in turn, with its calls under it</figcaption>${body}</figure>`;
}

// ---- filters ------------------------------------------------------------------------------

/** One filter: a select over the values of `data-${attr}` present in the run, each shown in words. */
function filterSelect(attr: string, label: string, options: Array<{ value: string; text: string }>): Html {
  return html`<label>${label} <select id="filter-${attr}" data-filter="${attr}"><option value="all">all</option>${options.map((o) => html`<option value="${o.value}">${o.text}</option>`)}</select></label>`;
}

/** Values in first-seen order, without repeats. */
function distinct(values: string[]): string[] {
  return [...new Set(values)];
}

/**
 * The episode filters and search box, built from the values present in the run. They are
 * hidden until the page's script shows them (without scripts every episode is listed).
 */
function filterControls(episodes: EpisodeData[], verdicts: Map<string, FailureVerdict>): Html {
  const fts = episodes.map(familyTier);
  const ends = distinct(episodes.map((ep) => endOf(ep).code));
  const knownEnds = Object.keys(END_TEXT);
  const endOrder = [...knownEnds.filter((c) => ends.includes(c)), ...ends.filter((c) => !knownEnds.includes(c))];
  const labels = distinct(episodes.map((ep) => verdicts.get(ep.instance)?.label ?? NO_LABEL));
  const labelOrder = [...FAILURE_LABELS.filter((l) => labels.includes(l)), ...(labels.includes(NO_LABEL) ? [NO_LABEL] : [])];
  const results = ['solved', 'unsolved', 'pass', 'fail', 'abandoned', 'unfinished'].filter((r) => episodes.some((ep) => resultOf(ep.entry) === r));
  const words = new Map(episodes.map((ep) => [endOf(ep).code, endOf(ep).words]));
  return html`<div id="controls" hidden>
${filterSelect('family', 'family', distinct(fts.map((f) => f.family)).map((v) => ({ value: v, text: v })))}
${filterSelect('tier', 'tier', distinct(fts.map((f) => f.tier)).sort().map((v) => ({ value: v, text: v })))}
${filterSelect('solved', 'solved', [{ value: 'yes', text: 'solved' }, { value: 'no', text: 'not solved' }])}
${filterSelect('result', 'result', results.map((r) => ({ value: r, text: r })))}
${filterSelect('end', 'end', endOrder.map((c) => ({ value: c, text: words.get(c) ?? c })))}
${filterSelect('label', 'failure label', labelOrder.map((l) => ({ value: l, text: l === NO_LABEL ? '(no label)' : l })))}
<label>search <input type="search" id="filter-search" placeholder="rationales and calls" size="28" autocomplete="off"></label>
<button type="button" id="filter-clear">clear</button>
<b id="filter-count" aria-live="polite"></b></div>`;
}

// ---- the page ---------------------------------------------------------------------------

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1280px;padding:16px 24px;color:#1b1b1b;background:#fafafa}
h1{font-size:22px;margin:0 0 4px} h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #ddd} h3{font-size:15px;margin:18px 0 6px}
h4{font-size:14px;margin:6px 0} h5{font-size:12px;margin:6px 0 2px;color:#555;text-transform:uppercase;letter-spacing:.04em}
table{border-collapse:collapse;background:#fff} th,td{border:1px solid #ddd;padding:3px 7px;text-align:right;vertical-align:top}
th{background:#f0f2f5} tbody th,td:first-child,thead th:first-child{text-align:left} .ci{color:#777;font-size:12px}
table.episodes td:nth-child(-n+4),table.calls td{text-align:left} table.calls{width:100%;margin:6px 0} table.calls th,table.episodes th{text-align:left} table.calls td:nth-child(3){min-width:200px;max-width:360px}
table.calls td:nth-child(2),table.calls td:nth-child(4),table.calls td:nth-child(6){white-space:nowrap}
.tiles{display:flex;gap:12px;flex-wrap:wrap;margin:12px 0} .tile{background:#fff;border:1px solid #ddd;border-radius:6px;padding:8px 14px;min-width:120px}
.tile b{display:block;font-size:20px} .muted{color:#666} .bad{color:#a31515} code{font-size:12px;overflow-wrap:anywhere}
.charts{display:flex;flex-wrap:wrap;gap:12px} .chart-box{margin:0;background:#fff;border:1px solid #ddd;border-radius:6px;padding:8px;max-width:100%;overflow-x:auto}
section.episode>details{background:#fff;border:1px solid #ddd;border-radius:6px;margin:6px 0;padding:4px 10px}
section.episode summary{cursor:pointer;padding:4px 0} section.episode,li.turn{scroll-margin-top:56px} .badge{border-radius:9px;padding:1px 8px;font-size:12px;color:#fff;background:#777}
.b-solved,.b-pass{background:#2e7d32} .b-unsolved,.b-fail{background:#b26a00} .b-abandoned{background:#a31515} .b-unfinished{background:#555}
ol.turns{padding-left:0;list-style:none} li.turn{border-top:1px solid #e5e5e5;padding:6px 0} li.turn.has-violation{border-left:4px solid #c62828;padding-left:8px}
.images{display:flex;flex-wrap:wrap;gap:8px} figure.img{margin:0;max-width:100%} figure.img img{display:block;max-width:100%;height:auto;border:1px solid #ccc}
figure.img-view img{width:384px} figure.img-view img.natural{width:auto;max-width:100%} .seen{color:#a31515;font-weight:600} figure.img-rollback img{width:772px} figure.img-strobe img{width:100%} figcaption{font-size:12px;color:#444;max-width:772px}
.text{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f8fa;border-radius:4px;padding:4px 8px} pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f8fa;padding:6px}
tr.s-violation td{background:#fdecea} tr.s-invalid td{background:#fff4e5} tr.s-not-run td{color:#888} .vkind{font-weight:600;color:#a31515}
.missing{border:1px dashed #aaa;padding:20px;color:#888} #controls{margin:8px 0;display:flex;gap:12px;align-items:center;flex-wrap:wrap;position:sticky;top:0;z-index:1;background:#fafafa;padding:6px 0}
#controls[hidden],#pager-row[hidden]{display:none} #pager-row{margin:8px 0} #pager button{margin:0 2px} #filter-count{margin-left:auto}
`;

function header(run: RunData, entries: SummaryEntry[]): Html {
  const resumed = run.summary.resumed;
  const s = run.summary;
  const all = groupStats('all', entries);
  const w = all.success95 ? `Wilson 95% [${pct(all.success95.lo)}, ${pct(all.success95.hi)}]` : '';
  return html`<header><h1>SpaceAct run report: ${basename(resolve(run.dir))}</h1>
<p class="muted">agent <code>${s.agent.name}</code>${settingsText(s.agent.settings)} · mode <code>${s.mode}</code> · ${s.package.name} ${s.package.version} · ${entries.length} finished episode(s)${s.unfinished.length ? `, ${s.unfinished.length} unfinished` : ''}</p>
${s.stopped ? html`<p class="bad">Run stopped early: ${s.stopped.message}</p>` : null}
${resumed ? html`<p class="resumed" id="resumed">Resumed: this run continued an earlier one in the same folder — ${plural(resumed.finished, 'finished episode')} reused as logged, ${plural(resumed.continued, 'unfinished episode')} continued from ${resumed.continued === 1 ? 'its' : 'their'} logged turns.</p>` : null}
<div class="tiles">
<div class="tile" id="tile-success"><b>${all.solved}/${all.episodes}</b>solved (${pct(all.successRate)})<br><span class="ci">${w}</span></div>
<div class="tile" id="tile-score"><b>${fixed(all.meanScore)}</b>mean score over ${all.graded} graded</div>
<div class="tile"><b>${fixed(all.meanTurns)}</b>turns per episode</div>
<div class="tile"><b>${fixed(all.meanViolations)}</b>violations per episode</div>
<div class="tile"><b>${all.inputTokens + all.outputTokens}</b>tokens (in ${all.inputTokens}, out ${all.outputTokens})</div>
<div class="tile"><b>${money(all.cost)}</b>cost</div>
<div class="tile"><b>${all.abandoned}</b>abandoned</div>
</div></header>`;
}

/**
 * The report page of a run as one HTML document. Every text from the run goes through the
 * escaping template; images come from `imageSource` (relative files or data URIs).
 */
export function renderReport(run: RunData, opts: { imageSource: ImageSource; script: string; pageSize?: number; replaySource?: ReplaySource }): string {
  const replay: ReplaySource = opts.replaySource ?? (() => null);
  const entries = run.summary.episodes;
  const analysis = analyzeRunData([run]);
  const verdicts = new Map(analysis.failures.episodes.map((v) => [v.instance, v]));
  const anchors = new Map(run.episodes.map((ep) => [ep.instance, anchor(ep)]));
  const link = (instance: string, turn?: number): string | null => {
    const a = anchors.get(instance);
    return a ? `#${a}${turn !== undefined ? `-t${turn}` : ''}` : null;
  };
  const controls = filterControls(run.episodes, verdicts);
  const body = html`${header(run, entries)}
<h2>Summary</h2>
<p class="muted">Success counts every finished episode (abandoned ones as unsolved). Mean score is over graded episodes only: pass/fail families count toward success alone. Turns, actions and violations are means per episode; tokens and cost are totals.</p>
${statsTable('By category', 'category', entries)}
${statsTable('By family', 'family', entries)}
${statsTable('By tier', 'tier', entries)}
<h2>Charts</h2>
${charts(entries)}
${analysisSection(analysis, link)}
<h2>Episodes</h2>
${controls}
<table class="episodes"><thead><tr><th>instance</th><th>family</th><th>tier</th><th>result</th><th>score</th><th>turns</th><th>actions</th><th>violations</th><th>invalid replies</th><th>tokens in/out</th><th>cost</th><th>end</th><th>failure label</th></tr></thead><tbody>${run.episodes.map((ep) => episodeRow(ep, verdicts.get(ep.instance) ?? null))}</tbody></table>
<h2>Replays</h2>
<p class="muted">Each episode opens to its turns: the images the agent saw (views, strobe strips, split rollback views), its rationale and note, its calls and what became of them. The filters above choose the replays too.</p>
<div id="pager-row" hidden><span id="pager"></span></div>
<div id="episodes">${run.episodes.map((ep) => episodeSection(ep, opts.imageSource, verdicts.get(ep.instance) ?? null, replay))}</div>`;
  const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>SpaceAct report: ${basename(resolve(run.dir))}</title>
${inlineElement('style', STYLE + ANALYSIS_STYLE)}
</head><body data-page-size="${opts.pageSize ?? 25}">
${body}
${inlineElement('script', opts.script)}
</body></html>
`;
  return page.text;
}

/**
 * Writes the animated replay of every logged episode with pictures to `DIR/replays/<episode>.webp`
 * and returns how the page refers to each (by episode folder). An episode whose log has no
 * picture (a blind or `--render never` run) has no replay; any other failure stops the report.
 */
async function writeReplays(run: RunData, dir: string, out: string, embed: boolean): Promise<Map<string, ReturnType<ReplaySource>>> {
  const folder = resolve(dir, 'replays');
  mkdirSync(folder, { recursive: true });
  const found = new Map<string, ReturnType<ReplaySource>>();
  for (const ep of run.episodes) {
    const file = join(folder, `${ep.dirName}.webp`);
    try {
      const w = await writeReplay({ dir, instance: ep.instance, out: file });
      const url = embed ? `data:image/webp;base64,${readFileSync(file).toString('base64')}` : relativeUrl(dirname(out), file);
      found.set(ep.dirName, { url, frames: w.frames, width: w.width, height: w.height });
    } catch (err) {
      if (err instanceof SpaceActError && err.code === 'invalid-state') continue; // no pictures to replay
      throw err;
    }
  }
  return found;
}

/** A path relative to `from` as a URL path (each segment percent-encoded). */
function relativeUrl(fromDir: string, target: string): string {
  return relative(fromDir, target).split(sep).map(encodeURIComponent).join('/');
}

/**
 * Writes the HTML report of the run in `dir` (default `DIR/report.html`) and returns its path.
 * Images are referenced as relative files under `DIR/episodes/…` (lazy-loaded), or with
 * `embed` put into the page as data URIs. The page makes no network request.
 */
export async function writeReport(dir: string, opts: ReportOptions = {}): Promise<string> {
  const run = loadRun(dir);
  const out = resolve(opts.out ?? join(dir, 'report.html'));
  if (opts.pageSize !== undefined && !(Number.isInteger(opts.pageSize) && opts.pageSize >= 1 && opts.pageSize <= 10000)) {
    throw new SpaceActError('invalid-argument', `page size must be a whole number from 1 to 10000, got ${opts.pageSize}`);
  }
  if (!existsSync(dirname(out))) throw new SpaceActError('io', `the folder of ${out} does not exist`, { out });
  const episodesDir = resolve(dir, 'episodes');
  const imageSource: ImageSource = (ep, file) => {
    const path = join(episodesDir, ep.dirName, file);
    if (!existsSync(path)) return null;
    if (opts.embed) {
      const bytes = readFileSync(path);
      return { url: `data:image/png;base64,${bytes.toString('base64')}`, ...(pngSize(bytes) ?? {}) };
    }
    // The header alone gives the size: 24 bytes, not the whole image.
    const head = Buffer.alloc(24);
    const fd = openSync(path, 'r');
    try {
      readSync(fd, head, 0, 24, 0);
    } finally {
      closeSync(fd);
    }
    return { url: relativeUrl(dirname(out), path), ...(pngSize(head) ?? {}) };
  };
  const replays = opts.replays ? await writeReplays(run, dir, out, opts.embed === true) : new Map<string, ReturnType<ReplaySource>>();
  const replaySource: ReplaySource = (ep) => replays.get(ep.dirName) ?? null;
  const text = renderReport(run, { imageSource, replaySource, script: await pageScript(REPORT_PAGE), ...(opts.pageSize ? { pageSize: opts.pageSize } : {}) });
  const tmp = `${out}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, out);
  return out;
}
