/**
 * The text-leak check (issue 36 item 4; docs/verification.md, "What text may say"). A model reads sizes from
 * the rulers in the picture, never from text. Two halves:
 *
 * - **What an instance says** (`staticTextLeaks`): the title, the rules, each tool's
 *   description, its parameter schema and every `description` inside it, with the values the
 *   family allow-lists (`TaskFamily.textVaries`) masked, must read alike for every seed of a
 *   tier. On failure: the family, the tier, two seeds and the first words that differ.
 * - **What an episode says** (`episodeTextLeaks`): every call's result message and structured
 *   `data`, the rollback captions and the family's observation text, over the episodes played
 *   (the reference's and a seeded random agent's), may carry no percentage, no number with a
 *   length or angle unit, and no number equal to a seed-varying number of the scene, the
 *   answer or the reference's arguments (units normalised: mm, cm and m to metres, degrees to
 *   radians too). The counts of the agent's own moves and budget are allowed.
 */
import { parseInstanceId, tierLabel, type Tier } from '../core/catalog.ts';
import { rollbackCaption } from '../render/rollback-text.ts';
import { runEpisode } from '../agents/loop.ts';
import { DEFAULT_MODE } from '../agents/modes.ts';
import type { Agent } from '../agents/types.ts';
import { CAMERA_TOOL_NAMES } from '../tasks/camera-tools.ts';
import type { CallResult, TaskEnv } from '../tasks/env.ts';
import type { Instance, JsonSchema, ReferenceSolution, TaskFamily } from '../tasks/types.ts';

/**
 * Seeds per tier whose instance text the check-suite compares by default (verify uses
 * {@link VERIFY_TEXT_SEEDS}); the check-suite compares the eight seeds it generates anyway unless
 * `SPACEACT_TEXT_SEEDS` asks for more, since some generators take seconds per instance.
 */
export const CHECK_SUITE_TEXT_SEEDS = 30;
/** Seeds per tier `spaceact verify` compares. */
export const VERIFY_TEXT_SEEDS = 100;

/** One piece of text an agent reads, and where it read it. */
export interface AgentText {
  /** e.g. `rules`, `tool move parameter /properties/from`, `turn 3 call 2 (move) message`. */
  where: string;
  text: string;
  /** A finding made where the text was taken (a fraction in structured data), reported as is. */
  finding?: string;
  /**
   * The result of a perception call (the shared camera tools): it states the agent's own
   * camera, in degrees, which is not the world's geometry; only numbers equal to seed-varying
   * numbers of the instance are looked for in it.
   */
  ownCamera?: boolean;
  /** The numbers of the call's own arguments: a bare number equal to one echoes what the agent asked for. */
  echo?: number[];
  /** The strings of the call's own arguments: an option letter the agent named, said back, tells it nothing. */
  echoWords?: string[];
}

/** Every piece of text an instance shows before any call: title, rules, tools and their parameter descriptions. */
export function instanceTexts(instance: Instance): AgentText[] {
  const out: AgentText[] = [
    { where: 'title', text: instance.title },
    { where: 'rules', text: instance.rules },
  ];
  for (const tool of instance.tools) {
    out.push({ where: `tool ${tool.name} description`, text: tool.description });
    const walk = (v: unknown, path: string): void => {
      if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}/${i}`));
      else if (v && typeof v === 'object') {
        for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
          if (k === 'description' && typeof x === 'string') out.push({ where: `tool ${tool.name} parameter ${path || '/'} description`, text: x });
          else walk(x, `${path}/${k}`);
        }
      }
    };
    walk(tool.parameters, '');
    // The schema itself (bounds, enums) is read too: a bound that follows the seed is a ruler.
    out.push({ where: `tool ${tool.name} schema`, text: JSON.stringify(withoutDescriptions(tool.parameters)) });
  }
  return out;
}

function withoutDescriptions(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutDescriptions);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v as JsonSchema).filter(([k, x]) => !(k === 'description' && typeof x === 'string')).map(([k, x]) => [k, withoutDescriptions(x)]));
  return v;
}

/** The allow-listed values of an instance's text, each with what it is (`TaskFamily.textVaries`). */
export function allowedValues(family: TaskFamily, instance: Instance): Array<{ what: string; value: string; whole?: boolean }> {
  const out: Array<{ what: string; value: string; whole?: boolean }> = [];
  for (const v of family.textVaries ?? []) for (const value of v.values(instance)) if (value !== '') out.push({ what: v.what, value, ...(v.whole ? { whole: true } : {}) });
  // Longest first, so a value inside a longer one is masked as part of the longer.
  return out.sort((a, b) => b.value.length - a.value.length);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `text` with every allow-listed value replaced by `⟨what⟩` (whole words only, so a letter is not masked inside a word). */
export function maskText(text: string, values: Array<{ what: string; value: string; whole?: boolean }>): string {
  // A text that is one allow-listed value whole (an option's description "135°") is masked
  // whole; a value declared `whole` is masked only so, or it would mask the same words in
  // constant text ("from 0° to 180°").
  const entire = values.find((v) => v.value === text);
  if (entire) return `⟨${entire.what}⟩`;
  let out = text;
  for (const { what, value, whole } of values) {
    if (whole) continue;
    out = out.replace(new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(value)}(?![A-Za-z0-9])`, 'g'), `⟨${what}⟩`);
  }
  // A list of allow-listed values reads as one (`A, B and C`, an enum `"A","B","C"`): how many
  // pieces there are is counted in the picture, and naming each is what the allow-list is for.
  return out.replace(/(⟨[^⟩]+⟩)(?:(?:["'\s,;]|\band\b|\bor\b)+\1)+/g, '$1');
}

/** The first words where two texts differ, with a few words of context: `"…a 12 cm rod…" vs "…a 14 cm rod…"`. */
export function firstDifferingWords(a: string, b: string): string {
  const wa = a.split(/\s+/);
  const wb = b.split(/\s+/);
  let i = 0;
  while (i < wa.length && i < wb.length && wa[i] === wb[i]) i++;
  const from = Math.max(0, i - 3);
  const cut = (w: string[]): string => {
    const s = w.slice(from, i + 4).join(' ');
    return `"${from > 0 ? '…' : ''}${s}${i + 4 < w.length ? '…' : ''}"`;
  };
  return `word ${i + 1}: ${cut(wa)} vs ${cut(wb)}`;
}

/** The result of the text-leak check on one family × tier. */
export interface TextLeakReport {
  family: string;
  tier: Tier;
  /** The lever of a single-factor lever study (`+tool` for `M5-L5+tool-…`), when the tier carries one. */
  lever?: string;
  /** Seeds whose instance text was compared. */
  seeds: number;
  passed: boolean;
  /** One sentence per leak (empty when it passes). */
  problems: string[];
}

/**
 * Instance text over `seeds` of one tier: with the allow-listed values masked, every seed must
 * read like the first. Reports, per place that differs, the two seeds and the first differing
 * words.
 */
export function staticTextLeaks(family: TaskFamily, tier: Tier, seeds: readonly number[], generated?: ReadonlyMap<number, Instance>): TextLeakReport {
  const problems: string[] = [];
  // Each form (`TaskFamily.textForm`) is compared with its own first seed.
  const bases = new Map<string, { seed: number; texts: Map<string, string> }>();
  const reported = new Set<string>();
  // A lever study (a family seen through `familyAtLever`) names its lever in its ids.
  let lever: string | undefined;
  for (const seed of seeds) {
    const instance = generated?.get(seed) ?? family.generate(seed, tier);
    lever ??= parseInstanceId(instance.id).lever;
    const mask = allowedValues(family, instance);
    const texts = new Map(instanceTexts(instance).map((t) => [t.where, maskText(t.text, mask)]));
    texts.set('budgets', budgetsText(family, instance));
    const form = family.textForm?.(instance) ?? '';
    const base = bases.get(form);
    if (!base) {
      bases.set(form, { seed, texts });
      continue;
    }
    for (const where of new Set([...base.texts.keys(), ...texts.keys()])) {
      if (reported.has(where)) continue;
      const a = base.texts.get(where);
      const b = texts.get(where);
      if (a === b) continue;
      reported.add(where);
      const diff = a === undefined || b === undefined ? `present in only one of them` : firstDifferingWords(a, b);
      problems.push(`${family.id} ${tierLabel(tier, lever)}: the ${where} of seeds ${base.seed} and ${seed} differ (${diff}); state it the same for every seed, or allow-list the value in textVaries with its reason`);
    }
  }
  return { family: family.id, tier, ...(lever ? { lever } : {}), seeds: seeds.length, passed: problems.length === 0, problems };
}

/**
 * The budgets as the prompt states them every turn (turns, actions per turn, actions and refused
 * calls allowed in all), the action budget masked when the family allow-lists it
 * (`TextVariation.budget`). A budget that follows the seed's shortest plan tells a text-only
 * agent that plan's length (P6 version 4 fell to it in the battery), so it is text like any other.
 */
function budgetsText(family: TaskFamily, instance: Instance): string {
  const b = instance.budgets;
  const allowed = (family.textVaries ?? []).find((v) => v.budget);
  const actions = b.actions === undefined ? 'no limit' : allowed ? `⟨${allowed.what}⟩` : String(b.actions);
  return `${b.turns} turns; ${b.actionsPerTurn} calls per turn; actions in all: ${actions}; refused calls allowed: ${b.refusals ?? 'any'}`;
}

/** A number that varies with the seed, and where it comes from (`scene.blocks[2].w`, `answer`, `reference call 3`). */
export interface VaryingNumber {
  value: number;
  source: string;
  /** From the answer (a final tool's arguments): matched even as a small whole number. */
  answer: boolean;
}

function numericLeaves(v: unknown, path: string, out: Map<string, number>): void {
  if (typeof v === 'number' && Number.isFinite(v)) out.set(path, v);
  else if (Array.isArray(v)) v.forEach((x, i) => numericLeaves(x, `${path}[${i}]`, out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) numericLeaves(x, `${path}.${k}`, out);
}

function stringLeaves(v: unknown, out: string[]): void {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => stringLeaves(x, out));
  else if (v && typeof v === 'object') for (const x of Object.values(v)) stringLeaves(x, out);
}

/**
 * The numbers of `instance` that vary with the seed: the scene's numbers at paths whose value
 * differs among `others` (other seeds of the tier), the reference's numeric arguments, and the
 * answer (the arguments of its final calls). Whole numbers below 10 of the scene and of
 * non-final calls are left out: they are counts (of pieces, cells, moves) that text may name.
 */
export function seedVaryingNumbers(instance: Instance, others: readonly Instance[], reference: ReferenceSolution | null): SeedVarying {
  const mine = new Map<string, number>();
  numericLeaves(instance.scene, 'scene', mine);
  const theirs = others.map((o) => {
    const m = new Map<string, number>();
    numericLeaves(o.scene, 'scene', m);
    return m;
  });
  const numbers: VaryingNumber[] = [];
  const countLike = (x: number): boolean => Number.isInteger(x) && Math.abs(x) < 10;
  for (const [path, value] of mine) {
    if (countLike(value)) continue;
    if (theirs.some((m) => m.get(path) !== value)) numbers.push({ value, source: path, answer: false });
  }
  const answerWords: string[] = [];
  const answerLetters: string[] = [];
  const finals = new Set(instance.tools.filter((t) => t.kind === 'final').map((t) => t.name));
  reference?.calls.forEach((c, i) => {
    const leaves = new Map<string, number>();
    numericLeaves(c.args, '', leaves);
    const final = finals.has(c.tool);
    for (const [path, value] of leaves) {
      if (final ? value === 0 || value === 1 : countLike(value)) continue;
      numbers.push({ value, source: final ? `the answer (${c.tool}${path})` : `reference call ${i + 1} (${c.tool}${path})`, answer: final });
    }
    if (final) {
      const words: string[] = [];
      stringLeaves(c.args, words);
      // One-letter answers (an option letter) are names text uses anyway, so they are looked
      // for only where the agent did not name them itself; longer ones are the answer's words.
      answerWords.push(...words.filter((w) => w.length >= 2));
      answerLetters.push(...words.filter((w) => /^[A-Za-z]$/.test(w)));
    }
  });
  return { numbers, answerWords, answerLetters: [...new Set(answerLetters)] };
}

/** What varies with the seed in an instance: its numbers, and the answer's words and option letters. */
export interface SeedVarying {
  numbers: VaryingNumber[];
  /** The answer's words of two or more characters, looked for everywhere. */
  answerWords: string[];
  /**
   * The answer's one-letter words (an option letter), looked for in texts that did not come
   * from a call naming that letter; an English article ("A move was refused") is not one.
   */
  answerLetters?: string[];
}

/** Whether `text` names the option letter `letter` as a word of its own (not "A" or "I" starting a phrase). */
export function namesLetter(text: string, letter: string): boolean {
  const re = new RegExp(`(?<![A-Za-z0-9_'’-])${escapeRegExp(letter)}(?![A-Za-z0-9_'’-])`, 'g');
  for (const m of text.matchAll(re)) {
    const after = text.slice((m.index ?? 0) + 1);
    // "A move", "I think": an article or a pronoun followed by a lower-case word.
    if ((letter === 'A' || letter === 'I' || letter === 'a') && /^\s+[a-z]/.test(after)) continue;
    return true;
  }
  return false;
}

const UNIT_TO_SI: Record<string, { factor: number; kind: 'length' | 'angle' }> = {
  mm: { factor: 0.001, kind: 'length' },
  cm: { factor: 0.01, kind: 'length' },
  m: { factor: 1, kind: 'length' },
  '°': { factor: Math.PI / 180, kind: 'angle' },
  deg: { factor: Math.PI / 180, kind: 'angle' },
  degree: { factor: Math.PI / 180, kind: 'angle' },
  degrees: { factor: Math.PI / 180, kind: 'angle' },
  rad: { factor: 1, kind: 'angle' },
  radian: { factor: 1, kind: 'angle' },
  radians: { factor: 1, kind: 'angle' },
};
/**
 * Units of time: a duration or the world clock ("waited 7.463 s; world time is now 8.463 s") is
 * compared with the scene's numbers only as written. Read as degrees too, T1's clock once matched
 * a ball's speed (8.463° = 0.148 rad).
 */
const TIME_UNITS = new Set(['s', 'second', 'seconds']);
const NUMBER = /(?<![A-Za-z0-9_.])(-?\d+(?:\.\d+)?)(?:\s*(%|percent\b|mm|cm|m|°|degrees|degree|deg|radians|radian|rad|seconds|second|s)(?![A-Za-z0-9]))?/g;

function near(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 + 0.005 * Math.abs(b);
}

/** What is wrong with one piece of episode text (masked), one sentence per finding. */
export function textFindings(text: string, varying: SeedVarying, opts: { units?: boolean; echo?: readonly number[]; echoWords?: readonly string[] } = {}): string[] {
  const units = opts.units ?? true;
  const found: string[] = [];
  for (const m of text.matchAll(NUMBER)) {
    const x = Number(m[1]);
    const unit = m[2];
    if (units && (unit === '%' || unit === 'percent')) {
      found.push(`a percentage "${m[0]}"`);
      continue;
    }
    const time = unit !== undefined && TIME_UNITS.has(unit);
    // The agent's own argument said back ("turned -30°" for a turn of −30°) tells it nothing.
    if (unit && units && (opts.echo ?? []).some((e) => near(Math.abs(x), Math.abs(e)))) continue;
    if (unit && units && !time) {
      found.push(`a ${UNIT_TO_SI[unit].kind} "${m[0]}"`);
      continue;
    }
    // A number with a unit in SI, a time as written; a bare one as written, and as millimetres,
    // centimetres or degrees.
    const readings = time ? [x] : unit && UNIT_TO_SI[unit] ? [x * UNIT_TO_SI[unit].factor] : [x, x / 1000, x / 100, (x * Math.PI) / 180];
    if ((!unit || time) && (opts.echo ?? []).some((e) => near(x, e))) continue;
    const hit = varying.numbers.find((v) => (v.answer ? near(x, v.value) : !countLikeText(x) && readings.some((r) => near(r, v.value))) && v.value !== 0);
    if (hit) found.push(`"${m[0]}", which equals ${hit.source} = ${hit.value}`);
  }
  for (const w of varying.answerWords) {
    if (new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(w)}(?![A-Za-z0-9])`).test(text)) found.push(`the answer "${w}"`);
  }
  for (const l of varying.answerLetters ?? []) {
    if (!(opts.echoWords ?? []).includes(l) && namesLetter(text, l)) found.push(`the answer's option letter "${l}", which the agent did not name`);
  }
  return found;
}

function countLikeText(x: number): boolean {
  return Number.isInteger(x) && Math.abs(x) < 10;
}

/** The structured-data keys a family shows by design (`TaskFamily.shownMeasures`). */
export function shownMeasures(family: TaskFamily): ReadonlySet<string> {
  return new Set(family.shownMeasures?.keys ?? []);
}

/** The text an agent reads about one call's outcome: its message, its structured data and, for a rolled-back call, the rollback image's caption. */
export function callTexts(where: string, r: CallResult, shown: ReadonlySet<string> = new Set()): AgentText[] {
  // Calls the loop dropped unrun carry the loop's own fixed sentences; a final call's result
  // comes after the episode's last decision ("committed the count 21" echoes the answer given).
  if (r.status === 'not-run' || r.kind === 'final') return [];
  const ownCamera = CAMERA_TOOL_NAMES.has(r.call.tool);
  const args = new Map<string, number>();
  numericLeaves(r.call.args, '', args);
  const echo = [...args.values()];
  // A camera call's note of its elevation limits states the instance's camera settings (the
  // same for every seed of a tier), not the world's geometry: its two numbers count as said
  // back, so that one equal by chance to a scene number (an opening at x = -0.1 m) is no leak.
  if (ownCamera) for (const m of r.message.matchAll(/elevation limited to (-?[0-9.]+)\.\.(-?[0-9.]+) degrees/g)) echo.push(Number(m[1]), Number(m[2]));
  const echoWords: string[] = [];
  stringLeaves(r.call.args, echoWords);
  const out: AgentText[] = [{ where: `${where} message`, text: r.message, echo, echoWords, ...(ownCamera ? { ownCamera } : {}) }];
  if (r.data !== undefined) {
    const leaves = new Map<string, number>();
    numericLeaves(r.data, 'data', leaves);
    const strings: string[] = [];
    stringLeaves(r.data, strings);
    out.push({ where: `${where} data`, text: [...[...leaves].map(([k, v]) => `${k} = ${v}`), ...strings].join('\n') });
    // A fraction in structured data is a measurement whatever its key, unless the family shows
    // it by design (`TaskFamily.shownMeasures`: V5's projection IoU, the protocol's feedback).
    for (const [k, v] of leaves) if (!Number.isInteger(v) && !shown.has(k.replace(/^data\./, '').replace(/\[\d+\]$/, ''))) out.push({ where: `${where} ${k}`, text: `${k} = ${v}`, finding: `a measurement ${k} = ${v} in the structured data` });
  }
  if (r.status === 'violation' && r.violation) out.push({ where: `${where} rollback caption`, text: rollbackCaption(r.violation) });
  return out;
}

/**
 * Leaks in what an episode told the agent: every text is masked (`textVaries`) and then
 * scanned for percentages, numbers with length or angle units, numbers equal to seed-varying
 * numbers of the instance and the answer's words. One sentence per text that leaks.
 */
export function episodeTextLeaks(family: TaskFamily, instance: Instance, texts: readonly AgentText[], varying: SeedVarying, label: string): string[] {
  const mask = allowedValues(family, instance);
  const problems: string[] = [];
  for (const t of texts) {
    const findings = t.finding ? [t.finding] : textFindings(maskText(t.text, mask), varying, { units: !t.ownCamera, ...(t.echo ? { echo: t.echo } : {}), ...(t.echoWords ? { echoWords: t.echoWords } : {}) });
    if (findings.length) problems.push(`${instance.id} ${label}, ${t.where}: ${findings.join('; ')} — in "${t.text.length > 160 ? `${t.text.slice(0, 157)}...` : t.text}"`);
  }
  return problems;
}

/**
 * Plays `agent` on `instance` through the real loop without rendering, for at most `turns`
 * turns, and returns every text it was shown after the start: the family's observation text
 * each turn and each call's result ({@link callTexts}).
 */
export async function episodeTexts(family: TaskFamily, instance: Instance, agent: Agent, turns: number): Promise<AgentText[]> {
  const texts: AgentText[] = [];
  let env: TaskEnv | null = null;
  let played = 0;
  await runEpisode({
    family,
    instance,
    agent,
    mode: DEFAULT_MODE,
    renderer: null,
    render: 'never',
    async onStart(e) {
      env = e;
      texts.push(...(await observationTexts(e, 'start')));
    },
    async onTurn(record) {
      played++;
      record.results.forEach((r, i) => texts.push(...callTexts(`turn ${record.turn} call ${i + 1} (${r.call.tool})`, r, shownMeasures(family))));
      if (env) texts.push(...(await observationTexts(env, `after turn ${record.turn}`)));
    },
    shouldStop: () => played >= turns,
  });
  return texts;
}

/** The family's own read-out an observation shows now (`FamilyEnv.observationText`), if any. */
export async function observationTexts(env: TaskEnv, when: string): Promise<AgentText[]> {
  const seen = await env.observation({ renderer: null, images: false });
  return seen.extraText ? [{ where: `observation text ${when}`, text: seen.extraText }] : [];
}
