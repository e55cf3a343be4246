/**
 * V2 reference solver: exhaustive breadth-first search over the block's cells — exact
 * distances from every cell to the goal, a shortest plan, and how many shortest plans exist — so
 * the reference is proven optimal and, where it matters, certified unique.
 */
import { SpaceActError } from '../../../core/errors.ts';
import type { Instance, ReferenceSolution } from '../../types.ts';
import { DIRECTIONS, type V2Scene, type Cell, type Direction, type Grid } from './scene.ts';

function key(c: Cell, size: number): number {
  return c.row * size + c.col;
}

/** The cell one slide away, or null when it is off the board or an obstacle. */
export function step(grid: Grid, c: Cell, d: Direction): Cell | null {
  const n = { col: c.col + DIRECTIONS[d].col, row: c.row + DIRECTIONS[d].row };
  if (n.col < 0 || n.row < 0 || n.col >= grid.size || n.row >= grid.size) return null;
  if (grid.obstacles.some((o) => o.col === n.col && o.row === n.row)) return null;
  return n;
}

/** Slides from every cell to `goal` (-1 where the goal cannot be reached). */
export function distancesTo(grid: Grid, goal: Cell): Int32Array {
  const dist = new Int32Array(grid.size * grid.size).fill(-1);
  const queue: Cell[] = [goal];
  dist[key(goal, grid.size)] = 0;
  for (let head = 0; head < queue.length; head++) {
    const c = queue[head];
    for (const d of Object.keys(DIRECTIONS) as Direction[]) {
      const n = step(grid, c, d);
      if (n && dist[key(n, grid.size)] < 0) {
        dist[key(n, grid.size)] = dist[key(c, grid.size)] + 1;
        queue.push(n);
      }
    }
  }
  return dist;
}

/** Distance of one cell in a table from {@link distancesTo}. */
export function distanceOf(dist: Int32Array, grid: Grid, c: Cell): number {
  return dist[key(c, grid.size)];
}

/** A shortest plan from `start` to `goal` (first direction in table order at each step) and the number of shortest plans. */
export function solve(grid: Grid, start: Cell, goal: Cell): { plan: Direction[]; length: number; shortestPlans: number } {
  const dist = distancesTo(grid, goal);
  const length = distanceOf(dist, grid, start);
  if (length < 0) throw new SpaceActError('invalid-state', 'the goal cannot be reached from the start');
  const plan: Direction[] = [];
  let c = start;
  while (distanceOf(dist, grid, c) > 0) {
    const here = distanceOf(dist, grid, c);
    const d = (Object.keys(DIRECTIONS) as Direction[]).find((x) => {
      const n = step(grid, c, x);
      return n !== null && distanceOf(dist, grid, n) === here - 1;
    })!;
    plan.push(d);
    c = step(grid, c, d)!;
  }
  const memo = new Map<number, number>();
  const count = (c: Cell): number => {
    const d = distanceOf(dist, grid, c);
    if (d === 0) return 1;
    const k = key(c, grid.size);
    const hit = memo.get(k);
    if (hit !== undefined) return hit;
    let total = 0;
    for (const x of Object.keys(DIRECTIONS) as Direction[]) {
      const n = step(grid, c, x);
      if (n && distanceOf(dist, grid, n) === d - 1) total += count(n);
    }
    memo.set(k, total);
    return total;
  };
  return { plan, length, shortestPlans: count(start) };
}

/** The reference: a shortest plan, proven optimal by the search (unique when only one shortest plan exists). */
export function reference(instance: Instance<V2Scene>): ReferenceSolution {
  const { grid, start, goal } = instance.scene;
  const sol = solve(grid, start, goal);
  return {
    calls: sol.plan.map((direction) => ({ tool: 'slide', args: { direction } })),
    optimal: true,
    unique: sol.shortestPlans === 1,
    method: `breadth-first search over all ${grid.size * grid.size - grid.obstacles.length} cells; shortest = ${sol.length} slides (${sol.shortestPlans} shortest plan${sol.shortestPlans === 1 ? '' : 's'})`,
  };
}
