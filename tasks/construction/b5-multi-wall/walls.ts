/**
 * The target structures B5 draws: straight walls one stud thick, each along x or z at a drawn
 * row or column, with a height per cell (a random walk of ±1 brick between the tier's limits)
 * and, from L3, openings — a door or window cell left out with cells above it, so a brick over
 * it must reach across from a neighbour. Walls keep at least one free cell between them (no
 * two walls' cells touch along x or z), so each reads as a wall of its own in the top view.
 */
import type { Rng } from '../../../core/rng.ts';
import type { Cell, TierSettings } from './scene.ts';

/** Draws the walls of a tier on a plate of `plate` studs, or null when they would not fit apart. */
export function drawWalls(rng: Rng, cfg: TierSettings, plate: number): Cell[] | null {
  const n = rng.int(cfg.walls[0], cfg.walls[1]);
  const taken = new Set<string>();
  const near = (c: number, r: number): boolean => {
    for (const [dc, dr] of [[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1]]) if (taken.has(`${c + dc},${r + dr}`)) return true;
    return false;
  };
  const walls: Array<{ along: 'x' | 'z'; foot: Array<[number, number]>; heights: number[] }> = [];
  for (let w = 0; w < n; w++) {
    let placed = false;
    for (let tries = 0; tries < 30 && !placed; tries++) {
      const along: 'x' | 'z' = rng.int(0, 1) === 0 ? 'x' : 'z';
      const len = rng.int(cfg.length[0], cfg.length[1]);
      const fixed = rng.int(0, plate - 1);
      const start = rng.int(0, plate - len);
      const foot: Array<[number, number]> = [];
      for (let i = 0; i < len; i++) foot.push(along === 'x' ? [start + i, fixed] : [fixed, start + i]);
      if (foot.some(([c, r]) => near(c, r))) continue;
      const heights: number[] = [];
      let h = rng.int(cfg.height[0], cfg.height[1]);
      for (let i = 0; i < len; i++) {
        if (i > 0) h = Math.min(cfg.height[1], Math.max(cfg.height[0], h + rng.int(-1, 1)));
        heights.push(h);
      }
      for (const [c, r] of foot) taken.add(`${c},${r}`);
      walls.push({ along, foot, heights });
      placed = true;
    }
    if (!placed) return null;
  }
  const cells: Cell[] = [];
  const gone = new Set<string>();
  // Openings: a cell inside a wall (not at its ends) with at least one cell above it.
  const spots: Array<[number, number, number]> = [];
  for (const w of walls) {
    for (let i = 1; i < w.foot.length - 1; i++) {
      for (let l = 0; l < w.heights[i] - 1; l++) spots.push([w.foot[i][0], w.foot[i][1], l]);
    }
  }
  const openings = Math.min(spots.length, rng.int(cfg.openings[0], cfg.openings[1]));
  for (const s of rng.shuffle(spots).slice(0, openings)) gone.add(s.join(','));
  if (openings < cfg.openings[0]) return null;
  for (const w of walls) {
    w.foot.forEach(([c, r], i) => {
      for (let l = 0; l < w.heights[i]; l++) if (!gone.has(`${c},${r},${l}`)) cells.push([c, r, l]);
    });
  }
  return cells.sort((a, b) => a[2] - b[2] || a[1] - b[1] || a[0] - b[0]);
}
