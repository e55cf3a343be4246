/**
 * B6 shortcut filters and sightless strategies. The generator re-draws until the target means
 * something ({@link sceneProblem}): the scene fits on the mat; the target's shadows stay inside
 * the board but for its edge toward the baseplate; the target covers enough of the board; the
 * reference's shadow (studs included) clears the threshold by {@link REFERENCE_MARGIN}; and
 * every near miss — any one column one piece lower, moved one stud along either grid axis, or
 * left out — falls under the threshold. See README.md for the shortcuts considered.
 */
import type { SightlessStrategy } from '../../sightless.ts';
import type { InstanceFilter } from '../../types.ts';
import { probeThenBuild } from '../../kits/bricks/probe-then-build.ts';
import { footprint, type Placement } from '../../kits/bricks/plan.ts';
import {
  baseplateCorners,
  BOARD_TOP,
  convexHull,
  insideConvex,
  landOnBaseplate,
  partShadows,
  planIoU,
  POST_MIN_X,
  postShadow,
  rasterArea,
  rasterOnBoard,
  SITE_MARGIN,
  SITE_MARGIN_BACK,
  targetPolygons,
  type B6Scene,
  type P2,
} from './scene.ts';

/** The reference's IoU must reach the threshold plus this. */
export const REFERENCE_MARGIN = 0.05;
/** Least area of the target on the board, m². */
export const MIN_TARGET_AREA = 0.0005;
/** The target's shadows keep this far inside the board's far and side edges, m. */
export const BOARD_INSET = 0.003;

/** The columns of a plan: placements grouped by footprint, in order. */
export function columnsOf(plan: readonly Placement[]): Placement[][] {
  const out = new Map<string, Placement[]>();
  for (const p of plan) {
    const key = `${p.col},${p.row},${p.rot},${footprint(p).join('x')}`;
    if (!out.has(key)) out.set(key, []);
    out.get(key)!.push(p);
  }
  return [...out.values()];
}

/** The near misses of a plan: each column one piece lower, moved one stud each way along the grid, or left out. */
export function nearMisses(s: Pick<B6Scene, 'plate'>, plan: readonly Placement[]): Array<{ what: string; plan: Placement[] }> {
  const cols = columnsOf(plan);
  const out: Array<{ what: string; plan: Placement[] }> = [];
  cols.forEach((col, i) => {
    const others = cols.filter((_, j) => j !== i).flat();
    out.push({ what: `column ${i + 1} left out`, plan: others });
    if (col.length > 1) out.push({ what: `column ${i + 1} one piece lower`, plan: [...others, ...col.slice(0, -1)] });
    const [fc, fr] = footprint(col[0]);
    for (const [dc, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]] as const) {
      const c = col[0].col + dc;
      const r = col[0].row + dr;
      if (c < 0 || r < 0 || c + fc > s.plate || r + fr > s.plate) continue;
      out.push({ what: `column ${i + 1} moved (${dc}, ${dr})`, plan: [...others, ...col.map((p) => ({ ...p, col: c, row: r }))] });
    }
  });
  return out;
}

/** Why a scene is not a fair, meaningful instance, or null. */
export function sceneProblem(s: B6Scene): string | null {
  // On the mat.
  const [bx0, bx1, bz0, bz1] = s.board;
  const corners = baseplateCorners(s);
  const minX = Math.min(...corners.map((c) => c[0]), s.post[0] - 0.01);
  const minZ = Math.min(...corners.map((c) => c[1]), bz0);
  const post = postShadow(s);
  const maxZ = Math.max(...post.map((p) => p[1]), bz1);
  if (minX < SITE_MARGIN - 1e-9 || bx1 > s.mat[0] - SITE_MARGIN + 1e-9 || minZ < SITE_MARGIN_BACK - 1e-9 || maxZ > s.mat[1] - SITE_MARGIN + 1e-9) return 'the scene does not fit on the mat';
  if (Math.max(...post.map((p) => p[0])) > s.mat[0] - SITE_MARGIN) return "the post's shadow runs off the mat";
  if (s.post[0] < POST_MIN_X - 1e-9) return "the post's ruler would crowd the mat's";
  // The post's shadow stays off the board and the baseplate.
  const hull = convexHull(corners);
  if (post.some((p) => insideConvex(hull, p)) || post.some((p) => p[1] < bz1 + 0.005)) return "the post's shadow reaches the board or the baseplate";
  if (s.target.length === 0) return 'no target structure';
  const parts = landOnBaseplate(s, s.target);
  if (!parts) return 'the target structure does not land';
  // The target's shadows inside the board but for its near edge.
  for (const poly of partShadows(s, parts, false)) {
    for (const [x, z] of poly as P2[]) {
      if (x > bx1 - BOARD_INSET || z < bz0 + BOARD_INSET || z > bz1 - BOARD_INSET) return 'the target runs off the board';
    }
  }
  const target = rasterOnBoard(s.board, targetPolygons(s));
  if (rasterArea(target.bits) < MIN_TARGET_AREA) return 'the target is too small';
  const ref = planIoU(s, s.target);
  if (ref < s.threshold + REFERENCE_MARGIN) return `the reference reaches only IoU ${ref.toFixed(3)}`;
  for (const miss of nearMisses(s, s.target)) {
    const iou = planIoU(s, miss.plan);
    if (iou >= s.threshold) return `a near miss passes (${miss.what}: IoU ${iou.toFixed(3)})`;
  }
  void BOARD_TOP;
  return null;
}

/** Static checks every instance must pass (re-drawn in the generator, reported by verify). */
export const SHORTCUT_FILTERS: InstanceFilter<B6Scene>[] = [{ name: 'meaningful-target', check: (i) => sceneProblem(i.scene) }];

/** B6's own sightless strategies: the metric prober of the brick kit (finds the baseplate by refused placements, then builds another seed's structure there). */
export const SIGHTLESS: SightlessStrategy[] = [probeThenBuild as SightlessStrategy];
