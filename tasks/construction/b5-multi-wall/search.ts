/**
 * B5's exact search over brick placements: which cells the views allow, which of them every
 * reading must fill, and the least-brick builds whose projections equal the targets and that
 * can be built by lowering bricks one by one.
 *
 * **Allowed cells.** A cell `[col, row, layer]` of the baseplate's grid may be filled only if it
 * projects onto a target pixel in every view of the tier ({@link allowedCells}); every structure
 * matching the views lies inside this set.
 *
 * **One reading.** Coverage is monotone, so the filled cells are the same for every matching
 * structure exactly when every allowed cell is the only allowed cell behind some pixel of some
 * view ({@link cellsDetermined}): then every structure must contain all of them, and the set
 * itself matches.
 *
 * **Least bricks** ({@link leastBrickBuilds}): depth-first search with iterative deepening on the
 * number of bricks. A node is a set of non-overlapping placements inside the allowed cells; its
 * open requirements are the target pixels no placement covers yet and, for each placement above
 * layer 0, "some cell under its footprint one layer down is filled" (so that lowered bottom-up
 * it lands where it is planned). The search branches on the requirement with the fewest
 * placements that could meet it, within the supply's counts, and prunes by a lower bound
 * (per layer, the uncovered pixels of a view over the longest brick's length; the top view's
 * uncovered pixels likewise). The first depth with a build is the least number of bricks.
 */
import { brickType, type SupplyItem } from '../../kits/bricks/catalog.ts';
import type { Placement } from '../../kits/bricks/plan.ts';
import { MAX_LAYERS, pixelKey, project, type Cell, type TargetViews, type ViewName } from './scene.ts';

/** A placement of the search with the cells it fills and the pixels it covers. */
interface Candidate {
  placement: Placement;
  layer: number;
  cells: number[];
  /** Pixel ids it covers (every view). */
  pixels: number[];
  /** Cells one layer down under its footprint that are allowed (support), as ids; empty at layer 0. */
  under: number[];
  /** Index in the supply. */
  typeIndex: number;
  /** Cells along the brick's length (for the bound). */
  length: number;
}

/** A build found by the search: placements, bottom layer first, with each one's brick layer. */
export interface Build {
  placements: Array<Placement & { layer: number }>;
}

/** The allowed cells of a target: every cell of the plate whose projection is a target pixel in every view. */
export function allowedCells(plate: number, targets: TargetViews, views: readonly ViewName[], layers = MAX_LAYERS): Cell[] {
  const sets = views.map((v) => ({ v, keys: new Set((targets[v] ?? []).map(pixelKey)) }));
  const out: Cell[] = [];
  for (let l = 0; l < layers; l++) {
    for (let r = 0; r < plate; r++) {
      for (let c = 0; c < plate; c++) {
        const cell: Cell = [c, r, l];
        if (sets.every(({ v, keys }) => keys.has(pixelKey(project(cell, v))))) out.push(cell);
      }
    }
  }
  return out;
}

/**
 * True when the views fix the filled cells: every allowed cell is the only allowed cell behind
 * some pixel of some view (see the module comment), and the allowed cells cover every pixel.
 */
export function cellsDetermined(plate: number, targets: TargetViews, views: readonly ViewName[]): boolean {
  const cells = allowedCells(plate, targets, views);
  for (const v of views) {
    const behind = new Map<string, number>();
    for (const c of cells) behind.set(pixelKey(project(c, v)), (behind.get(pixelKey(project(c, v))) ?? 0) + 1);
    if ((targets[v] ?? []).some((p) => !behind.has(pixelKey(p)))) return false;
  }
  const counts = views.map((v) => {
    const m = new Map<string, number>();
    for (const c of cells) m.set(pixelKey(project(c, v)), (m.get(pixelKey(project(c, v))) ?? 0) + 1);
    return m;
  });
  return cells.every((c) => views.some((v, i) => counts[i].get(pixelKey(project(c, v))) === 1));
}

/** Options of {@link leastBrickBuilds}. */
export interface SearchOptions {
  /** Stop after this many search nodes (the result says it gave up). */
  nodeCap?: number;
  /** Largest number of bricks to try. */
  maxBricks?: number;
  /** Called with each least build found, in search order; return true to accept it and stop. */
  accept?: (b: Build) => boolean;
}

/** What the search found. */
export interface SearchResult {
  /** The accepted least build, or null. */
  build: Build | null;
  /** The least number of bricks of any build (null: none within `maxBricks`, or gave up). */
  least: number | null;
  /** Search nodes visited. */
  nodes: number;
  /** The node cap was reached before the search finished. */
  gaveUp: boolean;
}

/**
 * Least-brick builds of `targets` from `supply` on a plate of `plate` studs (see the module
 * comment). `accept` may reject a build (e.g. one whose statics fail): the search then goes on
 * at the same depth, and deepens only when no build of that depth is accepted.
 */
export function leastBrickBuilds(plate: number, targets: TargetViews, views: readonly ViewName[], supply: readonly SupplyItem[], opts: SearchOptions = {}): SearchResult {
  const nodeCap = opts.nodeCap ?? 4_000;
  const maxBricks = opts.maxBricks ?? 40;
  const L = MAX_LAYERS;
  const cellId = (c: number, r: number, l: number): number => (l * plate + r) * plate + c;
  const allowed = new Uint8Array(plate * plate * L);
  for (const [c, r, l] of allowedCells(plate, targets, views)) allowed[cellId(c, r, l)] = 1;
  // Pixels: one id per target pixel of every view.
  const pixelIds = new Map<string, number>();
  const pixelLayer: number[] = [];
  const pixelView: number[] = [];
  views.forEach((v, vi) => {
    for (const p of targets[v] ?? []) {
      pixelIds.set(`${v}:${pixelKey(p)}`, pixelLayer.length);
      pixelLayer.push(v === 'top' ? -1 : p[1]);
      pixelView.push(vi);
    }
  });
  const nPixels = pixelLayer.length;
  // Candidates: every supply type, both turns, every position whose cells are all allowed.
  const cands: Candidate[] = [];
  supply.forEach((item, typeIndex) => {
    const t = brickType(item.type);
    for (const rot of [0, 90] as const) {
      if (rot === 90 && t.length === t.width) continue;
      const span: [number, number] = rot === 0 ? [t.length, t.width] : [t.width, t.length];
      for (let l = 0; l < L; l++) {
        for (let r = 0; r + span[1] <= plate; r++) {
          for (let c = 0; c + span[0] <= plate; c++) {
            const cells: number[] = [];
            const under: number[] = [];
            const pix = new Set<number>();
            let ok = true;
            for (let i = 0; i < span[0] && ok; i++) {
              for (let j = 0; j < span[1] && ok; j++) {
                const id = cellId(c + i, r + j, l);
                if (!allowed[id]) ok = false;
                else {
                  cells.push(id);
                  if (l > 0 && allowed[cellId(c + i, r + j, l - 1)]) under.push(cellId(c + i, r + j, l - 1));
                  views.forEach((v) => pix.add(pixelIds.get(`${v}:${pixelKey(project([c + i, r + j, l], v))}`)!));
                }
              }
            }
            if (!ok || (l > 0 && under.length === 0)) continue;
            cands.push({ placement: { type: t.id, col: c, row: r, rot }, layer: l, cells, pixels: [...pix].sort((a, b) => a - b), under, typeIndex, length: Math.max(span[0], span[1]) });
          }
        }
      }
    }
  });
  const maxLen = Math.max(1, ...cands.map((k) => k.length));
  const byPixel: number[][] = Array.from({ length: nPixels }, () => []);
  cands.forEach((k, i) => k.pixels.forEach((p) => byPixel[p].push(i)));
  const byCell = new Map<number, number[]>();
  cands.forEach((k, i) => k.cells.forEach((id) => (byCell.get(id) ?? byCell.set(id, []).get(id)!).push(i)));

  const filled = new Uint8Array(plate * plate * L);
  const cover = new Int32Array(nPixels);
  const used = new Int32Array(supply.length);
  const chosen: number[] = [];
  let nodes = 0;
  let gaveUp = false;
  let accepted: Build | null = null;

  const fits = (i: number): boolean => {
    const k = cands[i];
    if (used[k.typeIndex] >= supply[k.typeIndex].count) return false;
    for (const id of k.cells) if (filled[id]) return false;
    return true;
  };
  const apply = (i: number, sign: 1 | -1): void => {
    const k = cands[i];
    for (const id of k.cells) filled[id] = sign > 0 ? 1 : 0;
    for (const p of k.pixels) cover[p] += sign;
    used[k.typeIndex] += sign;
    if (sign > 0) chosen.push(i);
    else chosen.pop();
  };
  // Runs: a brick covers contiguous pixels of one run (a maximal row of target pixels at one
  // layer of a front or side view), at most `maxLen` of them.
  const runs: number[][] = [];
  views.forEach((v) => {
    if (v === 'top') return;
    const px = (targets[v] ?? []).map((p) => ({ id: pixelIds.get(`${v}:${pixelKey(p)}`)!, u: p[0], w: p[1] }));
    // Runs along u at each layer w.
    const lines = new Map<number, Array<{ id: number; u: number }>>();
    for (const p of px) (lines.get(p.w) ?? lines.set(p.w, []).get(p.w)!).push({ id: p.id, u: p.u });
    for (const line of lines.values()) {
      line.sort((a, b) => a.u - b.u);
      let cur: number[] = [];
      line.forEach((p, i) => {
        if (i > 0 && p.u !== line[i - 1].u + 1) {
          runs.push(cur);
          cur = [];
        }
        cur.push(p.id);
      });
      if (cur.length) runs.push(cur);
    }
  });
  const runLayer = runs.map((r) => pixelLayer[r[0]]);
  const runView = runs.map((r) => pixelView[r[0]]);
  const lowerBound = (): number => {
    // Per layer, the most any one view needs (bricks at different layers are distinct); the top
    // view's uncovered pixels over the longest brick are a bound of their own.
    const perLayer = new Map<string, number>();
    let top = 0;
    for (let p = 0; p < nPixels; p++) if (cover[p] === 0 && pixelLayer[p] < 0) top++;
    runs.forEach((r, i) => {
      let u = 0;
      for (const p of r) if (cover[p] === 0) u++;
      if (!u) return;
      const k = `${runView[i]}:${runLayer[i]}`;
      perLayer.set(k, (perLayer.get(k) ?? 0) + Math.ceil(u / maxLen));
    });
    const layerMax = new Array<number>(L).fill(0);
    for (const [k, n] of perLayer) {
      const l = Number(k.split(':')[1]);
      layerMax[l] = Math.max(layerMax[l], n);
    }
    return Math.max(layerMax.reduce((a, b) => a + b, 0), Math.ceil(top / maxLen));
  };
  const toBuild = (): Build => ({
    placements: chosen
      .map((i) => ({ ...cands[i].placement, layer: cands[i].layer }))
      .sort((a, b) => a.layer - b.layer || a.row - b.row || a.col - b.col || (a.type < b.type ? -1 : a.type > b.type ? 1 : 0)),
  });

  // Sets of placements already searched without success, with the most bricks they had left:
  // the same set reached in another order need not be searched again.
  const failed = new Map<string, number>();
  /** Depth-first search under `limit` bricks; true once a build is accepted (or the cap is hit). */
  const dfs = (limit: number): boolean => {
    if (++nodes > nodeCap) {
      gaveUp = true;
      return true;
    }
    const key = chosen.slice().sort((a, b) => a - b).join(',');
    const left = limit - chosen.length;
    if ((failed.get(key) ?? -1) >= left) return false;
    const done = expand(limit);
    if (!done) failed.set(key, Math.max(left, failed.get(key) ?? -1));
    return done;
  };
  const expand = (limit: number): boolean => {
    // The open requirement with the fewest options.
    let best: number[] | null = null;
    for (let p = 0; p < nPixels; p++) {
      if (cover[p] > 0) continue;
      const opts = byPixel[p].filter(fits);
      if (!best || opts.length < best.length) best = opts;
      if (best.length === 0) return false;
    }
    for (const i of chosen) {
      const k = cands[i];
      if (k.layer === 0 || k.under.some((id) => filled[id])) continue;
      const opts = [...new Set(k.under.flatMap((id) => byCell.get(id) ?? []))].filter(fits).sort((a, b) => a - b);
      if (!best || opts.length < best.length) best = opts;
      if (best.length === 0) return false;
    }
    if (!best) {
      const b = toBuild();
      if (!opts.accept || opts.accept(b)) {
        accepted = b;
        return true;
      }
      return false;
    }
    if (chosen.length + Math.max(1, lowerBound()) > limit) return false;
    for (const i of best) {
      apply(i, 1);
      const done = dfs(limit);
      apply(i, -1);
      if (done) return true;
    }
    return false;
  };

  for (let limit = Math.max(1, lowerBound()); limit <= maxBricks; limit++) {
    dfs(limit);
    if (gaveUp) return { build: null, least: null, nodes, gaveUp: true };
    if (accepted) return { build: accepted, least: limit, nodes, gaveUp: false };
  }
  return { build: null, least: null, nodes, gaveUp: false };
}

/** The supply items of a build: how many bricks of each type it uses, in catalog-id order. */
export function buildSupply(b: Build): SupplyItem[] {
  const m = new Map<string, number>();
  for (const p of b.placements) m.set(p.type, (m.get(p.type) ?? 0) + 1);
  return [...m].sort((a, b2) => (a[0] < b2[0] ? -1 : 1)).map(([type, count]) => ({ type, count }));
}
