/**
 * The tiered 0–100 episode score, kept apart from the loop so it can be checked on
 * hand-built records.
 *
 * - Solved, graded families: 40–100. 100 at or below the reference solution's action count,
 *   falling as 40 + 60·(reference / actions) above it, so twice the reference scores 70.
 * - Unsolved, graded: 0–35, as 35 × the family's progress measure.
 * - Pass/fail families (ending in a load test): no graded score; success only. The record
 *   carries `score: null` and `graded: false`, and means leave it out.
 * - Abandoned (API failures past retries): 0, marked, whatever the progress.
 */
import { roundTo } from '../core/determinism.ts';

/** What the scorer needs from an episode. */
export interface ScoreInput {
  solved: boolean;
  abandoned: boolean;
  /** Executed non-perception actions. */
  actions: number;
  /** The reference solution's non-perception action count. */
  referenceActions: number;
  /** Family progress in [0, 1]. */
  progress: number;
  scoring: 'graded' | 'passfail';
}

/** The score of one episode. */
export interface Score {
  /** 0–100, or null for pass/fail families. */
  score: number | null;
  graded: boolean;
  /** `solved`, `unsolved`, `pass`, `fail` or `abandoned`. */
  band: 'solved' | 'unsolved' | 'pass' | 'fail' | 'abandoned';
}

/** Score band limits. */
export const SOLVED_MIN = 40;
export const UNSOLVED_MAX = 35;

/** Rounds to 0.1 so summaries are stable under float noise. */
function round1(x: number): number {
  return roundTo(x, 1);
}

/** Scores one episode. */
export function scoreEpisode(e: ScoreInput): Score {
  if (e.abandoned) return { score: e.scoring === 'graded' ? 0 : null, graded: e.scoring === 'graded', band: 'abandoned' };
  if (e.scoring === 'passfail') return { score: null, graded: false, band: e.solved ? 'pass' : 'fail' };
  if (e.solved) {
    const ref = Math.max(1, e.referenceActions);
    const ratio = e.actions <= ref ? 1 : ref / e.actions;
    return { score: round1(SOLVED_MIN + (100 - SOLVED_MIN) * ratio), graded: true, band: 'solved' };
  }
  const p = Number.isFinite(e.progress) ? Math.min(1, Math.max(0, e.progress)) : 0;
  return { score: round1(UNSOLVED_MAX * p), graded: true, band: 'unsolved' };
}
