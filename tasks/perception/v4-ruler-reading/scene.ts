/**
 * V4 ruler reading: the scene an instance carries (plain JSON, a pure function of seed and
 * tier), the tiers, and the sizes every other file of the family shares. Every field is
 * described in README.md.
 */
import type { Pose, Vec3 } from '../../../sim/types.ts';
import type { LeverTable } from '../../levers.ts';
import type { Tier } from '../../types.ts';

/** What is measured: the gap between two blocks, a block's height, or the length of the opening in a frame. */
export type MeasureKind = 'gap' | 'height' | 'opening';

/** A box on the table. */
export interface V4Box {
  name: string;
  /** What it is for: one end of the measured size, the measured block, a decoy, or a screen that hides. */
  role: 'end' | 'subject' | 'frame' | 'decoy' | 'screen';
  /** CSS colour, and its name in the rules for the boxes the question names. */
  color: string;
  colorName: string;
  /** Boxes of one body (a frame is four bars), each in the body's frame. */
  parts: Array<{ half: Vec3; p: Vec3 }>;
  pose: Pose;
}

/** Parameters a V4 world is built from. */
export interface V4Scene {
  kind: MeasureKind;
  /** The question, as the rules put it. */
  question: string;
  /** The size asked for, centimetres, to the millimetre: the answer. */
  answerCm: number;
  /** An answer within this many centimetres of `answerCm` is right. */
  toleranceCm: number;
  /** Sizes of this kind are drawn from this range, centimetres (the rules say so). */
  rangeCm: [number, number];
  /** The two world points the size runs between (on the measured faces, at their middles). */
  span: [Vec3, Vec3];
  /** Angle between the span and the nearest ruler, degrees (0 unless the working frame is turned, `+rot`). */
  spanTurnDeg: number;
  /** Every box on the table. */
  boxes: V4Box[];
  /**
   * The patches whose sight decides whether the size can be read: the two ends (`ends[0]`,
   * `ends[1]`, each a list of faces as `box name/face`), checked by ray casting.
   */
  ends: [string[], string[]];
  /** Index of the end a screen hides from the first view (L5 and up), or −1. */
  hiddenEnd: number;
  /** The static table slab (its top face is the plane y = 0). */
  table: { half: Vec3; pose: Pose };
}

/** What a tier asks. */
export interface V4Tier {
  kinds: MeasureKind[];
  toleranceCm: number;
  /** The ruler lies right beside the span (L1) or elsewhere on the table. */
  rulerBeside: boolean;
  /** Decoy blocks that make other gaps and heights. */
  decoys: number;
  /** A screen hides one end of the span from the first view. */
  screen: boolean;
  /** The span is turned 25°–65° from every ruler (`+rot`). */
  turned: boolean;
  /** First camera elevation range, degrees. */
  elevation: [number, number];
}

/** The tiers of V4. */
export const TIERS: Record<Tier, V4Tier> = {
  L1: { kinds: ['gap', 'height'], toleranceCm: 0.5, rulerBeside: true, decoys: 0, screen: false, turned: false, elevation: [25, 40] },
  L3: { kinds: ['gap', 'height', 'opening'], toleranceCm: 0.4, rulerBeside: false, decoys: 2, screen: false, turned: false, elevation: [22, 38] },
  L5: { kinds: ['gap', 'opening'], toleranceCm: 0.3, rulerBeside: false, decoys: 2, screen: true, turned: false, elevation: [18, 30] },
  L7: { kinds: ['gap', 'opening'], toleranceCm: 0.3, rulerBeside: false, decoys: 2, screen: true, turned: true, elevation: [18, 30] },
};

/**
 * The levers V4 supports as single-factor studies over L5 (`V4-L5+rot-s100`, tasks/levers.ts):
 * `+rot` is its L7's turned span over the L5 scene.
 */
export const V4_LEVERS: LeverTable<V4Tier> = {
  '+rot': { description: 'L5 with the measured size turned 25°–65° from both rulers, which lie in an L beside the scene.', apply: (s) => ({ ...s, turned: true }) },
};

/**
 * Sizes each kind is drawn from, centimetres: wide against any tier's tolerance (24 or more
 * tolerance widths ±, so a fixed guess inside the range is right about 1 time in 25–45).
 */
export const RANGES: Record<MeasureKind, [number, number]> = {
  gap: [3, 32],
  height: [4, 30],
  opening: [4, 28],
};

/** Round numbers a guess might fall on: answers stay clear of multiples of this, centimetres. */
export const ROUND_STEP_CM = 5;

/** Table top colour, screen colour, and the colours the question may name. */
export const COLORS = {
  table: '#cdbfa6',
  screen: '#7d858c',
  named: [
    { name: 'red', css: '#c0392b' },
    { name: 'blue', css: '#2e6fd0' },
    { name: 'green', css: '#27ae60' },
    { name: 'yellow', css: '#e2b714' },
    { name: 'purple', css: '#8e44ad' },
    { name: 'white', css: '#f2f2f2' },
  ],
} as const;

/** Thickness of a screen, metres. */
export const SCREEN_THICKNESS = 0.008;
/** Width and height of a frame's bars, metres. */
export const FRAME_BAR = { width: 0.025, height: 0.015 } as const;

/** Sizes (centimetres, millimetre steps) an answer may take: in the range, away from its ends, its middle and round numbers. */
export function allowedSizes(kind: MeasureKind, toleranceCm: number): number[] {
  const [lo, hi] = RANGES[kind];
  const out: number[] = [];
  for (let mm = lo * 10; mm <= hi * 10; mm++) {
    const cm = mm / 10;
    const nearRound = Math.abs(cm - Math.round(cm / ROUND_STEP_CM) * ROUND_STEP_CM) <= toleranceCm + 0.1 + 1e-9;
    const nearEnd = cm - lo < 0.5 - 1e-9 || hi - cm < 0.5 - 1e-9;
    // The middle of the stated range is the constant a guesser would pick.
    const nearMiddle = Math.abs(cm - (lo + hi) / 2) <= toleranceCm + 0.1 + 1e-9;
    if (!nearRound && !nearEnd && !nearMiddle) out.push(Math.round(cm * 10) / 10);
  }
  return out;
}

