/**
 * A flat plate with polygonal through-holes, for the M1 chiral peg: convex pieces for the
 * collider and one seamless triangle mesh for the picture.
 *
 * The region (a rectangle minus disjoint hole polygons, in the horizontal `x, z` plane) is cut
 * into vertical slabs at every vertex's `x`. Inside a slab no vertex lies strictly between its
 * sides, so the edges crossing it are straight across and, sorted bottom to top, alternate
 * outside/inside: each inside interval is a trapezoid. Neighbouring slabs' trapezoids bounded by
 * the same two edges merge into one convex piece (a hull prism) for the collider: convex pieces
 * let the swept check stop early when the peg slides parallel to a wall (a triangle mesh cannot).
 * The picture fans each unmerged trapezoid from its centroid with every neighbour's corner on
 * its sides included, and splits the walls at the same places, so the mesh has no T-junction
 * and the renderer draws no seam across a flat face.
 */
import type { ShapeSpec, Vec3 } from '../../../sim/types.ts';
import type { Point2 } from './polyomino.ts';
import { roundTo } from '../../../core/determinism.ts';

/** Vertex `x` values closer than this are merged (metres): no slab is thinner. */
const SNAP = 2e-5;

interface Edge {
  a: Point2;
  b: Point2;
}

interface Trapezoid {
  /** Edge ids below and above. */
  low: number;
  high: number;
  xa: number;
  xb: number;
}

function zAt(e: Edge, x: number): number {
  if (x === e.a[0]) return e.a[1];
  if (x === e.b[0]) return e.b[1];
  return e.a[1] + ((e.b[1] - e.a[1]) * (x - e.a[0])) / (e.b[0] - e.a[0]);
}

/** The plate's geometry: collider pieces and a drawable mesh, both in world coordinates. */
export interface PlateGeometry {
  /** Convex prisms (hull shapes) covering the plate exactly. */
  pieces: ShapeSpec[];
  /** One closed triangle mesh of the whole plate (top, bottom and every wall). */
  mesh: ShapeSpec;
}

/**
 * Builds the plate `[x0, x1] × [z0, z1]` between heights `bottom` and `top`, with the given
 * hole polygons (each a simple polygon strictly inside the rectangle, disjoint from the others).
 */
export function plateGeometry(rect: { x0: number; x1: number; z0: number; z1: number }, holes: Point2[][], bottom: number, top: number): PlateGeometry {
  // Snap x values so that no slab is a sliver (the change is ≤ SNAP, far below any clearance).
  const rawXs = [rect.x0, rect.x1, ...holes.flat().map((p) => roundTo(p[0], 6))].sort((a, b) => a - b);
  const xs: number[] = [];
  for (const x of rawXs) if (!xs.length || x - xs[xs.length - 1] > SNAP) xs.push(x);
  const snap = (x: number): number => {
    let best = xs[0];
    for (const v of xs) if (Math.abs(v - x) < Math.abs(best - x)) best = v;
    return best;
  };
  const loops: Point2[][] = [
    [[rect.x0, rect.z0], [rect.x1, rect.z0], [rect.x1, rect.z1], [rect.x0, rect.z1]],
    ...holes.map((h) => h.map((p): Point2 => [snap(roundTo(p[0], 6)), roundTo(p[1], 6)])),
  ];
  const edges: Edge[] = [];
  for (const loop of loops) for (let i = 0; i < loop.length; i++) edges.push({ a: loop[i], b: loop[(i + 1) % loop.length] });

  // Trapezoids slab by slab.
  const slabs: Trapezoid[][] = [];
  for (let s = 0; s + 1 < xs.length; s++) {
    const xa = xs[s];
    const xb = xs[s + 1];
    const xm = (xa + xb) / 2;
    const crossing = edges
      .map((e, id) => ({ e, id }))
      .filter(({ e }) => Math.min(e.a[0], e.b[0]) <= xa && Math.max(e.a[0], e.b[0]) >= xb)
      .sort((p, q) => zAt(p.e, xm) - zAt(q.e, xm));
    const row: Trapezoid[] = [];
    for (let k = 0; k + 1 < crossing.length; k += 2) row.push({ low: crossing[k].id, high: crossing[k + 1].id, xa, xb });
    slabs.push(row);
  }

  // Collider: merge runs bounded by the same two edges.
  const merged: Trapezoid[] = [];
  let open: Trapezoid[] = [];
  for (const row of slabs) {
    const nextOpen: Trapezoid[] = [];
    for (const t of row) {
      const prev = open.find((o) => o.low === t.low && o.high === t.high && o.xb === t.xa);
      if (prev) {
        prev.xb = t.xb;
        nextOpen.push(prev);
      } else {
        const fresh = { ...t };
        merged.push(fresh);
        nextOpen.push(fresh);
      }
    }
    open = nextOpen;
  }
  const pieces: ShapeSpec[] = merged.map((t) => {
    const lo = edges[t.low];
    const hi = edges[t.high];
    const flat: Point2[] = [[t.xa, zAt(lo, t.xa)], [t.xb, zAt(lo, t.xb)], [t.xb, zAt(hi, t.xb)], [t.xa, zAt(hi, t.xa)]];
    const uniq = flat.filter((p, i) => flat.findIndex((q) => q[0] === p[0] && q[1] === p[1]) === i);
    const points: Vec3[] = [];
    for (const y of [bottom, top]) for (const p of uniq) points.push([p[0], y, p[1]]);
    return { type: 'hull', points };
  });

  // Picture: top and bottom faces from the unmerged trapezoids, then the walls.
  const vertices: Vec3[] = [];
  const indices: [number, number, number][] = [];
  const add = (v: Vec3): number => vertices.push(v) - 1;
  const corners = (row: Trapezoid[] | undefined, side: 'a' | 'b'): number[] =>
    (row ?? []).flatMap((t) => {
      const x = side === 'a' ? t.xa : t.xb;
      return [zAt(edges[t.low], x), zAt(edges[t.high], x)];
    });
  slabs.forEach((row, s) => {
    for (const t of row) {
      const lo = edges[t.low];
      const hi = edges[t.high];
      const la = zAt(lo, t.xa);
      const ha = zAt(hi, t.xa);
      const lb = zAt(lo, t.xb);
      const hb = zAt(hi, t.xb);
      const left = corners(slabs[s - 1], 'b').filter((z) => z > la && z < ha).sort((p, q) => q - p);
      const right = corners(slabs[s + 1], 'a').filter((z) => z > lb && z < hb).sort((p, q) => p - q);
      const ring: Point2[] = [[t.xa, la], [t.xb, lb], ...right.map((z): Point2 => [t.xb, z]), [t.xb, hb], [t.xa, ha], ...left.map((z): Point2 => [t.xa, z])];
      const poly = ring.filter((p, i) => {
        const q = ring[(i + 1) % ring.length];
        return p[0] !== q[0] || p[1] !== q[1];
      });
      const cx = poly.reduce((acc, p) => acc + p[0], 0) / poly.length;
      const cz = poly.reduce((acc, p) => acc + p[1], 0) / poly.length;
      for (const [y, up] of [[top, true], [bottom, false]] as const) {
        const c = add([cx, y, cz]);
        const ids = poly.map((p) => add([p[0], y, p[1]]));
        for (let i = 0; i < ids.length; i++) {
          const j = (i + 1) % ids.length;
          // The ring runs counter-clockwise in (x, z), i.e. clockwise seen from +y.
          indices.push(up ? [c, ids[j], ids[i]] : [c, ids[i], ids[j]]);
        }
      }
    }
  });
  for (const e of edges) {
    const pts: Point2[] = [e.a];
    if (e.a[0] !== e.b[0]) {
      const [x0, x1] = e.a[0] < e.b[0] ? [e.a[0], e.b[0]] : [e.b[0], e.a[0]];
      const inner = xs.filter((x) => x > x0 && x < x1);
      if (e.a[0] > e.b[0]) inner.reverse();
      for (const x of inner) pts.push([x, zAt(e, x)]);
    }
    pts.push(e.b);
    for (let i = 0; i + 1 < pts.length; i++) {
      const p = pts[i];
      const q = pts[i + 1];
      const a0 = add([p[0], bottom, p[1]]);
      const a1 = add([q[0], bottom, q[1]]);
      const b1 = add([q[0], top, q[1]]);
      const b0 = add([p[0], top, p[1]]);
      indices.push([a0, a1, b1], [a0, b1, b0]);
    }
  }
  return { pieces, mesh: { type: 'mesh', vertices, indices } };
}
