/**
 * P3 solver. The metric is the usual "pushes, then moves": the fewest pushes, and among
 * solutions with that many pushes the fewest steps (a step is one cell walked or pushed).
 *
 * - Forward: A* over (crate cells, pusher cell) where one move is "walk by a shortest route to
 *   the cell behind a crate, then push it one cell", of cost (1 push, walk + 1 steps) folded
 *   into one integer; the number of shortest walks is carried as the move's `ways`, so the
 *   count of optimal solutions counts distinct step sequences. Pushes onto dead squares are
 *   never tried (`crateDistances`), and the heuristic is the sum of each crate's lone push
 *   distance to a marked cell (each push changes one crate's by at most one: consistent).
 * - Backward: breadth-first over pulls from the finished room (the pusher anywhere in each
 *   region), with the pusher named by its region: the exact push distance of every position
 *   that can still be finished. The generator picks starts from it; the episode reads progress.
 */
import { cheapestFirst, lexicographicCost, lexicographicCounts, type WeightedSearchResult } from '../../../solvers/discrete-search/index.ts';
import type { Instance, ReferenceSolution, ShortestSolutions, ToolCall } from '../../types.ts';
import { crateDistances, DIRS, opposite, parseLevel, pusherRegion, step, walks, walkTo, type Level } from './level.ts';
import type { P3Scene } from './scene.ts';

/** Steps per push in the folded cost: no solution has this many steps. */
export const MOVE_BASE = 1_000_000;

/** A position: crate cells (ascending) and the pusher's cell. */
export interface P3State {
  crates: number[];
  pusher: number;
}

/** One push: the crate's cell, the direction, and the cell the pusher walks to before pushing. */
export interface P3Push {
  crate: number;
  dir: number;
  from: number;
}

/** The proven optimum of a room. */
export interface P3Solution {
  solvable: boolean;
  pushes: number;
  moves: number;
  /** Distinct step sequences with that many pushes and steps. */
  solutions: number;
  pushList: P3Push[];
  /** The steps (direction indices) of one optimal solution. */
  steps: number[];
  statesSearched: number;
  method: string;
}

function stateKey(s: P3State): string {
  return `${s.crates.join(',')}|${s.pusher}`;
}

/** Solves a parsed room from a position (default: its start) in the pushes-then-moves metric. */
export function solveLevel(level: Level, start: P3State = { crates: level.crates, pusher: level.pusher }, opts: { maxStates?: number } = {}): P3Solution {
  const lone = crateDistances(level);
  const goalKey = [...level.goals].sort((a, b) => a - b).join(',');
  const result: WeightedSearchResult<P3State, P3Push> = cheapestFirst<P3State, P3Push>(
    {
      start,
      key: stateKey,
      isGoal: (s) => s.crates.join(',') === goalKey,
      *successors(s) {
        const crateSet = new Set(s.crates);
        const w = walks(level, s.pusher, crateSet);
        for (const c of s.crates) {
          for (let d = 0; d < 4; d++) {
            const from = step(level, c, opposite(d));
            if (from < 0 || w.dist[from] < 0) continue;
            const to = step(level, c, d);
            if (to < 0 || crateSet.has(to) || lone[to] < 0) continue;
            const crates = s.crates.map((x) => (x === c ? to : x)).sort((a, b) => a - b);
            yield [{ crate: c, dir: d, from }, { crates, pusher: c }, lexicographicCost([1, w.dist[from] + 1], MOVE_BASE), w.ways[from]] as const;
          }
        }
      },
      heuristic(s) {
        let h = 0;
        for (const c of s.crates) h += lone[c] < 0 ? Infinity : lone[c];
        return h === Infinity ? Infinity : h * MOVE_BASE;
      },
    },
    { maxStates: opts.maxStates ?? 2_000_000 },
  );
  if (!result.solvable) return { solvable: false, pushes: -1, moves: -1, solutions: 0, pushList: [], steps: [], statesSearched: result.statesSearched, method: result.method };
  const [pushes, moves] = lexicographicCounts(result.length, MOVE_BASE, 2);
  // The steps: before each push, the first shortest walk to the cell behind the crate.
  const steps: number[] = [];
  let at: P3State = start;
  result.moves.forEach((m, i) => {
    const w = walks(level, at.pusher, new Set(at.crates));
    steps.push(...walkTo(level, w, m.from), m.dir);
    at = result.states[i];
  });
  return { solvable: true, pushes, moves, solutions: result.optimalCount, pushList: result.moves, steps, statesSearched: result.statesSearched, method: result.method };
}

/**
 * A start whose crates all stand on dead squares or whose lone push distances cannot be met is
 * unsolvable; the heuristic then is Infinity, which the search's consistency check refuses. So
 * positions are screened first: the solver answers unsolvable for them without searching.
 */
export function solveScene(scene: P3Scene, opts: { maxStates?: number } = {}): P3Solution {
  const level = parseLevel(scene);
  const lone = crateDistances(level);
  if (level.crates.some((c) => lone[c] < 0)) return { solvable: false, pushes: -1, moves: -1, solutions: 0, pushList: [], steps: [], statesSearched: 0, method: 'dead square at the start' };
  return solveLevel(level, undefined, opts);
}

/**
 * Every position from which the room can still be finished, with its exact push distance:
 * breadth-first over pulls from the finished room. The pusher is named by the lowest cell of
 * the region it can walk in (positions that differ only by where in that region it stands are
 * one node).
 */
export function pullDistances(level: Level, opts: { maxStates?: number } = {}): Map<string, number> {
  const maxStates = opts.maxStates ?? 1_000_000;
  const n = level.kind.length;
  // Flood fills on scratch arrays (a stamp per fill instead of clearing): the pull search floods
  // once per position and once per pull, and this was most of generating a P3 room.
  const crateAt = new Uint8Array(n);
  const reach = new Uint32Array(n);
  const seen = new Uint32Array(n);
  const stack = new Int32Array(n);
  let stamp = 0;
  const setCrates = (crates: readonly number[], on: number): void => {
    for (const c of crates) crateAt[c] = on;
  };
  const out = new Map<string, number>();
  const queue: P3State[] = [];
  const goals = [...level.goals].sort((a, b) => a - b);
  const goalSet = new Set(goals);
  const seenRegion = new Set<number>();
  setCrates(goals, 1);
  for (let i = 0; i < n; i++) {
    if (level.kind[i] === 'wall' || goalSet.has(i)) continue;
    const r = pusherRegion(level, i, crateAt, seen, stack, ++stamp);
    if (seenRegion.has(r)) continue;
    seenRegion.add(r);
    const s = { crates: goals, pusher: r };
    out.set(stateKey(s), 0);
    queue.push(s);
  }
  setCrates(goals, 0);
  for (let head = 0; head < queue.length; head++) {
    const s = queue[head];
    const d0 = out.get(stateKey(s))!;
    setCrates(s.crates, 1);
    const here = ++stamp;
    pusherRegion(level, s.pusher, crateAt, reach, stack, here);
    for (let p = 0; p < n; p++) {
      if (reach[p] !== here) continue;
      for (let d = 0; d < 4; d++) {
        // The pusher at p pulls the crate at c = p + d back onto p, stepping to r = p − d.
        const c = step(level, p, d);
        if (c < 0 || !crateAt[c]) continue;
        const r = step(level, p, opposite(d));
        if (r < 0 || crateAt[r]) continue;
        const crates = s.crates.map((x) => (x === c ? p : x)).sort((a, b) => a - b);
        crateAt[c] = 0;
        crateAt[p] = 1;
        const next = { crates, pusher: pusherRegion(level, r, crateAt, seen, stack, ++stamp) };
        crateAt[p] = 0;
        crateAt[c] = 1;
        const k = stateKey(next);
        if (out.has(k)) continue;
        if (out.size >= maxStates) {
          setCrates(s.crates, 0);
          throw new Error(`P3 pull search: more than ${maxStates} positions`);
        }
        out.set(k, d0 + 1);
        queue.push(next);
      }
    }
    setCrates(s.crates, 0);
  }
  return out;
}

/** The push distance of a position in a {@link pullDistances} table, or -1 when it can no longer be finished. */
export function pushDistance(level: Level, table: Map<string, number>, s: P3State): number {
  const crates = new Set(s.crates);
  const w = walks(level, s.pusher, crates);
  let low = s.pusher;
  for (let i = 0; i < level.kind.length; i++) if (w.dist[i] >= 0 && i < low) low = i;
  return table.get(stateKey({ crates: [...s.crates].sort((a, b) => a - b), pusher: low })) ?? -1;
}

/** Steps as the agent's calls. */
export function stepsToCalls(steps: number[]): ToolCall[] {
  return steps.map((d) => ({ tool: 'move', args: { direction: DIRS[d] } }));
}

/** The reference: fewest pushes, then fewest steps, proven by A*, with the number of such step sequences. */
export function reference(instance: Instance<P3Scene>): ReferenceSolution {
  const r = solveScene(instance.scene);
  if (!r.solvable) throw new Error(`P3 instance ${instance.id} has no solution`);
  return {
    calls: stepsToCalls(r.steps),
    optimal: true,
    method: `${r.method} over ${r.statesSearched} positions (pushes, then steps; dead squares pruned); optimum ${r.pushes} pushes, ${r.moves} steps; ${r.solutions} optimal step sequence${r.solutions === 1 ? '' : 's'}`,
  };
}

/**
 * The search's own word on the instance (`TaskFamily.shortestSolutions`): in the family's
 * metric (fewest pushes, then fewest steps) the steps of an optimal solution and the number
 * of optimal step sequences; `verify` checks the reference against it.
 */
export function shortestSolutions(instance: Instance<P3Scene>): ShortestSolutions | null {
  const r = solveScene(instance.scene);
  return r.solvable ? { length: r.moves, count: r.solutions } : null;
}
