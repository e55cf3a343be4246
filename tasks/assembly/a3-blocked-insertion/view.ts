/**
 * How much of each piece that starts in the box the first view shows, estimated by sight lines
 * so the generator can re-draw a scene whose picture would hide one (a flat piece lying under
 * another shows only the strip of its front cube above the dark rim: A3-L5-s24's brown, 408
 * pixels). Pure geometry on the renderer's own orbit camera (tasks/kits/sight-lines.ts), so
 * generation stays a pure function of (family, tier, seed); the view rule still judges the
 * rendered picture.
 */
import { cameraFrame } from '../../../render/camera-frame.ts';
import type { CameraSpec } from '../../../render/camera-spec.ts';
import type { Vec3 } from '../../../sim/types.ts';
import type { Cell } from '../../../solvers/polycube.ts';
import { cellKey } from '../../kits/polycube-pieces/cells.ts';
import { CELL } from '../../kits/polycube-pieces/pieces.ts';
import { screenPoint, unseenPoints, type SightBox, type SightPoint } from '../../kits/sight-lines.ts';
import { homeCells } from './order.ts';
import { boxTop, cellCentre, FLOOR_TOP, FRONT_RIM, WALL, type A3Scene } from './scene.ts';

/** Fewest pixels the view rule asks of a piece that starts in the box (`viewParts` in episode.ts). */
export const START_PIECE_MIN_PIXELS = 800;

/**
 * Fewest pixels the generator's estimate must give each piece that starts in the box. Over the
 * 864 such pieces of seeds 0–99 and the battery's training seeds (every tier) the rendered count
 * was 0.89 to 1.85 times the estimate, so 1,000 keeps about 890 drawn: a margin over
 * {@link START_PIECE_MIN_PIXELS} that covers the estimate's error, not a bar of its own.
 */
export const START_PIECE_SEEN_ESTIMATE = 1000;

/** Lattice points per side of a cube face that the estimate samples (a 5×5 lattice, at cell centres of the face). */
const FACE_LATTICE = 5;

/**
 * The faces of a cube that can face the first camera (from the front and above): top, front,
 * left and right, each as its outward normal in grid axes (`i` right, `j` up, `k` towards the
 * camera).
 */
const FACES: readonly Cell[] = [
  [0, 1, 0],
  [0, 0, 1],
  [-1, 0, 0],
  [1, 0, 0],
];

/** The box's walls and front rim as sight boxes: what hides the pieces' lower faces. */
function boxWalls(scene: A3Scene): SightBox[] {
  const w = (scene.box.cols * CELL) / 2;
  const d = (scene.box.rows * CELL) / 2;
  const top = boxTop(scene.box);
  const rimTop = FLOOR_TOP + FRONT_RIM;
  return [
    { center: [0, rimTop / 2, d + WALL / 2], half: [w + WALL, rimTop / 2, WALL / 2] },
    { center: [-w - WALL / 2, top / 2, 0], half: [WALL / 2, top / 2, d] },
    { center: [w + WALL / 2, top / 2, 0], half: [WALL / 2, top / 2, d] },
    { center: [0, top / 2, -d - WALL / 2], half: [w + WALL, top / 2, WALL / 2] },
  ];
}

/** Area of a convex quad on screen, in square picture heights (zero when a corner is behind the camera). */
function quadArea(camera: CameraSpec, corners: readonly Vec3[]): number {
  const pts = corners.map((c) => screenPoint(camera, c));
  if (pts.some((p) => !p)) return 0;
  let area = 0;
  for (let i = 0; i < pts.length; i++) {
    const [a, b] = [pts[i]!, pts[(i + 1) % pts.length]!];
    area += a[0] * b[1] - b[0] * a[1];
  }
  return Math.abs(area) / 2;
}

/**
 * About how many pixels of each piece that starts in the box a square picture `pictureHeight`
 * pixels high shows from `camera` (null for a piece on the table): per cube face that can face
 * the camera and touches no other cube or wall, its area on screen times the share of a lattice
 * on it that no cube of the box's pieces (its own piece's other cubes included, so a pixel is
 * counted once) and no wall of the box hides.
 */
export function startPiecesSeenPixels(scene: A3Scene, camera: CameraSpec, pictureHeight = 768): Array<number | null> {
  const home = homeCells(scene);
  const occupied = new Map<string, number>();
  home.forEach((cells, p) => cells?.forEach((c) => occupied.set(cellKey(c), p)));
  // Every cube in the box, then the walls: a face's own cube is left out of its occluders.
  const cubes: Array<{ cell: Cell; box: SightBox }> = [];
  home.forEach((cells) => cells?.forEach((c) => cubes.push({ cell: c, box: { center: cellCentre(scene.box, c), half: [CELL / 2, CELL / 2, CELL / 2] } })));
  const walls = boxWalls(scene);
  const eye = cameraFrame(camera).position;
  const boxes = [...cubes.map((c) => c.box), ...walls];
  const inside = (c: readonly number[]): boolean => c[0] >= 0 && c[0] < scene.box.cols && c[1] >= 0 && c[2] >= 0 && c[2] < scene.box.rows;
  return home.map((cells) => {
    if (!cells) return null;
    let pixels = 0;
    for (const c of cells) {
      const own = cubes.findIndex((q) => cellKey(q.cell) === cellKey(c));
      const centre = cellCentre(scene.box, c);
      for (const n of FACES) {
        const next = [c[0] + n[0], c[1] + n[1], c[2] + n[2]];
        // A face against another cube shows nothing; one against a side wall neither (the
        // front and the top are open: the rim is low and the box has no lid).
        if (occupied.has(cellKey(next))) continue;
        if (n[1] === 0 && n[2] === 0 && !inside(next)) continue;
        // Two axes spanning the face, and its corners and lattice just outside it.
        const axes = [0, 1, 2].filter((a) => n[a] === 0);
        const at = (u: number, v: number, out: number): Vec3 =>
          [0, 1, 2].map((a) => centre[a] + (n[a] * (CELL / 2 + out)) + (a === axes[0] ? u : a === axes[1] ? v : 0) * CELL) as Vec3;
        // A face turned away from the camera shows nothing.
        const faceCentre = at(0, 0, 0);
        if ((eye[0] - faceCentre[0]) * n[0] + (eye[1] - faceCentre[1]) * n[1] + (eye[2] - faceCentre[2]) * n[2] <= 0) continue;
        const area = quadArea(camera, [at(-0.5, -0.5, 0), at(0.5, -0.5, 0), at(0.5, 0.5, 0), at(-0.5, 0.5, 0)]);
        if (area === 0) continue;
        const lattice: SightPoint[] = [];
        for (let a = 0; a < FACE_LATTICE; a++) {
          for (let b = 0; b < FACE_LATTICE; b++) {
            lattice.push({ point: at((a + 0.5) / FACE_LATTICE - 0.5, (b + 0.5) / FACE_LATTICE - 0.5, 1e-4), what: 'face', own: [own] });
          }
        }
        const seen = lattice.length - unseenPoints(camera, lattice, boxes).length;
        pixels += area * pictureHeight * pictureHeight * (seen / lattice.length);
      }
    }
    return pixels;
  });
}
