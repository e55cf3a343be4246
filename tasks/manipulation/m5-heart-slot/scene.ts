/**
 * M5 heart slot: the scene an instance carries, the tiers and the fixed sizes.
 *
 * Frames: world metres, y up. A wall stands across z (faces perpendicular to z) and fills the
 * workspace's whole x–y section; the part starts on the +z side and must end beyond the wall. The
 * part is a heart-shaped block: the heart outline of `heart.ts` in its own x–y plane (symmetric
 * about its own y axis, the notch up), `thickness` deep along its own z, held at the centre of its
 * bounding box. An opening is a heart outline grown by the clearance, turned about the wall's
 * normal; the part passes the matching opening face-on with its outline on the opening's — in
 * that orientation or turned a half turn about its symmetry axis (the one orientation family).
 */
import type { Pose } from '../../../sim/types.ts';
import type { LeverTable } from '../../levers.ts';
import type { Tier } from '../../types.ts';
import { wallFrameArrowsAt } from '../../kits/held-part/rulers.ts';

/** One opening through the wall. */
export interface M5Opening {
  /** Centre of the opening's bounding box on the wall: world x, metres. */
  x: number;
  /** Centre of the opening's bounding box on the wall: world y, metres. */
  y: number;
  /** Turn of the opening's heart about the wall's normal (+z), degrees (0: notch up). */
  turnDeg: number;
  /** Width and height of the heart this opening is cut from (before the clearance), metres. */
  width: number;
  height: number;
  /** `match`: the opening the part fits; `smaller` or `narrower`: a decoy that fits no orientation. */
  kind: 'match' | 'smaller' | 'narrower';
}

/** Parameters an M5 world is built from: plain JSON, a pure function of (seed, tier). */
export interface M5Scene {
  /** The part's heart: width and height (metres) and its thickness along its own z (metres). */
  part: { width: number; height: number; thickness: number };
  /** Gap per side between the part's outline and the matching opening, metres. */
  clearance: number;
  /** The wall: its middle plane's z, its thickness, its openings. */
  wall: { z: number; thickness: number; openings: M5Opening[] };
  /** The part's start pose: centre `p`, orientation `q`. */
  start: Pose;
  /** The pose the reference ends at, beyond the wall. */
  goal: Pose;
  /** Whether `rotate` and `move` turn about the part's own axes (`+tool`) instead of the world's. */
  toolFrame: boolean;
}

/** What each tier draws. */
export interface M5TierSettings {
  clearance: number;
  /** Decoy openings beside the matching one. */
  decoys: Array<'smaller' | 'narrower'>;
  /** How far the opening is turned about the wall's normal, degrees (a random sign). */
  openingTurn: [number, number];
  /** `facing`: the part starts face-on to the wall, turned in its plane; `turned`: yawed and tilted; `any`: any orientation. */
  start: 'facing' | 'turned' | 'any';
  toolFrame: boolean;
}

/** Tier settings. */
export const TIERS: Record<Tier, M5TierSettings> = {
  L1: { clearance: 0.003, decoys: [], openingTurn: [0, 0], start: 'facing', toolFrame: false },
  L3: { clearance: 0.002, decoys: ['smaller'], openingTurn: [15, 40], start: 'turned', toolFrame: false },
  L5: { clearance: 0.002, decoys: ['smaller', 'narrower'], openingTurn: [15, 60], start: 'any', toolFrame: false },
  L7: { clearance: 0.002, decoys: ['smaller', 'narrower'], openingTurn: [15, 60], start: 'any', toolFrame: true },
};

/**
 * The levers M5 supports as single-factor studies over L5 (`M5-L5+tool-s100`, tasks/levers.ts).
 * `+tool` is its L7's lever.
 */
export const M5_LEVERS: LeverTable<M5TierSettings> = {
  '+tool': { description: "L5 with rotations about the block's own axes (drawn on it), which turn with it.", apply: (s) => ({ ...s, toolFrame: true }) },
};

/** The part's heart and thickness, metres. */
export const PART = { width: 0.096, height: 0.087, thickness: 0.04 };
/** The shaft length of the block's own axis arrows under `+tool` (drawn from its front face), metres. */
export const TOOL_ARROW_LENGTH = 0.035;
/** Wall thickness, metres. */
export const WALL_THICKNESS = 0.02;
/** The workspace (and the wall's extent in x and y), metres. */
export const WORKSPACE = { min: [-0.24, 0.005, -0.32] as [number, number, number], max: [0.24, 0.3, 0.34] as [number, number, number] };
/** The frame arrows' origin: on the floor left of the wall's left end, clear of the rulers' labels (the held-part kit's spot). */
export const ARROWS_AT: [number, number, number] = wallFrameArrowsAt(WORKSPACE, WALL_THICKNESS);
