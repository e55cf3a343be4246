import { Rng } from '../../../tasks/rng.ts';
import { boxCells, cellKey, type BoxDims } from '../../../tasks/assembly/a1-occluded-packing/geometry.ts';
import { certify, findPlan } from '../../../tasks/assembly/a1-occluded-packing/solver.ts';
import type { Cell } from '../../../verify/polycube.ts';

function partition(rng: Rng, box: BoxDims, minS: number, maxS: number, nMin: number, nMax: number): Cell[][] | null {
  const cells = boxCells(box);
  const free = new Set(cells.map(cellKey));
  const nb = (c: Cell): Cell[] => [[c[0]+1,c[1],c[2]],[c[0]-1,c[1],c[2]],[c[0],c[1]+1,c[2]],[c[0],c[1]-1,c[2]],[c[0],c[1],c[2]+1],[c[0],c[1],c[2]-1]];
  const pieces: Cell[][] = [];
  while (free.size) {
    const freeCells = cells.filter((c) => free.has(cellKey(c)));
    const deg = (c: Cell) => nb(c).filter((n) => free.has(cellKey(n))).length;
    const minDeg = Math.min(...freeCells.map(deg));
    const start = rng.pick(freeCells.filter((c) => deg(c) === minDeg));
    const remaining = free.size;
    let size = rng.int(minS, maxS);
    if (remaining - size < minS) size = remaining;
    if (size > maxS) return null;
    const piece: Cell[] = [start];
    free.delete(cellKey(start));
    while (piece.length < size) {
      const front = new Map<string, Cell>();
      for (const c of piece) for (const n of nb(c)) if (free.has(cellKey(n))) front.set(cellKey(n), n);
      if (!front.size) break;
      const keys = [...front.keys()].sort();
      const pick = front.get(rng.pick(keys))!;
      free.delete(cellKey(pick));
      piece.push(pick);
    }
    if (piece.length < minS) return null;
    pieces.push(piece);
  }
  if (pieces.length < nMin || pieces.length > nMax) return null;
  return pieces;
}

const configs: Record<string, [BoxDims, number, number, number, number]> = {
  L1: [{ cols: 2, rows: 2, layers: 2 }, 3, 5, 2, 2],
  L3: [{ cols: 3, rows: 2, layers: 2 }, 3, 5, 3, 3],
  L5: [{ cols: 3, rows: 3, layers: 2 }, 3, 5, 4, 5],
  L5b: [{ cols: 3, rows: 3, layers: 3 }, 3, 5, 6, 7],
};
for (const [name, [box, a, b, n0, n1]] of Object.entries(configs)) {
  let parts = 0, uniq = 0, buildable = 0; const depths: number[] = [];
  const t0 = Date.now();
  for (let s = 0; s < 300; s++) {
    const p = partition(new Rng('x' + s + name), box, a, b, n0, n1);
    if (!p) continue;
    parts++;
    const c = certify(p, box);
    if (!c.unique) continue;
    uniq++;
    const plan = findPlan(p, box, c.fillingSubsets);
    if (plan) { buildable++; depths.push(plan.depth); }
  }
  console.log(name, { parts, uniq, buildable, depths: depths.join(''), ms: Date.now() - t0 });
}
