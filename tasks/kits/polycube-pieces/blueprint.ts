/**
 * The blueprint kit: a structure of whole cubes drawn by the real renderer's line-drawing view
 * (orthographic, black edges on white, no shading), one panel per view of the tier — from the
 * front, from above and from the right — each with two dimension lines giving the structure's
 * overall sizes ("9 cm"), set side by side under their labels. Every panel has the same scale
 * (one `orthoHeight` per tier), and the structure is one body of whole cubes, so faces in one
 * plane meet without a seam and a line marks only an outline or a step in depth
 * (A5's `readings.ts` models exactly this).
 *
 * Used by A5 (the blueprint is the whole task) and by A2's `+blueprint` tier (the target box
 * shown only as a drawing); any family whose target is a set of cubes can show it this way.
 */
import { composeRow } from '../../../render/compose.ts';
import type { CameraSpec } from '../../../render/camera-spec.ts';
import type { DimensionSpec, Renderer } from '../../../render/renderer.ts';
import type { SceneDescription, ShapeSpec, Vec3 } from '../../../sim/types.ts';
import { round9 } from '../../../core/determinism.ts';
import type { ViewDeclaration } from '../../types.ts';
import type { GridDims } from './cells.ts';
import { CELL } from './pieces.ts';

/** An orthographic view of a blueprint: from the front (+Z), from above, or from the right (+X). */
export type ViewName = 'front' | 'top' | 'right';

/** Every view, in the order a blueprint sheet shows them. */
export const VIEW_NAMES: readonly ViewName[] = ['front', 'top', 'right'];

/** What a blueprint draws: the structure's cubes, its bounding block, and the views in sheet order. */
export interface BlueprintSpec {
  /** The structure's cubes `[i, j, k]` (x right, y up, z towards the front), starting at 0. */
  target: readonly (readonly number[])[];
  /** Its bounding block in cells: `cols` along x, `rows` along z, `layers` up. */
  extent: GridDims;
  /** The views drawn, in sheet order. */
  views: readonly ViewName[];
}

/** Side of one panel of the blueprint, pixels. */
export const PANEL = 400;
/** Height of the label bar over each panel, pixels. */
const LABEL_BAR = 34;
/** How far a dimension line stands off the structure, metres. */
const DIM_OFFSET = 0.02;
/** Visible height of every panel, metres: the tier's largest structure (4 cubes) with room for the dimension lines. */
export const ORTHO_HEIGHT = 0.2;
/** The drawn structure's colour (the line view draws only its edges). */
const INK_BODY = '#8c9db3';

/** What each panel is called on the sheet. */
export const VIEW_LABELS: Record<ViewName, string> = { front: 'Front', top: 'Top', right: 'Right side' };

/** The target as one body of whole cubes, its lowest-left-back corner at the origin. */
export function structureScene(cells: readonly (readonly number[])[]): SceneDescription {
  const half = CELL / 2;
  const shapes: ShapeSpec[] = cells.map((c) => ({
    type: 'box',
    half: [half, half, half],
    pose: { p: [0, 1, 2].map((a) => round9((c[a] + 0.5) * CELL)) as Vec3, q: [0, 0, 0, 1] },
  }));
  return { bodies: [{ name: 'structure', shapes, pose: { p: [0, 0, 0], q: [0, 0, 0, 1] }, color: INK_BODY, opacity: 1, visible: true }], rulers: [] };
}

/** The orthographic camera of one view, centred on the structure's bounding block. */
export function viewCamera(s: Pick<BlueprintSpec, 'extent'>, view: ViewName): CameraSpec {
  const W = s.extent.cols * CELL;
  const H = s.extent.layers * CELL;
  const D = s.extent.rows * CELL;
  const target: Vec3 = [round9(W / 2), round9(H / 2), round9(D / 2)];
  const angles = { front: [0, 0], top: [0, 90], right: [90, 0] } as const;
  return { azimuth: angles[view][0], elevation: angles[view][1], distance: 1, target, projection: 'orthographic', orthoHeight: ORTHO_HEIGHT };
}

/**
 * The dimension lines of one view: its two overall sizes, below and to the left of the
 * structure as the panel shows it (the right view's left is the front, +Z).
 */
export function viewDimensions(s: Pick<BlueprintSpec, 'extent'>, view: ViewName): DimensionSpec[] {
  const W = round9(s.extent.cols * CELL);
  const H = round9(s.extent.layers * CELL);
  const D = round9(s.extent.rows * CELL);
  const o = DIM_OFFSET;
  if (view === 'front') {
    return [
      { from: [0, 0, D], to: [W, 0, D], offset: [0, -o, 0] },
      { from: [0, 0, D], to: [0, H, D], offset: [-o, 0, 0] },
    ];
  }
  if (view === 'top') {
    return [
      { from: [0, H, D], to: [W, H, D], offset: [0, 0, o] },
      { from: [0, H, 0], to: [0, H, D], offset: [-o, 0, 0] },
    ];
  }
  return [
    { from: [W, 0, D], to: [W, 0, 0], offset: [0, -o, 0] },
    { from: [W, 0, D], to: [W, H, D], offset: [0, 0, o] },
  ];
}

/** The blueprint sheet: one labelled panel per view of the tier, side by side. */
export async function blueprintSheet(renderer: Renderer, s: BlueprintSpec): Promise<Buffer> {
  const scene = structureScene(s.target);
  const panels: Buffer[] = [];
  for (const v of s.views) {
    panels.push(await renderer.render(scene, viewCamera(s, v), { view: 'lines', width: PANEL, height: PANEL, dimensions: viewDimensions(s, v) }));
  }
  return composeRow(panels, { labels: s.views.map((v) => VIEW_LABELS[v]), labelHeight: LABEL_BAR, separator: 6 });
}

/** The view rule's declaration of every panel: the structure whole and large enough to read. */
export function blueprintViewParts(s: BlueprintSpec): ViewDeclaration[] {
  const scene = structureScene(s.target);
  return s.views.map((v) => ({
    label: `blueprint: ${VIEW_LABELS[v]} view`,
    scene,
    camera: viewCamera(s, v),
    width: PANEL,
    height: PANEL,
    // 2 cubes of 3 cm at 0.2 m over 400 px are 60 × 60 px each; at 768² the rule scales by area.
    bodies: [{ name: 'structure', minPixels: 9000 }],
  }));
}
