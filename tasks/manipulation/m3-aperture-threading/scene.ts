/**
 * M3 aperture threading: the scene an instance carries, the tiers and the fixed sizes.
 *
 * Frames: world metres, y up. Walls stand across the z axis (their faces perpendicular to z) and
 * fill the workspace's whole x–y section, so the part can only pass through their slots. The part
 * starts on the +z side (nearest the first camera view) and must end beyond the last wall, on the
 * −z side. The part is a prism: a polyomino cross-section of square cells in its own x–y plane,
 * extruded along its own z axis by `depth`, held at the centre of its bounding box. A slot is the
 * same kind of outline, grown by the clearance on every side, turned about the wall's normal.
 * Because the part is longer than any slot is wide, it can pass only end-on, with its
 * cross-section turned onto the slot's outline; a chiral cross-section fits in exactly one
 * orientation (flipping the part end for end mirrors what the slot sees).
 */
import type { Pose } from '../../../sim/types.ts';
import type { Tier } from '../../types.ts';
import type { Cell2 } from '../m1-chiral-peg/polyomino.ts';
import type { LeverTable } from '../../levers.ts';

/** One slot through a wall. */
export interface M3Slot {
  /** The outline's cells in the slot's own frame (normalised: smallest i and j are 0). */
  cells: Cell2[];
  /** Centre of the outline's bounding box on the wall: world x, metres. */
  x: number;
  /** Centre of the outline's bounding box on the wall: world y, metres. */
  y: number;
  /** Turn of the outline about the wall's normal (+z), degrees: a multiple of 90. */
  turnDeg: number;
  /** `match`: the slot the part fits; `variant`: a decoy with one cell moved (it fits no orientation). */
  kind: 'match' | 'variant';
}

/** One wall. */
export interface M3Wall {
  /** World z of the wall's middle plane, metres. */
  z: number;
  slots: M3Slot[];
}

/** Parameters an M3 world is built from: plain JSON, a pure function of (seed, tier). */
export interface M3Scene {
  /** The part's cross-section: cells in its own x–y plane (normalised). */
  partCells: Cell2[];
  /** Side of one cell, metres. */
  cell: number;
  /** The part's length along its own z axis, metres. */
  depth: number;
  /** Gap per side between the part's cross-section and a matching slot, metres. */
  clearance: number;
  /** Thickness of every wall, metres. */
  wallThickness: number;
  /** The walls, in the order the part meets them (z decreasing). */
  walls: M3Wall[];
  /** The part's start pose: centre `p`, orientation `q`. */
  start: Pose;
  /** The pose the reference ends at, beyond the last wall. */
  goal: Pose;
  /** Turn of the working frame about +y, degrees (0 unless the `+rot` lever is on). */
  frameYawDeg: number;
  /** Where the working frame's arrows stand (their origin, world metres): one of {@link ARROW_SPOTS}. */
  arrowsAt: [number, number, number];
}

/** What each tier draws. */
export interface M3TierSettings {
  /** Cross-sections to draw from. */
  shapes: 'bar' | 'tetromino' | 'pentomino';
  walls: 1 | 2;
  /** Decoy slots per wall. */
  decoys: number;
  clearance: number;
  /** Whether the part starts in any orientation (else lying across, a quarter turn off). */
  freeStart: boolean;
  rotatedFrame: boolean;
}

/** Tier settings. */
export const TIERS: Record<Tier, M3TierSettings> = {
  L1: { shapes: 'bar', walls: 1, decoys: 0, clearance: 0.005, freeStart: false, rotatedFrame: false },
  L3: { shapes: 'tetromino', walls: 1, decoys: 1, clearance: 0.003, freeStart: true, rotatedFrame: false },
  L5: { shapes: 'pentomino', walls: 2, decoys: 1, clearance: 0.0025, freeStart: true, rotatedFrame: false },
  L7: { shapes: 'pentomino', walls: 2, decoys: 1, clearance: 0.0025, freeStart: true, rotatedFrame: true },
};

/**
 * The levers M3 supports as single-factor studies over L5 (`M3-L5+rot-s100`;
 * tasks/levers.ts): each the L5 settings with one change.
 */
export const M3_LEVERS: LeverTable<M3TierSettings> = {
  '+rot': { description: "L5 with the working frame turned about the vertical by \u00b130\u201360\u00b0, shown only by the axis arrows.", apply: (s) => ({ ...s, rotatedFrame: true }) },
};

/** Side of a cell, metres. */
export const CELL = 0.015;
/** Wall thickness, metres. */
export const WALL_THICKNESS = 0.02;
/** The workspace (and the walls' extent in x and y), metres. */
export const WORKSPACE = { min: [-0.2, 0.005, -0.6] as [number, number, number], max: [0.2, 0.3, 0.32] as [number, number, number] };
/** Gap left between walls beyond the part's depth, metres. */
export const WALL_GAP = 0.07;

/** The chiral tetrominoes (L and S): a prism of either fits its slot in one orientation only. */
export const CHIRAL_TETROMINOES: Readonly<Record<string, readonly Cell2[]>> = {
  L: [[0, 0], [0, 1], [0, 2], [1, 2]],
  S: [[1, 0], [2, 0], [0, 1], [1, 1]],
};

/** Bars for L1: straight rows of 3 cells (fit in two orientations, a half turn apart). */
export const BARS: Readonly<Record<string, readonly Cell2[]>> = {
  I3: [[0, 0], [1, 0], [2, 0]],
};

/**
 * The frame arrows' origin: on the floor 15 cm in front of the first wall, 12 cm from its left
 * end. Both rulers start at the wall's bottom-left corner and draw their labels into the wall; at
 * 5 cm in front of the corner (before version 3) the "0" and "10 cm" plates lay over the +y head
 * and the bottom ruler's band hid the +x head (issue 32). The held-part kit's spot left of the
 * wall (`wallFrameArrowsAt`, M5's) is outside M3's closer first camera.
 */
export const ARROWS_AT: [number, number, number] = [WORKSPACE.min[0] + 0.12, 0.003, WALL_THICKNESS / 2 + 0.15];

/**
 * The spots the frame arrows may take, in order of preference: {@link ARROWS_AT} first, then the
 * same distance in front of the wall further right. A part started right over a spot hides the
 * +y head from every nearby first camera (issue 32), so the first camera search
 * (`firstCamera` in generate.ts) moves the arrows to the next spot.
 */
export const ARROW_SPOTS: [number, number, number][] = [ARROWS_AT, [0.02, 0.003, ARROWS_AT[2]], [0.1, 0.003, ARROWS_AT[2]]];
