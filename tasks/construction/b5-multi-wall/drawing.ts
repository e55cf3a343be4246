/**
 * The target sheet: one panel per view of the tier, side by side under their labels, each drawn
 * by the real renderer under an orthographic camera at the structure's true scale. A panel shows
 * the baseplate (edge-on as a grey strip in the front and side views, whole from above) and the
 * target — the pixels of that view as one flat card (`target-shape`), so faces meet without a
 * seam. Silhouette tiers fill the card in colour and lay a thin grid over it, a line at every
 * stud and at every brick's height, so stud and brick counts can be read off; the blueprint tier
 * (L7, +blueprint) draws the same two bodies only as a line drawing (the renderer's `lines`
 * view, as A5's blueprint is drawn) with two dimension lines — the baseplate's width and the
 * target's height — and no grid, no colour.
 */
import { composeRow } from '../../../render/compose.ts';
import type { CameraSpec } from '../../../render/camera-spec.ts';
import type { DimensionSpec, Renderer } from '../../../render/renderer.ts';
import type { SceneBody, SceneDescription, ShapeSpec, Vec3 } from '../../../sim/types.ts';
import { round9 } from '../../../core/determinism.ts';
import type { ViewDeclaration } from '../../types.ts';
import { PITCH, PLATE } from '../../kits/bricks/catalog.ts';
import { BASE_PLATES, BRICK_H, MAX_LAYERS, type B5Scene, type ViewName } from './scene.ts';

/** Side of one panel, pixels. */
export const PANEL = 400;
/** Height of the label bar over each panel, pixels. */
const LABEL_BAR = 34;
/** Visible height of every panel, m: the baseplate's width with room for dimension lines. */
export const ORTHO_HEIGHT = 0.11;
/** Thickness of the flat card, m. */
const CARD = 0.0006;
/** Half width of a grid line, m. */
const GRID_HALF = 0.00018;
/** How far a dimension line stands off, m. */
const DIM_OFFSET = 0.008;
const COLORS = { plate: '#95a5a6', shape: '#c0392b', grid: '#2c3e50', ink: '#8c9db3' };
const IDENTITY = [0, 0, 0, 1] as [number, number, number, number];

/** What each panel is called on the sheet (the side it is seen from, and which way the front lies). */
export const VIEW_LABELS: Record<ViewName, string> = { front: 'Front (from +z)', right: 'Right side (from +x; front on the left)', top: 'Top (front at the bottom)' };

function box(centre: Vec3, half: Vec3): ShapeSpec {
  return { type: 'box', half: half.map(round9) as Vec3, pose: { p: centre.map(round9) as Vec3, q: IDENTITY } };
}

function body(name: string, shapes: ShapeSpec[], color: string): SceneBody {
  return { name, shapes: shapes.slice(0, 1), ...(shapes.length > 1 ? { visual: shapes.slice(1) } : {}), pose: { p: [0, 0, 0], q: IDENTITY }, color, opacity: 1, visible: true };
}

/**
 * The scene of one panel, in the plan frame (x along cols, y up from the baseplate's top, z along
 * rows; m): the baseplate, the target card just in front of the plane the camera looks at, and
 * (silhouette tiers) the grid.
 */
export function panelScene(s: Pick<B5Scene, 'plate' | 'targets' | 'drawing'>, v: ViewName): SceneDescription {
  const W = s.plate * PITCH;
  const T = BASE_PLATES * PLATE;
  const H = MAX_LAYERS * BRICK_H;
  const pixels = s.targets[v] ?? [];
  const bodies: SceneBody[] = [];
  const grid: ShapeSpec[] = [];
  if (v === 'top') {
    bodies.push(body('target-plate', [box([W / 2, -T / 2, W / 2], [W / 2, T / 2, W / 2])], COLORS.plate));
    const card = pixels.map(([c, r]) => box([(c + 0.5) * PITCH, CARD / 2, (r + 0.5) * PITCH], [PITCH / 2, CARD / 2, PITCH / 2]));
    bodies.push(body('target-shape', card, s.drawing === 'lines' ? COLORS.ink : COLORS.shape));
    for (let i = 0; i <= s.plate; i++) {
      grid.push(box([i * PITCH, CARD + 0.0002, W / 2], [GRID_HALF, 0.0001, W / 2]));
      grid.push(box([W / 2, CARD + 0.0002, i * PITCH], [W / 2, 0.0001, GRID_HALF]));
    }
  } else {
    // Front: the card in the plane z = W (the baseplate's front edge); right side: in x = W.
    const front = v === 'front';
    const at = (u: number, y: number, depth: number): Vec3 => (front ? [u, y, depth] : [depth, y, u]);
    const half = (hu: number, hy: number, hd: number): Vec3 => (front ? [hu, hy, hd] : [hd, hy, hu]);
    bodies.push(body('target-plate', [box(at(W / 2, -T / 2, W / 2), half(W / 2, T / 2, W / 2))], COLORS.plate));
    const card = pixels.map(([u, l]) => box(at((u + 0.5) * PITCH, (l + 0.5) * BRICK_H, W + CARD / 2), half(PITCH / 2, BRICK_H / 2, CARD / 2)));
    bodies.push(body('target-shape', card, s.drawing === 'lines' ? COLORS.ink : COLORS.shape));
    const d = W + CARD + 0.0002;
    for (let i = 0; i <= s.plate; i++) grid.push(box(at(i * PITCH, (H - T) / 2, d), half(GRID_HALF, (H + T) / 2, 0.0001)));
    for (let l = 0; l <= MAX_LAYERS; l++) grid.push(box(at(W / 2, l * BRICK_H, d), half(W / 2, GRID_HALF, 0.0001)));
  }
  if (s.drawing === 'silhouette') bodies.push(body('target-grid', grid, COLORS.grid));
  return { bodies, rulers: [], background: '#ffffff' };
}

/** The orthographic camera of one panel, centred on the baseplate and the tallest target a tier draws. */
export function panelCamera(s: Pick<B5Scene, 'plate'>, v: ViewName): CameraSpec {
  const W = s.plate * PITCH;
  const midY = round9((MAX_LAYERS * BRICK_H - BASE_PLATES * PLATE) / 2 - 0.004);
  const angles = { front: [0, 0], right: [90, 0], top: [0, 90] } as const;
  const target: Vec3 = v === 'top' ? [round9(W / 2), 0, round9(W / 2)] : [round9(W / 2), midY, round9(W / 2)];
  return { azimuth: angles[v][0], elevation: angles[v][1], distance: 1, target, projection: 'orthographic', orthoHeight: ORTHO_HEIGHT };
}

/** The blueprint's dimension lines of one panel: the baseplate's width under it, the target's height (front, side) or depth (top) beside it. */
export function panelDimensions(s: Pick<B5Scene, 'plate' | 'targets'>, v: ViewName): DimensionSpec[] {
  const W = round9(s.plate * PITCH);
  const T = round9(BASE_PLATES * PLATE);
  const o = DIM_OFFSET;
  const pixels = s.targets[v] ?? [];
  if (v === 'top') {
    return [
      { from: [0, 0, W], to: [W, 0, W], offset: [0, 0, o] },
      { from: [0, 0, 0], to: [0, 0, W], offset: [-o, 0, 0] },
    ];
  }
  const H = round9((Math.max(...pixels.map((p) => p[1])) + 1) * BRICK_H);
  if (v === 'front') {
    return [
      { from: [0, -T, W], to: [W, -T, W], offset: [0, -o, 0] },
      { from: [0, 0, W], to: [0, H, W], offset: [-o, 0, 0] },
    ];
  }
  // Seen from +x the front (z = W) is on the left.
  return [
    { from: [W, -T, W], to: [W, -T, 0], offset: [0, -o, 0] },
    { from: [W, 0, W], to: [W, H, W], offset: [0, 0, o] },
  ];
}

/** The target sheet: one labelled panel per view of the tier, side by side. */
export async function targetSheet(renderer: Renderer, s: B5Scene): Promise<Buffer> {
  const panels: Buffer[] = [];
  for (const v of s.views) {
    const scene = panelScene(s, v);
    const camera = panelCamera(s, v);
    panels.push(
      s.drawing === 'lines'
        ? await renderer.render(scene, camera, { view: 'lines', width: PANEL, height: PANEL, dimensions: panelDimensions(s, v) })
        : await renderer.render(scene, camera, { width: PANEL, height: PANEL }),
    );
  }
  return composeRow(panels, { labels: s.views.map((v) => VIEW_LABELS[v]), labelHeight: LABEL_BAR, separator: 6 });
}

/** The view rule's declaration of every panel: the baseplate and the target whole and large enough to read. */
export function targetViewParts(s: B5Scene): ViewDeclaration[] {
  return s.views.map((v) => ({
    label: `target sheet: ${v} view`,
    scene: panelScene(s, v),
    camera: panelCamera(s, v),
    width: PANEL,
    height: PANEL,
    bodies: [
      { name: 'target-plate', minPixels: 2000 },
      // One pixel of a view (a stud by a brick) is about 35 × 42 px at this scale.
      { name: 'target-shape', minPixels: 800 },
    ],
    ...(s.drawing === 'silhouette' ? { scenery: ['target-grid'] } : {}),
  }));
}
