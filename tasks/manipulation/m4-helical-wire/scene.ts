/**
 * M4 helical wire: the scene an instance carries, the tiers and the fixed sizes.
 *
 * Frames: world metres, y up. A wire of round section runs from inside a base block on the
 * floor, through the points of `wire.points` (straight between them, rounded at each point), to a
 * free end. A ring — a square-section torus made of short straight pieces, its own y axis through
 * its hole — is threaded on the wire near the base. The ring is held at its centre; it must be
 * worked along the wire and off the free end. The ring may never leave the wire anywhere else: a
 * topology predicate of the world (`topology.ts`) requires the wire to pass through the ring's
 * disc, except once the ring's centre is at or beyond the free end.
 */
import type { Pose, Vec3 } from '../../../sim/types.ts';
import type { Tier } from '../../types.ts';
import type { LeverTable } from '../../levers.ts';

/** Parameters an M4 world is built from: plain JSON, a pure function of (seed, tier). */
export interface M4Scene {
  /** The wire. */
  wire: {
    /** Radius of the wire's round section, metres. */
    radius: number;
    /** Centre line from inside the base to the free end (the last point), world metres. */
    points: Vec3[];
  };
  /** The ring. */
  ring: {
    /** Radius of the ring's centre circle (the middle of its section), metres. */
    radius: number;
    /** Half the side of the ring's square section, metres. */
    halfThickness: number;
    /** Number of straight pieces the ring is made of. */
    pieces: number;
  };
  /** The base block the wire stands in: centre and half extents, world metres. */
  base: { centre: Vec3; half: Vec3 };
  /** Gap between the wire and the ring's hole when the ring is centred on it, metres. */
  clearance: number;
  /** The ring's start pose: centre `p`, orientation `q` (its y axis along the wire). */
  start: Pose;
  /** Turn of the working frame about +y, degrees (0 unless `+rot`). */
  frameYawDeg: number;
}

/** What each tier draws. */
export interface M4TierSettings {
  /** `bend`: up, then one bend; `twist`: up and two bends in different planes; `helix`: up, then turns of a helix. */
  shape: 'bend' | 'twist' | 'helix';
  clearance: number;
  rotatedFrame: boolean;
  /**
   * The action budget (refused and rolled-back calls count): the reference's action count on
   * the tier's longest courses times a small factor (README "Budget").
   */
  actions: number;
}

/** Tier settings. */
export const TIERS: Record<Tier, M4TierSettings> = {
  L1: { shape: 'bend', clearance: 0.005, rotatedFrame: false, actions: 15 },
  L3: { shape: 'twist', clearance: 0.004, rotatedFrame: false, actions: 24 },
  L5: { shape: 'helix', clearance: 0.003, rotatedFrame: false, actions: 64 },
  L7: { shape: 'helix', clearance: 0.003, rotatedFrame: true, actions: 64 },
};

/**
 * The levers M4 supports as single-factor studies over L5 (`M4-L5+rot-s100`;
 * tasks/levers.ts): each the L5 settings with one change.
 */
export const M4_LEVERS: LeverTable<M4TierSettings> = {
  '+rot': { description: "L5 with the working frame turned about the vertical by 30\u201360\u00b0 either way (any angle), shown only by the axis arrows.", apply: (s) => ({ ...s, rotatedFrame: true }) },
};

/** Wire radius, metres. */
export const WIRE_RADIUS = 0.005;
/** Half the ring's section side, metres. */
export const RING_HALF = 0.004;
/** Straight pieces of the ring. */
export const RING_PIECES = 16;
/** The base block's half extents, metres. */
export const BASE_HALF: Vec3 = [0.05, 0.02, 0.05];
/** The working frame's arrows' origin: on the floor right of the base, behind the floor ruler (whose labels lie in front of it). */
export const ARROWS_AT: Vec3 = [BASE_HALF[0] + 0.05, 0.003, BASE_HALF[2] - 0.07];
/** The workspace, metres. */
export const WORKSPACE = { min: [-0.3, 0.001, -0.3] as Vec3, max: [0.3, 0.45, 0.3] as Vec3 };
/** Spacing of the points along a bend or helix, metres. */
export const WIRE_STEP = 0.015;
