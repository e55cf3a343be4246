/**
 * P1's adaptive sightless adversary, `probe-and-map` (issue 36): it never looks, and maps the
 * tray from the outcomes of its own slides. For every block in every direction it finds how far
 * the block can slide (a one-cell slide first, most are refused; then binary search over
 * `cells`), undoing every accepted probe; when a refused slide's text names the obstacle (a wall
 * or a block) it keeps that too. It then enumerates every layout of the tier's tray (sizes from
 * the generator's documented ranges) consistent with those outcomes, solves a survivor by
 * breadth-first search toward each goal the generator could have drawn (those whose distance
 * from the start lies in the tier's band first), and plays the plans in turn. A slide of a plan
 * refused means the map was wrong: it maps again from where it stands.
 */
import { breadthFirst } from '../../../solvers/discrete-search/index.ts';
import { DIRECTION_STEP, TRAY_DIRECTIONS, type TrayDirection } from '../../kits/grid-tray.ts';
import { replayProgram, type SightlessProgram } from '../../kits/sightless-replay.ts';
import { slidingProblem, type GridPiece, type SlideMove } from '../../kits/sliding-search.ts';
import type { SightlessResult, SightlessStrategy, SightlessView } from '../../sightless.ts';
import type { Tier, ToolCall } from '../../types.ts';
import { TIER_SPEC } from './generate.ts';

const OPPOSITE: Record<TrayDirection, TrayDirection> = { north: 'south', south: 'north', east: 'west', west: 'east' };

/** One block of a reconstructed layout. */
interface MappedBlock extends GridPiece {
  id: string;
}

/** What the probes found for one block and direction: the free run, and what stops it (a letter, `wall`, or unknown). */
interface Reading {
  gap: number;
  stop: string | null;
}

function slide(block: string, direction: TrayDirection, cells: number): ToolCall {
  return { tool: 'slide', args: { block, direction, cells } };
}

/** What a refused slide's text says stopped it: a block's letter, `wall`, or null when it does not say. */
export function obstacleOf(message: string): string | null {
  const m = /would touch '([^']+)'/.exec(message);
  if (!m) return null;
  if (m[1] === 'tray-walls') return 'wall';
  const b = /^block-([A-Z])(-label)?$/.exec(m[1]);
  return b ? b[1] : null;
}

/**
 * Every layout of `letters` (block `A` 2×2, the others of the tier's shapes) on a cols × rows
 * tray with `empty` empty cells that agrees with the readings, up to `limit` of them. A layout
 * agrees when each block can slide exactly `gap` cells each way and, where the reading names
 * it, the wall or that block is what stops it.
 */
export function consistentLayouts(
  spec: { cols: number; rows: number; empty: number; shapes: Array<[number, number]> },
  letters: string[],
  readings: Map<string, Record<TrayDirection, Reading>>,
  limit = 40,
): MappedBlock[][] {
  const { cols, rows, empty } = spec;
  const shapes = [...new Map(spec.shapes.map((s) => [s.join('x'), s])).values()];
  const UNDECIDED = -2;
  const EMPTY = -1;
  const grid = new Int8Array(cols * rows).fill(UNDECIDED);
  const placed: Array<MappedBlock | null> = letters.map(() => null);
  const index = new Map(letters.map((l, i) => [l, i]));
  const out: MappedBlock[][] = [];
  let nodes = 0;
  let emptyUsed = 0;

  // The cells a block's leading edge covers after n steps (-1 outside the tray), written into
  // one scratch line: this runs at every node of the search (up to 400,000 per call), and a
  // closure and an array per check were most of the prober's time.
  const line = new Int32Array(Math.max(cols, rows));
  const lineAt = (b: MappedBlock, dc: number, dr: number, n: number): number => {
    let len = 0;
    if (dc !== 0) {
      const c = dc > 0 ? b.col + dc * n + b.w - 1 : b.col + dc * n;
      for (let k = 0; k < b.h; k++) line[len++] = c < 0 || c >= cols ? -1 : (b.row + k) * cols + c;
    } else {
      const r0 = b.row + dr * n;
      const rr = dr > 0 ? r0 + b.h - 1 : r0;
      for (let k = 0; k < b.w; k++) line[len++] = rr < 0 || rr >= rows ? -1 : rr * cols + b.col + k;
    }
    return len;
  };

  /** Whether block i's readings can still hold (final: every cell decided). */
  const agrees = (i: number, final: boolean): boolean => {
    const b = placed[i]!;
    const r = readings.get(b.id);
    if (!r) return true;
    for (const d of TRAY_DIRECTIONS) {
      const { gap, stop } = r[d];
      const [dc, dr] = DIRECTION_STEP[d];
      // The cells the block's leading edge passes over in `gap` steps, then the stop line.
      for (let n = 1; n <= gap; n++) {
        const len = lineAt(b, dc, dr, n);
        for (let k = 0; k < len; k++) {
          const c = line[k];
          if (c < 0) return false;
          if (grid[c] >= 0 && grid[c] !== i) return false;
        }
      }
      const len = lineAt(b, dc, dr, gap + 1);
      let wall = false;
      for (let k = 0; k < len; k++) if (line[k] < 0) wall = true;
      if (stop === 'wall' && !wall) return false;
      if (wall) {
        if (stop !== null && stop !== 'wall') return false;
        continue;
      }
      let undecided = false;
      if (stop !== null && stop !== 'wall') {
        const j = index.get(stop);
        if (j === undefined) return false;
        let hit = false;
        for (let k = 0; k < len; k++) {
          const v = grid[line[k]];
          if (v === j) hit = true;
          if (v === UNDECIDED) undecided = true;
        }
        if (!hit && (final || !undecided)) return false;
      } else {
        let other = false;
        for (let k = 0; k < len; k++) {
          const v = grid[line[k]];
          if (v >= 0 && v !== i) other = true;
          if (v === UNDECIDED) undecided = true;
        }
        if (!other && (final || !undecided)) return false;
      }
    }
    return true;
  };
  const allAgree = (final: boolean): boolean => placed.every((b, i) => b === null || agrees(i, final));

  const fill = (from: number): void => {
    if (out.length >= limit || ++nodes > 400_000) return;
    let at = from;
    while (at < grid.length && grid[at] !== UNDECIDED) at++;
    if (at === grid.length) {
      if (placed.every((b) => b !== null) && allAgree(true)) out.push(placed.map((b) => ({ ...b! })));
      return;
    }
    if (emptyUsed < empty) {
      grid[at] = EMPTY;
      emptyUsed++;
      if (allAgree(false)) fill(at + 1);
      emptyUsed--;
      grid[at] = UNDECIDED;
    }
    const col = at % cols;
    const row = (at - col) / cols;
    for (let i = 0; i < letters.length; i++) {
      if (placed[i]) continue;
      const sizes: Array<[number, number]> = letters[i] === 'A' ? [[2, 2]] : shapes;
      for (const [w, h] of sizes) {
        if (col + w > cols || row + h > rows) continue;
        const cells: number[] = [];
        for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) cells.push((row + y) * cols + col + x);
        if (cells.some((c) => grid[c] !== UNDECIDED)) continue;
        for (const c of cells) grid[c] = i;
        placed[i] = { id: letters[i], col, row, w, h };
        if (allAgree(false)) fill(at + 1);
        placed[i] = null;
        for (const c of cells) grid[c] = UNDECIDED;
      }
    }
  };
  fill(0);
  return out;
}

/**
 * The program is replayed from the start every turn, so the enumeration is kept per readings
 * (a handful of entries; the oldest are dropped).
 */
const LAYOUTS = new Map<string, MappedBlock[][]>();

function layoutsOf(tier: Tier, letters: string[], readings: Map<string, Record<TrayDirection, Reading>>): MappedBlock[][] {
  const key = JSON.stringify([tier, letters, [...readings]]);
  let hit = LAYOUTS.get(key);
  if (!hit) {
    hit = consistentLayouts(TIER_SPEC[tier], letters, readings);
    if (LAYOUTS.size >= 64) LAYOUTS.delete(LAYOUTS.keys().next().value!);
    LAYOUTS.set(key, hit);
  }
  return hit;
}

/** A block's cells after a slide (the layout is the mapper's belief, updated as its slides go through). */
function moved(layout: MappedBlock[], letter: string, dir: TrayDirection, cells: number): MappedBlock[] {
  const [dc, dr] = DIRECTION_STEP[dir];
  return layout.map((b) => (b.id === letter ? { ...b, col: b.col + dc * cells, row: b.row + dr * cells } : b));
}

function blockLetters(view: SightlessView): string[] {
  const tool = view.tools.find((t) => t.name === 'slide');
  const props = (tool?.parameters as { properties?: { block?: { enum?: string[] }; cells?: { maximum?: number } } }).properties;
  return props?.block?.enum ?? ['A'];
}

function maxCells(view: SightlessView): number {
  const tool = view.tools.find((t) => t.name === 'slide');
  const props = (tool?.parameters as { properties?: { cells?: { maximum?: number } } }).properties;
  return props?.cells?.maximum ?? 4;
}

/** The program: map, solve toward each candidate goal, play; map again after a surprise. */
function* probeAndMap(view: SightlessView, actionCap: number): SightlessProgram {
  const spec = TIER_SPEC[view.tier as Tier];
  const letters = blockLetters(view);
  const most = maxCells(view);
  for (let round = 0; round < 4; round++) {
    // 1. Map: how far each block slides each way, and what stops it when the text says.
    const readings = new Map<string, Record<TrayDirection, Reading>>();
    for (const letter of letters) {
      const r = {} as Record<TrayDirection, Reading>;
      for (const dir of TRAY_DIRECTIONS) {
        let lo = 0;
        let hi = most;
        let stop: string | null = null;
        while (lo < hi) {
          const k = lo === 0 ? 1 : Math.ceil((lo + hi) / 2);
          const res: SightlessResult[] = yield [slide(letter, dir, k), slide(letter, OPPOSITE[dir], k)];
          if (res[0].status === 'ok') {
            lo = k;
            if (res[1]?.status !== 'ok') return; // the undo failed: give up rather than guess
          } else {
            hi = k - 1;
            if (k === lo + 1) stop = obstacleOf(res[0].message);
          }
        }
        r[dir] = { gap: lo, stop: lo === most ? 'wall' : stop };
      }
      readings.set(letter, r);
    }
    // 2. Reconstruct the layouts that agree, and 3. solve and play toward each candidate goal.
    const layouts = layoutsOf(view.tier as Tier, letters, readings);
    let surprise = false;
    // One layout at a time: a wrong one shows as a refused slide, and the tray is mapped again.
    for (const start of layouts.slice(0, 1)) {
      let layout = start;
      const goals: Array<{ col: number; row: number; length: number }> = [];
      for (let col = 0; col <= spec.cols - 2; col++) {
        const goal = { col, row: spec.rows - 2 };
        const r = breadthFirst(slidingProblem({ cols: spec.cols, rows: spec.rows, blocks: layout, goal }), { maxStates: 200_000 });
        if (r.solvable) goals.push({ ...goal, length: r.length });
      }
      // The generator starts the puzzle in the tier's band of distances from its goal.
      const inBand = (g: { length: number }): boolean => g.length >= spec.band[0] && g.length <= spec.band[1];
      goals.sort((a, b) => Number(inBand(b)) - Number(inBand(a)) || a.length - b.length);
      for (const goal of goals) {
        const r = breadthFirst(slidingProblem({ cols: spec.cols, rows: spec.rows, blocks: layout, goal }), { maxStates: 200_000 });
        if (!r.solvable) continue;
        const moves = r.moves as SlideMove[];
        for (let i = 0; i < moves.length; i += actionCap) {
          const batch = moves.slice(i, i + actionCap);
          const res: SightlessResult[] = yield batch.map((m) => slide(layout[m.block].id, m.dir, m.cells));
          for (let k = 0; k < batch.length; k++) {
            if (res[k]?.status !== 'ok') {
              surprise = true;
              break;
            }
            layout = moved(layout, layout[batch[k].block].id, batch[k].dir, batch[k].cells);
          }
          if (surprise) break;
        }
        // Still running after reaching this goal: it was not the goal; try the next from here.
        if (surprise) break;
      }
      if (surprise) break;
    }
    if (!layouts.length) return;
  }
}

/**
 * `probe-and-map`: the adaptive prober of issue 36 as a P1 sightless strategy (see the file
 * comment). Its bound is the battery's 10 %.
 */
export const PROBE_AND_MAP: SightlessStrategy = {
  name: 'probe-and-map',
  description:
    'Maps the tray without looking: slides every block every way (binary search over cells, undoing each accepted probe, reading any obstacle the text names), enumerates the layouts of the tier that agree, solves one by breadth-first search and tries the goals the generator could have drawn in turn.',
  bound: 0.1,
  next(ctx) {
    return replayProgram(ctx.history, () => probeAndMap(ctx.view, ctx.actionCap));
  },
};
