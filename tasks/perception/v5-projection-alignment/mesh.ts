/**
 * A closed triangle mesh of the extruded solid, for the world body and the depth view: the
 * icon's outline is traced by marching squares on a grid (spacing {@link MESH_SPACING} units)
 * over the smoothed foreground mask; each grid cell's inside part is capped above at
 * z = +h(x, y) and below at z = −h(x, y), and every outline segment gets a wall between the two.
 * Caps are wound counter-clockwise seen from outside, walls face outward.
 */
import type { Vec3 } from '../../../sim/types.ts';
import { canvasPixel, halfDepth, SPHERE_RADIUS, UNIT_M, UNITS_PER_CANVAS_PIXEL, type IconSolid } from './extrusion.ts';
import { ICON_CANVAS } from './icon.ts';

/** Grid spacing of the mesh, units (the rotation seed reconstructs its mesh at 0.75). */
export const MESH_SPACING = 0.5;

/** A triangle mesh in metres. */
export interface SolidMesh {
  vertices: Vec3[];
  indices: [number, number, number][];
}

/** Builds the closed mesh of a solid (metres, object frame). */
export function solidMesh(solid: IconSolid): SolidMesh {
  const size = ICON_CANVAS;
  // Integral image of the foreground, for box averages around each grid node.
  const W = size + 1;
  const integral = new Float64Array(W * W);
  for (let v = 0; v < size; v++) {
    let row = 0;
    for (let u = 0; u < size; u++) {
      row += solid.mask[v * size + u];
      integral[(v + 1) * W + u + 1] = integral[v * W + u + 1] + row;
    }
  }
  const clampPx = (t: number): number => Math.min(size, Math.max(0, Math.round(t)));
  const halfBox = MESH_SPACING / 2 / UNITS_PER_CANVAS_PIXEL;
  const g = MESH_SPACING;
  const n = Math.ceil(SPHERE_RADIUS / g) + 1;
  const side = 2 * n + 1;
  const coord = (i: number): number => (i - n) * g;
  const field = new Float64Array(side * side);
  for (let j = 0; j < side; j++) {
    for (let i = 0; i < side; i++) {
      // Pixel centres sit at integer + 0.5 in the raster; the point mapping uses the integer corner.
      const [pu, pv] = canvasPixel(solid, coord(i), coord(j));
      const u0 = clampPx(pu + 0.5 - halfBox);
      const u1 = clampPx(pu + 0.5 + halfBox);
      const v0 = clampPx(pv + 0.5 - halfBox);
      const v1 = clampPx(pv + 0.5 + halfBox);
      const area = (u1 - u0) * (v1 - v0);
      const sum = integral[v1 * W + u1] - integral[v0 * W + u1] - integral[v1 * W + u0] + integral[v0 * W + u0];
      field[j * side + i] = area > 0 ? sum / area : 0;
    }
  }

  const vertices: Vec3[] = [];
  const indices: [number, number, number][] = [];
  const index = new Map<string, number>();
  const vertex = (x: number, y: number, z: number): number => {
    const key = `${x},${y},${z}`;
    let k = index.get(key);
    if (k === undefined) {
      k = vertices.length;
      vertices.push([x * UNIT_M, y * UNIT_M, z * UNIT_M]);
      index.set(key, k);
    }
    return k;
  };
  const tri = (a: number, b: number, c: number): void => {
    if (a !== b && b !== c && a !== c) indices.push([a, b, c]);
  };

  // Edge crossings are computed from the lower node index to the higher, so both cells that
  // share an edge get bit-identical points and the mesh stays closed.
  const crossing = (a: number, b: number): [number, number] => {
    const [p, q] = a < b ? [a, b] : [b, a];
    const t = (0.5 - field[p]) / (field[q] - field[p]);
    const px = coord(p % side);
    const py = coord(Math.floor(p / side));
    const qx = coord(q % side);
    const qy = coord(Math.floor(q / side));
    return [px + t * (qx - px), py + t * (qy - py)];
  };

  for (let j = 0; j + 1 < side; j++) {
    for (let i = 0; i + 1 < side; i++) {
      // Corners counter-clockwise in the Y-up frame.
      const c = [j * side + i, j * side + i + 1, (j + 1) * side + i + 1, (j + 1) * side + i];
      const ins = c.map((k) => field[k] >= 0.5);
      if (!ins.some(Boolean)) continue;
      const poly: Array<{ x: number; y: number; edge: boolean }> = [];
      for (let k = 0; k < 4; k++) {
        const a = c[k];
        const b = c[(k + 1) % 4];
        if (ins[k]) poly.push({ x: coord(a % side), y: coord(Math.floor(a / side)), edge: false });
        if (ins[k] !== ins[(k + 1) % 4]) {
          const [x, y] = crossing(a, b);
          poly.push({ x, y, edge: true });
        }
      }
      const top = poly.map((p) => vertex(p.x, p.y, halfDepth(p.x, p.y)));
      const bottom = poly.map((p) => vertex(p.x, p.y, -halfDepth(p.x, p.y)));
      for (let k = 1; k + 1 < poly.length; k++) {
        tri(top[0], top[k], top[k + 1]);
        tri(bottom[0], bottom[k + 1], bottom[k]);
      }
      // Walls on outline segments: consecutive crossing points, interior on their left.
      for (let k = 0; k < poly.length; k++) {
        const m = (k + 1) % poly.length;
        if (!poly[k].edge || !poly[m].edge || ins.every(Boolean)) continue;
        tri(bottom[k], bottom[m], top[m]);
        tri(bottom[k], top[m], top[k]);
      }
    }
  }
  return { vertices, indices };
}
