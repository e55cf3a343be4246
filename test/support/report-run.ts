import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { episodeDirName, LOG_FORMAT, type LogEnd, type LogHeader, type LogTurn } from '../../agents/episode-log.ts';
import type { RunSummary, SummaryEntry } from '../../agents/runner.ts';

/** Markup a hostile model might write: each must reach a page as text only. */
export const XSS = {
  img: '<img src=x onerror=alert(1)>',
  script: '</script><script>alert(2)</script>',
  attr: '"><svg onload=alert(3)>',
  quote: "'><b id=\"xss-bold\">bold</b>",
};

/** All payloads in one string. */
export const XSS_ALL = Object.values(XSS).join(' ');

/** A plain PNG of one colour. */
export function solidPng(width: number, height: number, rgb: [number, number, number]): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } }).png().toBuffer();
}

/** One hand-made episode: its summary row, and how many turns its log gets. */
export interface HandmadeEpisode {
  entry: SummaryEntry;
  /** Turns in the log (default the entry's turns). */
  turns?: number;
  /** Text put into rationales, notes, arguments and messages (default {@link XSS_ALL}). */
  text?: string;
  /** Leave the end line off (an unfinished episode; the entry is then listed as unfinished). */
  unfinished?: boolean;
  /** Make turn 2 a violation with a rollback image, and give the episode strobe images. */
  violation?: boolean;
  strobe?: boolean;
}

/** A summary row with defaults for everything but the id. */
export function entry(instance: string, over: Partial<SummaryEntry> = {}): SummaryEntry {
  const family = instance.split('-')[0];
  const tier = instance.split('-')[1] ?? 'L1';
  return {
    instance,
    family,
    tier,
    agent: 'handmade',
    mode: 'default',
    solved: false,
    score: 0,
    graded: true,
    turns: 2,
    actions: 2,
    violations: 0,
    invalidReplies: 0,
    abandoned: false,
    endReason: 'turn-budget',
    progress: 0,
    referenceActions: 3,
    inputTokens: 0,
    outputTokens: 0,
    ...over,
  };
}

/**
 * Writes a run folder by hand (summary.json and one JSONL log with PNG images per episode),
 * in the format `agents/episode-log.ts` writes, with model text that tries to inject markup.
 */
export async function writeHandmadeRun(dir: string, episodes: HandmadeEpisode[]): Promise<RunSummary> {
  const view = await solidPng(48, 48, [90, 140, 200]);
  const strobe = await solidPng(250, 48, [200, 180, 60]);
  const rollback = await solidPng(100, 48, [200, 60, 160]);
  for (const ep of episodes) {
    const e = ep.entry;
    const text = ep.text ?? XSS_ALL;
    const folder = join(dir, 'episodes', episodeDirName(e.instance));
    mkdirSync(folder, { recursive: true });
    const header: LogHeader = {
      type: 'header',
      format: LOG_FORMAT,
      package: { name: 'spaceact', version: '0.0.0-test' },
      instance: { id: e.instance, family: e.family, familyVersion: 1, tier: e.tier, seed: 1, digest: '0123456789abcdef' },
      agent: { name: e.agent, settings: { note: text } },
      mode: e.mode,
      budgets: { turns: 100, actionsPerTurn: 5 },
      historyImages: 1,
      startedAt: '2026-01-01T00:00:00.000Z',
    };
    const lines: unknown[] = [header];
    const n = ep.turns ?? e.turns;
    for (let t = 1; t <= n; t++) {
      const images: LogTurn['images'] = [];
      const add = (kind: 'view' | 'strobe' | 'rollback', png: Buffer, caption: string): void => {
        const file = `turn-${String(t).padStart(3, '0')}-${images.length}-${kind}.png`;
        writeFileSync(join(folder, file), png);
        images.push({ kind, caption, file });
      };
      if (ep.violation && t === 3) add('rollback', rollback, `Rollback caption ${text}`);
      if (ep.strobe) add('strobe', strobe, 'Five frames.');
      else add('view', view, 'Current view.');
      const violating = ep.violation && t === 2;
      const turn: LogTurn = {
        type: 'turn',
        turn: t,
        worldTimeBefore: t - 1,
        worldTimeAfter: t,
        images,
        reply: {
          rationale: `Turn ${t} rationale: ${text}`,
          note: t === 1 ? `note ${text}` : `note ${text}`,
          actions: [{ tool: 'move', args: { from: text, to: 'B' } }],
          usage: { inputTokens: 100 * t, outputTokens: 10 * t },
          raw: `{"rationale": "${text}"}`,
          requests: [{ attempt: 1, digest: 'd', apiRetries: 0, raw: `refused ${text}`, problems: [`problem ${text}`] }],
        },
        results: [
          {
            call: { tool: 'move', args: { from: text, to: 'B' } },
            status: violating ? 'violation' : 'ok',
            kind: 'discrete',
            message: `result ${text}`,
            ...(violating ? { violation: { kind: 'collision', message: text, bodies: ['disk-1'] } } : {}),
            timeBefore: t - 1,
            timeAfter: t,
          },
        ],
        stateHash: 'abc',
      };
      lines.push(turn);
    }
    if (!ep.unfinished) {
      const end: LogEnd = {
        type: 'end',
        outcome: {
          instance: e.instance,
          family: e.family,
          tier: e.tier,
          agent: e.agent,
          mode: e.mode,
          solved: e.solved,
          terminated: e.solved,
          truncated: !e.solved,
          abandoned: e.abandoned,
          endReason: e.endReason,
          turns: e.turns,
          actions: e.actions,
          perceptionActions: 0,
          violations: e.violations,
          invalidCalls: 0,
          invalidReplies: e.invalidReplies,
          progress: e.progress,
          finalStateHash: 'abc',
          worldTime: n,
          usage: { inputTokens: e.inputTokens, outputTokens: e.outputTokens },
        },
        score: { score: e.score, graded: e.graded, band: e.abandoned ? 'abandoned' : e.solved ? 'solved' : 'unsolved' },
        referenceActions: e.referenceActions,
        finishedAt: '2026-01-01T00:01:00.000Z',
      };
      lines.push(end);
    }
    writeFileSync(join(folder, 'log.jsonl'), lines.map((l) => JSON.stringify(l) + '\n').join(''));
  }
  const finished = episodes.filter((e) => !e.unfinished).map((e) => e.entry);
  const summary: RunSummary = {
    package: { name: 'spaceact', version: '0.0.0-test' },
    agent: { name: 'handmade', settings: {} },
    mode: 'default',
    episodes: finished,
    totals: {
      episodes: finished.length,
      solved: finished.filter((e) => e.solved).length,
      abandoned: finished.filter((e) => e.abandoned).length,
      inputTokens: finished.reduce((s, e) => s + e.inputTokens, 0),
      outputTokens: finished.reduce((s, e) => s + e.outputTokens, 0),
    },
    unfinished: episodes.filter((e) => e.unfinished).map((e) => e.entry.instance),
  };
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(summary, null, 2));
  return summary;
}

/** A varied run: graded solved and unsolved, pass/fail, abandoned, with tokens and cost, one unfinished. */
export function mixedEpisodes(): HandmadeEpisode[] {
  return [
    { entry: entry('P6-L5-s1', { solved: true, score: 85, turns: 3, actions: 4, violations: 1, endReason: 'solved', progress: 1, inputTokens: 600, outputTokens: 60, cost: 0.0123 }), violation: true },
    { entry: entry('P6-L7-s1', { solved: false, score: 17.5, turns: 2, actions: 6, violations: 0, progress: 0.5, inputTokens: 300, outputTokens: 30, cost: 0.002 }) },
    { entry: entry('B1-L5-s1', { solved: true, score: null, graded: false, turns: 1, actions: 1, endReason: 'commit' }) },
    { entry: entry('B2-L5-s1', { solved: false, score: null, graded: false, turns: 1, actions: 9, violations: 3 }) },
    { entry: entry('M1-L7-s1', { solved: false, score: 12.3, turns: 2, actions: 2, violations: 2, progress: 0.35 }), strobe: true },
    { entry: entry('T1-L7-s1', { solved: false, score: 0, turns: 1, actions: 0, abandoned: true, abandonReason: `API failed ${XSS.img}`, endReason: 'abandoned' }), strobe: true },
    { entry: entry('V1-L7-s1', { turns: 2 }), unfinished: true },
  ];
}
