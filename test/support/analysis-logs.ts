/**
 * Hand-built run folders for the behaviour analysis: each turn says which calls ran and how
 * they ended, the note and the progress, and the files are written in the format
 * `agents/episode-log.ts` writes (header, turn lines, end line, summary.json).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { episodeDirName, LOG_FORMAT, type LogEnd, type LogHeader, type LogTurn } from '../../agents/episode-log.ts';
import type { RunSummary, SummaryEntry } from '../../agents/runner.ts';
import type { CallResult } from '../../tasks/env.ts';
import type { ToolKind } from '../../tasks/types.ts';

/** One call of a hand-built turn. */
export interface CallSpec {
  tool: string;
  kind: ToolKind;
  status: CallResult['status'];
  violation?: 'collision' | 'rule' | 'workspace' | 'statics' | 'topology';
  /** The family's name of a broken rule (with `violation: 'rule'`). */
  rule?: string;
  /** The call's arguments (default none). */
  args?: Record<string, unknown>;
}

/** A camera call that ran. */
export const cam = (): CallSpec => ({ tool: 'orbit', kind: 'perception', status: 'ok' });
/** A physical move that ran. */
export const move = (): CallSpec => ({ tool: 'move', kind: 'physical', status: 'ok' });
/** A physical move rolled back after a collision. */
export const collide = (distance = 0): CallSpec => ({ tool: 'move', kind: 'physical', status: 'violation', violation: 'collision', args: { distance_m: distance } });
/** A move refused by a named rule of the family. */
export const broken = (rule: string, args: Record<string, unknown>): CallSpec => ({ tool: 'move', kind: 'physical', status: 'violation', violation: 'rule', rule, args });
/** A call not run (after a violation). */
export const skipped = (): CallSpec => ({ tool: 'move', kind: 'physical', status: 'not-run' });
/** A final commit that ran. */
export const commit = (): CallSpec => ({ tool: 'commit', kind: 'final', status: 'ok' });

/** One hand-built turn. */
export interface TurnSpec {
  calls: CallSpec[];
  note?: string;
  /** Progress before and after; null leaves it out of the log (as older logs do). */
  progress: [number, number] | null;
  stateHash?: string;
  abandoned?: string;
  refused?: boolean;
}

/** One hand-built episode. */
export interface EpisodeSpec {
  instance: string;
  solved: boolean;
  endReason: SummaryEntry['endReason'];
  /** Default: 100 when solved, else 35 × the last progress. */
  score?: number | null;
  graded?: boolean;
  abandoned?: boolean;
  turns: TurnSpec[];
  inputTokens?: number;
  outputTokens?: number;
  cost?: number;
}

/** Writes a run folder; returns its summary. */
export function writeAnalysisRun(dir: string, episodes: EpisodeSpec[], opts: { agent?: string; mode?: string; model?: string } = {}): RunSummary {
  const agent = opts.agent ?? 'handmade';
  const mode = opts.mode ?? 'default';
  const entries: SummaryEntry[] = [];
  for (const ep of episodes) {
    const [family, tier] = ep.instance.split('-');
    const folder = join(dir, 'episodes', episodeDirName(ep.instance));
    mkdirSync(folder, { recursive: true });
    const header: LogHeader = {
      type: 'header',
      format: LOG_FORMAT,
      package: { name: 'spaceact', version: '0.0.0-test' },
      instance: { id: ep.instance, family, familyVersion: 1, tier, seed: 1, digest: '0123456789abcdef' },
      agent: { name: agent, settings: opts.model ? { model: opts.model } : {} },
      mode,
      budgets: { turns: ep.turns.length, actionsPerTurn: 5 },
      historyImages: 1,
      startedAt: '2026-01-01T00:00:00.000Z',
    };
    const lines: unknown[] = [header];
    let actions = 0;
    let perception = 0;
    let violations = 0;
    ep.turns.forEach((t, i) => {
      const results: CallResult[] = t.calls.map((c) => ({
        call: { tool: c.tool, args: c.args ?? {} },
        status: c.status,
        kind: c.kind,
        message: c.status,
        ...(c.violation ? { violation: { kind: c.violation, bodies: ['part'], message: c.violation, ...(c.rule ? { rule: c.rule } : {}) } } : {}),
        timeBefore: 0,
        timeAfter: 0,
      }));
      for (const c of t.calls) {
        if (c.status === 'ok' || c.status === 'violation') {
          if (c.kind === 'perception') perception += 1;
          else actions += 1;
        }
        if (c.status === 'violation') violations += 1;
      }
      const turn: LogTurn = {
        type: 'turn',
        turn: i + 1,
        worldTimeBefore: 0,
        worldTimeAfter: 0,
        images: [],
        reply: {
          rationale: `turn ${i + 1}`,
          note: t.note ?? '',
          actions: t.refused || t.abandoned ? [] : t.calls.map((c) => ({ tool: c.tool, args: c.args ?? {} })),
          ...(t.refused ? { refused: ['not JSON'] } : {}),
          ...(t.abandoned ? { abandoned: { reason: t.abandoned } } : {}),
          usage: { inputTokens: 100, outputTokens: 10 },
        },
        results: t.refused || t.abandoned ? [] : results,
        stateHash: t.stateHash ?? `h${i + 1}`,
      };
      if (t.progress) turn.progress = { before: t.progress[0], after: t.progress[1] };
      lines.push(turn);
    });
    const lastProgress = ep.turns.at(-1)?.progress?.[1] ?? 0;
    const graded = ep.graded ?? true;
    const score = ep.score !== undefined ? ep.score : !graded ? null : ep.abandoned ? 0 : ep.solved ? 100 : Math.round(350 * lastProgress) / 10;
    const entry: SummaryEntry = {
      instance: ep.instance,
      family,
      tier,
      agent,
      mode,
      solved: ep.solved,
      score,
      graded,
      turns: ep.turns.length,
      actions,
      violations,
      invalidReplies: 0,
      abandoned: ep.abandoned ?? false,
      endReason: ep.endReason,
      progress: ep.solved ? 1 : lastProgress,
      referenceActions: 3,
      inputTokens: ep.inputTokens ?? 100 * ep.turns.length,
      outputTokens: ep.outputTokens ?? 10 * ep.turns.length,
      ...(ep.cost !== undefined ? { cost: ep.cost } : {}),
    };
    entries.push(entry);
    const end: LogEnd = {
      type: 'end',
      outcome: {
        instance: ep.instance,
        family,
        tier,
        agent,
        mode,
        solved: ep.solved,
        terminated: ep.endReason !== 'turn-budget',
        truncated: ep.endReason === 'turn-budget',
        abandoned: ep.abandoned ?? false,
        endReason: ep.endReason,
        turns: ep.turns.length,
        actions,
        perceptionActions: perception,
        violations,
        invalidCalls: 0,
        invalidReplies: 0,
        progress: entry.progress,
        finalStateHash: 'end',
        worldTime: 0,
        usage: { inputTokens: entry.inputTokens, outputTokens: entry.outputTokens },
      },
      score: { score, graded, band: ep.abandoned ? 'abandoned' : ep.solved ? 'solved' : 'unsolved' },
      referenceActions: 3,
      finishedAt: '2026-01-01T00:01:00.000Z',
    };
    lines.push(end);
    writeFileSync(join(folder, 'log.jsonl'), lines.map((l) => JSON.stringify(l) + '\n').join(''));
  }
  const summary: RunSummary = {
    package: { name: 'spaceact', version: '0.0.0-test' },
    agent: { name: agent, settings: opts.model ? { model: opts.model } : {} },
    mode,
    episodes: entries,
    totals: {
      episodes: entries.length,
      solved: entries.filter((e) => e.solved).length,
      abandoned: entries.filter((e) => e.abandoned).length,
      inputTokens: entries.reduce((s, e) => s + e.inputTokens, 0),
      outputTokens: entries.reduce((s, e) => s + e.outputTokens, 0),
    },
    unfinished: [],
  };
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(summary, null, 2));
  return summary;
}

const repeat = <T>(n: number, f: () => T): T[] => Array.from({ length: n }, f);

/** A clean solve in three turns: batches of 3, 2 and 1 calls, one of them a camera call. */
export const CLEAN_SOLVE: EpisodeSpec = {
  instance: 'P6-L5-s1',
  solved: true,
  endReason: 'solved',
  turns: [
    { calls: [cam(), move(), move()], note: 'plan', progress: [0, 0.3] },
    { calls: [move(), move()], note: 'plan', progress: [0.3, 0.6] },
    { calls: [move()], note: 'done', progress: [0.6, 1] },
  ],
};

/** A collision loop: progress on turn 1, then collisions on turns 2–5 and 7–8 around one camera turn. */
export const COLLISION_LOOP: EpisodeSpec = {
  instance: 'M1-L5-s1',
  solved: false,
  endReason: 'turn-budget',
  turns: [
    { calls: [move()], note: 'n1', progress: [0, 0.2] },
    { calls: [collide(0.01), skipped()], note: 'n1', progress: [0.2, 0.2] },
    { calls: [collide(0.02), skipped(), skipped()], note: 'n2', progress: [0.2, 0.2] },
    { calls: [collide(0.03)], note: 'n2', progress: [0.2, 0.2] },
    { calls: [collide(0.04), skipped()], note: 'n3', progress: [0.2, 0.2] },
    { calls: [cam()], note: 'n3', progress: [0.2, 0.2] },
    { calls: [collide(0.05)], note: 'n3', progress: [0.2, 0.2] },
    { calls: [collide(0.06), skipped()], note: 'n3', progress: [0.2, 0.2] },
  ],
};

/** A violation loop: progress on turn 1, then the same illegal move on turns 2, 3, 5 and 6 (a camera turn between). */
export const VIOLATION_LOOP: EpisodeSpec = {
  instance: 'P6-L3-s1',
  solved: false,
  endReason: 'turn-budget',
  turns: [
    { calls: [move()], note: 'a', progress: [0, 0.2] },
    { calls: [broken('empty peg', { from: 'C', to: 'A' })], note: 'a', progress: [0.2, 0.2] },
    { calls: [broken('empty peg', { from: 'C', to: 'A' })], note: 'a', progress: [0.2, 0.2] },
    { calls: [cam()], note: 'a', progress: [0.2, 0.2] },
    { calls: [broken('empty peg', { from: 'C', to: 'A' })], note: 'a', progress: [0.2, 0.2] },
    { calls: [broken('empty peg', { from: 'C', to: 'A' }), skipped()], note: 'a', progress: [0.2, 0.2] },
  ],
};

/** A rule loop: sideways drives of ever other lengths, each refused by the same rule, on five turns in a row. */
export const RULE_LOOP: EpisodeSpec = {
  instance: 'P2-L7-s1',
  solved: false,
  endReason: 'turn-budget',
  turns: [{ calls: [move()], note: 'a', progress: [0, 0.1] }, ...[1, 2, 3, 4, 5].map((n): TurnSpec => ({ calls: [broken('along its length only', { vehicle: 'B', cells: n })], note: 'a', progress: [0.1, 0.1] }))],
};

/** An observation loop: one placement that makes progress, then five turns of two camera calls. */
export const OBSERVATION_LOOP: EpisodeSpec = {
  instance: 'A1-L5-s1',
  solved: false,
  endReason: 'turn-budget',
  turns: [{ calls: [{ tool: 'place', kind: 'physical', status: 'ok' }], note: 'x', progress: [0, 0.25] }, ...repeat(5, (): TurnSpec => ({ calls: [cam(), cam()], note: 'x', progress: [0.25, 0.25] }))],
};

/** A stall: progress on turn 1, then five turns of valid moves that never beat it. */
export const STALL: EpisodeSpec = {
  instance: 'T1-L5-s1',
  solved: false,
  endReason: 'turn-budget',
  turns: [
    { calls: [move()], progress: [0, 0.1] },
    { calls: [move(), move()], progress: [0.1, 0.05] },
    { calls: [move(), move()], progress: [0.05, 0.1] },
    { calls: [move(), move()], progress: [0.1, 0.08] },
    { calls: [move(), move()], progress: [0.08, 0.1] },
    { calls: [move(), move()], progress: [0.1, 0.1] },
  ],
};
