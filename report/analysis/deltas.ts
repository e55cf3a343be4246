/**
 * Diagnostic deltas across runs of the same agent (the paper's §6.4 and Appendix C):
 *
 * - **Modes vs default.** For each agent and each mode other than `default`, over the
 *   instances both conditions finished, neither abandoned and both graded: the mean score
 *   in each, the **share of the gap closed** — (mode − default) ÷ (100 − default) — and
 *   collisions per episode in each (over the same pairs).
 * - **L7 levers vs L5.** For each agent and mode, each family's L7 instance is paired with
 *   the same family's L5 instance at the same seed (both finished, neither abandoned, both
 *   graded): the **score drop** L5 − L7, averaged per lever (the L7 tier's lever, e.g. `+rot`).
 * - **Single-factor lever studies vs L5** (the paper's Appendix C). For each agent and mode,
 *   each lever instance (`M5-L5+tool-s100`) is paired with the same family's L5 instance at the
 *   same seed (both finished, neither abandoned, both graded): the mean **delta** lever − L5 per
 *   lever over every family that has it, with a paired percentile-bootstrap 95 % interval over
 *   the pairs (`core/statistics.ts`).
 */
import { getFamily } from '../../tasks/registry.ts';
import { compareFamilies, instanceId, parseInstanceId } from '../../core/catalog.ts';
import { bootstrapMean } from '../../core/statistics.ts';
import type { EpisodeTrace } from './trace.ts';

/** One mode of one agent against the same agent's default condition. */
export interface ModeDelta {
  agent: string;
  mode: string;
  pairs: number;
  meanDefault: number | null;
  meanMode: number | null;
  /** (mode − default) ÷ (100 − default); null when default already scored 100 or no pairs. */
  gapClosed: number | null;
  collisionsDefault: number | null;
  collisionsMode: number | null;
  /** Pairs dropped because a side was abandoned. */
  abandonedDropped: number;
}

/** One lever's score drop from L5 to L7, for one agent and mode. */
export interface LeverDelta {
  agent: string;
  mode: string;
  lever: string;
  families: string[];
  pairs: number;
  meanL5: number | null;
  meanL7: number | null;
  /** mean(L5 − L7): positive when the lever costs points. */
  drop: number | null;
}

/** One lever's single-factor study against L5 (`F-L5+lever-sN` vs `F-L5-sN`), for one agent and mode. */
export interface LeverStudyDelta {
  agent: string;
  mode: string;
  lever: string;
  families: string[];
  pairs: number;
  meanL5: number | null;
  meanLever: number | null;
  /** mean(lever − L5): negative when the lever costs points. */
  delta: number | null;
  /** Percentile-bootstrap 95 % interval of the mean paired difference (null without pairs). */
  interval: { lo: number; hi: number } | null;
  /** Pairs dropped because a side was abandoned. */
  abandonedDropped: number;
  /**
   * Every pair neither side of which was abandoned, pass/fail families (no score) included: how
   * many, their families, and how many of them were solved at L5 and with the lever — so a
   * lever's cost on B1, B2, B3 or B6 shows as successes where the score delta cannot.
   */
  successPairs: number;
  successFamilies: string[];
  solvedL5: number;
  solvedLever: number;
}

/** Every kind of delta. */
export interface Deltas {
  modes: ModeDelta[];
  levers: LeverDelta[];
  /** Single-factor lever studies against L5, per agent, mode and lever. */
  leverStudies: LeverStudyDelta[];
}

/** The lever an instance id names (`+tool` for `M5-L5+tool-s100`), or null. */
function studyLever(id: string): { lever: string; l5: string } | null {
  try {
    const p = parseInstanceId(id);
    return p.lever ? { lever: p.lever, l5: instanceId(p.family, p.tier, p.seed) } : null;
  } catch {
    return null;
  }
}

function mean(xs: number[]): number | null {
  return xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : null;
}

function collisions(e: EpisodeTrace): number {
  return e.turns.filter((t) => t.collision).length;
}

/** The lever of a family's L7 tier, from the registry (`L7` when the family is unknown here). */
export function leverOf(family: string): string {
  try {
    const levers = getFamily(family).tiers.L7?.levers ?? [];
    return levers.length ? levers.join('') : 'L7';
  } catch {
    return 'L7';
  }
}

/** Finished episodes per agent, then per mode, then per instance (the first run given wins). */
function index(episodes: readonly EpisodeTrace[]): Map<string, Map<string, Map<string, EpisodeTrace>>> {
  const out = new Map<string, Map<string, Map<string, EpisodeTrace>>>();
  for (const e of episodes) {
    if (!e.finished) continue;
    if (!out.has(e.agent)) out.set(e.agent, new Map());
    const modes = out.get(e.agent)!;
    if (!modes.has(e.mode)) modes.set(e.mode, new Map());
    const byId = modes.get(e.mode)!;
    if (!byId.has(e.instance)) byId.set(e.instance, e);
  }
  return out;
}

const gradedScore = (e: EpisodeTrace): e is EpisodeTrace & { score: number } => e.graded && e.score !== null;

/** What a lever study reads of one finished episode (a trace or a summary entry alike). */
export interface LeverStudyEpisode {
  instance: string;
  family: string;
  score: number | null;
  graded: boolean;
  abandoned: boolean;
  solved: boolean;
}

/**
 * Single-factor lever studies over one agent's episodes in one mode (the first episode of an
 * instance counts): each `F-L5+lever-sN` paired with `F-L5-sN`, per lever, with the mean paired
 * difference and its percentile-bootstrap 95 % interval (keyed by `key` and the lever, so the
 * same episodes give the same interval). Used by `analyze` and the leaderboard alike.
 */
export function leverStudyDeltas(episodes: readonly LeverStudyEpisode[], key: string): Array<Omit<LeverStudyDelta, 'agent' | 'mode'>> {
  const byId = new Map<string, LeverStudyEpisode>();
  for (const e of episodes) if (!byId.has(e.instance)) byId.set(e.instance, e);
  const perStudy = new Map<string, { pairs: Array<[LeverStudyEpisode, LeverStudyEpisode]>; all: Array<[LeverStudyEpisode, LeverStudyEpisode]>; abandonedDropped: number }>();
  for (const [id, withLever] of byId) {
    const study = studyLever(id);
    if (!study) continue;
    const l5 = byId.get(study.l5);
    if (!l5) continue;
    if (!perStudy.has(study.lever)) perStudy.set(study.lever, { pairs: [], all: [], abandonedDropped: 0 });
    const bucket = perStudy.get(study.lever)!;
    if (l5.abandoned || withLever.abandoned) bucket.abandonedDropped += 1;
    else {
      bucket.all.push([l5, withLever]);
      if (l5.graded && l5.score !== null && withLever.graded && withLever.score !== null) bucket.pairs.push([l5, withLever]);
    }
  }
  return [...perStudy.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([lever, { pairs, all, abandonedDropped }]) => {
      const diffs = pairs.map(([a, b]) => b.score! - a.score!);
      const boot = bootstrapMean(diffs, `lever-study/${key}/${lever}`);
      return {
        lever,
        families: [...new Set(pairs.map(([a]) => a.family))].sort(compareFamilies),
        pairs: pairs.length,
        meanL5: mean(pairs.map(([a]) => a.score!)),
        meanLever: mean(pairs.map(([, b]) => b.score!)),
        delta: mean(diffs),
        interval: boot ? { lo: boot.lo, hi: boot.hi } : null,
        abandonedDropped,
        successPairs: all.length,
        successFamilies: [...new Set(all.map(([a]) => a.family))].sort(compareFamilies),
        solvedL5: all.filter(([a]) => a.solved).length,
        solvedLever: all.filter(([, b]) => b.solved).length,
      };
    });
}

/** Diagnostic deltas over episodes of any number of runs. */
export function diagnosticDeltas(episodes: readonly EpisodeTrace[]): Deltas {
  const modes: ModeDelta[] = [];
  const levers: LeverDelta[] = [];
  const leverStudies: LeverStudyDelta[] = [];
  const idx = index(episodes);
  for (const [agent, byMode] of [...idx.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const base = byMode.get('default');
    if (base) {
      for (const [mode, eps] of [...byMode.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        if (mode === 'default') continue;
        const pairs: Array<[EpisodeTrace, EpisodeTrace]> = [];
        let abandonedDropped = 0;
        for (const [id, m] of eps) {
          const d = base.get(id);
          if (!d) continue;
          if (d.abandoned || m.abandoned) {
            abandonedDropped += 1;
            continue;
          }
          if (gradedScore(d) && gradedScore(m)) pairs.push([d, m]);
        }
        const meanDefault = mean(pairs.map(([d]) => d.score!));
        const meanMode = mean(pairs.map(([, m]) => m.score!));
        const gapClosed = meanDefault !== null && meanMode !== null && meanDefault < 100 ? (meanMode - meanDefault) / (100 - meanDefault) : null;
        modes.push({
          agent,
          mode,
          pairs: pairs.length,
          meanDefault,
          meanMode,
          gapClosed,
          collisionsDefault: mean(pairs.map(([d]) => collisions(d))),
          collisionsMode: mean(pairs.map(([, m]) => collisions(m))),
          abandonedDropped,
        });
      }
    }
    for (const [mode, eps] of [...byMode.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const perLever = new Map<string, Array<[EpisodeTrace, EpisodeTrace]>>();
      for (const [id, l7] of eps) {
        if (l7.tier !== 'L7') continue;
        const l5 = eps.get(id.replace(/-L7-/, '-L5-'));
        if (!l5 || l5.abandoned || l7.abandoned || !gradedScore(l5) || !gradedScore(l7)) continue;
        const lever = leverOf(l7.family);
        if (!perLever.has(lever)) perLever.set(lever, []);
        perLever.get(lever)!.push([l5, l7]);
      }
      for (const [lever, pairs] of [...perLever.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        const meanL5 = mean(pairs.map(([a]) => a.score!));
        const meanL7 = mean(pairs.map(([, b]) => b.score!));
        levers.push({
          agent,
          mode,
          lever,
          families: [...new Set(pairs.map(([a]) => a.family))].sort(compareFamilies),
          pairs: pairs.length,
          meanL5,
          meanL7,
          drop: mean(pairs.map(([a, b]) => a.score! - b.score!)),
        });
      }
      for (const study of leverStudyDeltas([...eps.values()], `${agent}/${mode}`)) leverStudies.push({ agent, mode, ...study });
    }
  }
  return { modes, levers, leverStudies };
}
