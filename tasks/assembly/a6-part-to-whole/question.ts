/**
 * The question form of A6, as the polycube seed poses it: two views of a target solid and four
 * options of two component solids each; exactly one option can form the target. One problem is
 * shown in the seed's three presentations — one composite image; five images labelled
 * "Image 1" … "Image 5"; the same five labelled "Target", "Option A" … "Option D" — and the
 * answer is `{"option": "A" | "B" | "C" | "D"}` through the `answer` tool.
 *
 * Pictures are drawn by the real renderer: each solid from an oblique orthographic camera, all
 * at one scale that leaves room for the largest solid seen from any side, every solid turned by
 * a seeded cube rotation. Views are re-drawn until every
 * cube of every solid shows at least one face (for the target, in one of its two views), so no
 * option hangs on a cube nobody can see. The five separate images are exactly the panels the
 * composite is assembled from.
 */
import sharp from 'sharp';
import { composeRow } from '../../../render/compose.ts';
import type { Renderer } from '../../../render/renderer.ts';
import type { SceneDescription, ShapeSpec, Vec3 } from '../../../sim/types.ts';
import { normalize, rotate, type Cell } from '../../../solvers/polycube.ts';
import type { Rng } from '../../../core/rng.ts';
import type { ObservationImage, ViewDeclaration } from '../../types.ts';
import type { CameraSpec } from '../../../render/camera-spec.ts';
import { cellKey } from '../../kits/polycube-pieces/cells.ts';
import { CELL, pieceMid } from '../../kits/polycube-pieces/pieces.ts';
import { ROTATIONS } from '../../kits/polycube-pieces/rotations.ts';
import { LETTERS, type Problem } from './problem.ts';
import { type Presentation, type QuestionScene, type SolidView } from './scene.ts';
import { round9 } from '../../../core/determinism.ts';

/** Colours: the target, and the first and second component of every option. */
export const SOLID_COLORS = { target: '#8c9db3', first: '#e8833a', second: '#3b7dd8' } as const;
/** Side of one picture of a solid, pixels. */
export const PANEL = 480;
/** Gap between the two pictures of one image, pixels. */
const PANEL_GAP = 8;

function unit(azimuth: number, elevation: number): Vec3 {
  const az = (azimuth * Math.PI) / 180;
  const el = (elevation * Math.PI) / 180;
  return [Math.cos(el) * Math.sin(az), Math.sin(el), Math.cos(el) * Math.cos(az)];
}

const AXES: Vec3[] = [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]];

/**
 * The cubes of a solid that show some of a face to an orthographic camera at these angles:
 * rays from nine points on each outer face towards the camera, marched through the cells.
 */
export function visibleCubes(cells: readonly Cell[], azimuth: number, elevation: number): Set<string> {
  const e = unit(azimuth, elevation);
  const have = new Set(cells.map(cellKey));
  const reach = 2 + Math.hypot(...[0, 1, 2].map((a) => Math.max(...cells.map((c) => c[a])) - Math.min(...cells.map((c) => c[a])) + 1));
  const seen = new Set<string>();
  for (const c of cells) {
    const own = cellKey(c);
    faces: for (const n of AXES) {
      if (n[0] * e[0] + n[1] * e[1] + n[2] * e[2] < 0.05) continue;
      if (have.has(cellKey([c[0] + n[0], c[1] + n[1], c[2] + n[2]]))) continue;
      const tangents = AXES.filter((t, i) => i % 2 === 0 && t[0] * n[0] + t[1] * n[1] + t[2] * n[2] === 0);
      for (const s of [-0.35, 0, 0.35]) {
        for (const t of [-0.35, 0, 0.35]) {
          const p0 = [0, 1, 2].map((a) => c[a] + 0.5 * n[a] + s * tangents[0][a] + t * tangents[1][a]);
          let blocked = false;
          for (let d = 0.03; d < reach && !blocked; d += 0.03) {
            const k = cellKey(p0.map((v, a) => Math.round(v + d * e[a])));
            if (k !== own && have.has(k)) blocked = true;
          }
          if (!blocked) {
            seen.add(own);
            break faces;
          }
        }
      }
    }
  }
  return seen;
}

/** A seeded oblique camera: azimuth off the axes, elevation 22–40° (from below too when `below`). */
function camera(rng: Rng, below: boolean): { azimuth: number; elevation: number } {
  const azimuth = rng.int(0, 3) * 90 + rng.int(20, 70);
  const elevation = rng.int(22, 40) * (below && rng.next() < 0.5 ? -1 : 1);
  return { azimuth, elevation };
}

/** Views tried per solid before the problem is re-drawn. */
const VIEW_TRIES = 30;

/** A solid turned by a seeded cube rotation and seen from a seeded camera that shows every cube. */
function componentView(rng: Rng, cells: readonly Cell[], below: boolean): SolidView | null {
  for (let t = 0; t < VIEW_TRIES; t++) {
    const turned = normalize(rotate(cells, ROTATIONS[rng.int(0, ROTATIONS.length - 1)]));
    const cam = camera(rng, below);
    if (visibleCubes(turned, cam.azimuth, cam.elevation).size === turned.length) return { cells: turned, ...cam };
  }
  return null;
}

/** The target turned once and seen from two cameras roughly opposite, together showing every cube. */
function targetViews(rng: Rng, cells: readonly Cell[], below: boolean): [SolidView, SolidView] | null {
  for (let t = 0; t < VIEW_TRIES; t++) {
    const turned = normalize(rotate(cells, ROTATIONS[rng.int(0, ROTATIONS.length - 1)]));
    const first = camera(rng, false);
    const second = { azimuth: first.azimuth + 180 + rng.int(-25, 25), elevation: rng.int(22, 40) * (below ? -1 : 1) };
    const seen = new Set([...visibleCubes(turned, first.azimuth, first.elevation), ...visibleCubes(turned, second.azimuth, second.elevation)]);
    if (seen.size === turned.length) return [{ cells: turned, ...first }, { cells: turned, ...second }];
  }
  return null;
}

/**
 * How much taller than the largest solid's bounding diagonal every picture is: 4 % of the
 * picture clear above and below a solid seen from any side.
 */
const PICTURE_MARGIN = 1.08;

/**
 * The diagonal of a solid's bounding box, in cubes: no view of the solid, turned any way, is
 * longer than that across (its bounding sphere's diameter, centred where the camera looks).
 */
export function boundingDiagonal(cells: readonly Cell[]): number {
  const ext = [0, 1, 2].map((a) => Math.max(...cells.map((c) => c[a])) - Math.min(...cells.map((c) => c[a])) + 1);
  return Math.hypot(ext[0], ext[1], ext[2]);
}

/**
 * Draws the pictures' parameters for a problem, or says why it could not (the caller re-draws).
 * `below` (the `+rot` tier) lets cameras look from underneath.
 */
export function questionScene(rng: Rng, problem: Problem, index: number, presentation: Presentation, below: boolean): QuestionScene | string {
  const views = targetViews(rng, problem.target, below);
  if (!views) return `${problem.name}: no pair of views shows every cube of the target`;
  const options: Array<[SolidView, SolidView]> = [];
  for (const [i, o] of problem.options.entries()) {
    const a = componentView(rng, o.pieces[0], below);
    const b = componentView(rng, o.pieces[1], below);
    if (!a || !b) return `${problem.name}: no view shows every cube of a component of option ${LETTERS[i]}`;
    options.push([a, b]);
  }
  // One scale for every picture, wide enough for the largest solid drawn: at L1 a distractor's
  // component may stick out past the target's proportions (A6-L1-s1039: a component three cubes
  // tall beside a 2×2×2 target was cut by the top of its picture).
  const solids = [problem.target, ...problem.options.flatMap((o) => o.pieces)];
  const orthoHeight = round9(Math.max(...solids.map(boundingDiagonal)) * CELL * PICTURE_MARGIN);
  return {
    form: 'question',
    presentation,
    problem: index,
    kind: problem.kind,
    name: problem.name,
    target: problem.target,
    targetViews: views,
    options,
    answer: problem.answer,
    orthoHeight,
  };
}

/** The rules text of a question: the seed's question in this presentation, in our words. */
export function questionRules(s: QuestionScene): string {
  const layout: Record<Presentation, string> = {
    composite:
      'You get one picture. Its top row, labelled Target, shows two views of one target solid built from equal cubes. Below it are four options labelled A, B, C and D; each option shows two separate component solids, side by side.',
    neutral:
      'You get five pictures labelled Image 1 to Image 5. Image 1 shows two views of one target solid built from equal cubes. Image 2, Image 3, Image 4 and Image 5 show option A, option B, option C and option D, in that order; each shows two separate component solids, side by side.',
    descriptive:
      'You get five pictures labelled Target, Option A, Option B, Option C and Option D. The Target picture shows two views of one target solid built from equal cubes; each Option picture shows that option\'s two separate component solids, side by side.',
  };
  return [
    layout[s.presentation],
    'Every picture is drawn at the same scale and without perspective; each solid may be shown turned in any way.',
    'Question: which option shows two component solids that together can form the target solid? Each component may be turned and shifted as a rigid whole, independently of the other; together they must fill the target exactly, with no overlap and no gap. Exactly one option can.',
    'Answer with one call, answer({"option": X}) where X is "A", "B", "C" or "D". It ends the episode: a right answer solves the task, any other does not. There is one turn and no camera to move.',
  ].join('\n');
}

/**
 * A solid as drawn: one whole box per cube (a picture needs no clearances, and whole cubes leave
 * no pinholes where three cubes meet); the renderer outlines every box, so the seams show.
 */
function solidScene(view: SolidView, color: string): { scene: SceneDescription; target: Vec3 } {
  const mid = pieceMid(view.cells);
  const centre = mid.map((v) => round9(v * CELL)) as Vec3;
  const half = CELL / 2;
  const shapes: ShapeSpec[] = view.cells.map((c) => ({
    type: 'box',
    half: [half, half, half],
    pose: { p: [0, 1, 2].map((a) => round9((c[a] - mid[a]) * CELL)) as Vec3, q: [0, 0, 0, 1] },
  }));
  return { scene: { bodies: [{ name: 'solid', shapes, pose: { p: centre, q: [0, 0, 0, 1] }, color, opacity: 1, visible: true }], rulers: [] }, target: centre };
}

/** The scene and camera of one drawing of a solid. */
function solidPicture(view: SolidView, color: string, orthoHeight: number): { scene: SceneDescription; camera: CameraSpec } {
  const { scene, target } = solidScene(view, color);
  return { scene, camera: { azimuth: view.azimuth, elevation: view.elevation, distance: 1, target, projection: 'orthographic', orthoHeight } };
}

async function drawSolid(renderer: Renderer, view: SolidView, color: string, orthoHeight: number): Promise<Buffer> {
  const { scene, camera } = solidPicture(view, color, orthoHeight);
  return renderer.render(scene, camera, { width: PANEL, height: PANEL });
}

/**
 * What the view rule checks in a question's pictures: every drawing of a solid (the target
 * twice, each option's two components) shows the solid whole, at least this large.
 */
export function questionViewParts(s: QuestionScene): ViewDeclaration[] {
  const drawings: Array<[string, SolidView, string]> = [
    ...s.targetViews.map((v, i): [string, SolidView, string] => [`target drawing ${i + 1}`, v, SOLID_COLORS.target]),
    ...s.options.flatMap(([a, b], i): Array<[string, SolidView, string]> => [
      [`option ${LETTERS[i]} component 1`, a, SOLID_COLORS.first],
      [`option ${LETTERS[i]} component 2`, b, SOLID_COLORS.second],
    ]),
  ];
  // 4000 px at 768 × 768 is about 1560 px of a 480-pixel panel: a small component still shows each cube.
  return drawings.map(([label, view, color]) => ({ label, ...solidPicture(view, color, s.orthoHeight), width: PANEL, height: PANEL, bodies: [{ name: 'solid', minPixels: 4000 }] }));
}

/** The two images the question is built from: the target's (two views) and each option's (two components). */
export async function questionPanels(renderer: Renderer, s: QuestionScene): Promise<{ target: Buffer; options: Buffer[] }> {
  const t = [];
  for (const v of s.targetViews) t.push(await drawSolid(renderer, v, SOLID_COLORS.target, s.orthoHeight));
  const target = await composeRow(t, { separator: PANEL_GAP });
  const options: Buffer[] = [];
  for (const [a, b] of s.options) {
    const pa = await drawSolid(renderer, a, SOLID_COLORS.first, s.orthoHeight);
    const pb = await drawSolid(renderer, b, SOLID_COLORS.second, s.orthoHeight);
    options.push(await composeRow([pa, pb], { separator: PANEL_GAP }));
  }
  return { target, options };
}

/** Stacks images top to bottom, each centred, with gaps; returns PNG bytes. */
async function stack(images: Buffer[], gap: number, background: string): Promise<Buffer> {
  const sizes = await Promise.all(images.map(async (img) => sharp(img).metadata()));
  const width = Math.max(...sizes.map((m) => m.width));
  const height = sizes.reduce((h, m) => h + m.height, 0) + gap * (images.length - 1);
  let top = 0;
  const layers = images.map((input, i) => {
    const layer = { input, left: Math.floor((width - sizes[i].width) / 2), top };
    top += sizes[i].height + gap;
    return layer;
  });
  return sharp({ create: { width, height, channels: 3, background } }).composite(layers).png().toBuffer();
}

/** The composite picture's layout, pixels: label bar height, gap between rows, gap between the options of a row. */
export const COMPOSITE = { label: 40, rowGap: 16, optionGap: 24 } as const;

/** The composite picture: Target on top, options A and B, then C and D, each under its label. */
export async function compositeImage(panels: { target: Buffer; options: Buffer[] }): Promise<Buffer> {
  const rows = [
    await composeRow([panels.target], { labels: ['Target'], labelHeight: COMPOSITE.label }),
    await composeRow(panels.options.slice(0, 2), { labels: ['A', 'B'], labelHeight: COMPOSITE.label, separator: COMPOSITE.optionGap }),
    await composeRow(panels.options.slice(2, 4), { labels: ['C', 'D'], labelHeight: COMPOSITE.label, separator: COMPOSITE.optionGap }),
  ];
  return stack(rows, COMPOSITE.rowGap, '#101214');
}

/** The observation of a question in its presentation: one composite picture, or five labelled ones. */
export async function questionObservation(renderer: Renderer, s: QuestionScene): Promise<ObservationImage[]> {
  const panels = await questionPanels(renderer, s);
  if (s.presentation === 'composite') {
    return [{ kind: 'view', png: await compositeImage(panels), caption: 'The question: Target in the top row, options A to D below.' }];
  }
  const labels = s.presentation === 'neutral' ? ['Image 1', 'Image 2', 'Image 3', 'Image 4', 'Image 5'] : ['Target', ...LETTERS.map((l) => `Option ${l}`)];
  return [panels.target, ...panels.options].map((png, i) => ({ kind: 'view' as const, png, caption: labels[i] }));
}
