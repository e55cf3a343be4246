/**
 * The view-rule declaration shared by the held-part families (M2–M6): what their first view
 * must show. Each family names its own bodies (the held part, the walls, openings, wire or
 * frame the rules name, the goal mark); the kit adds the working frame's three axis arrows the
 * rules tell the agent to read and, where a tier turns about the part's own axes (`+tool`), the
 * small arrows fixed to the part, each of which must show its head and most of its shaft (the
 * view rule's arrow check). Every ruler is to be read (the rules describe each one).
 */
import type { ArrowRequirement, BodyRequirement } from '../../../render/view-rule.ts';
import type { ViewDeclaration } from '../../types.ts';

/**
 * Visible pixels (at 768×768) one axis arrow must show: a thin shaft and head some 20 pixels
 * long, enough to tell its colour and direction.
 */
export const AXIS_ARROW_MIN_PIXELS = 40;

/**
 * Visible pixels the three arrows fixed to a part must show together: with the part turned any
 * way, one arrow may lie along the line of sight, but the set must read as a frame.
 */
export const PART_AXES_MIN_PIXELS = 150;

/** What one held-part family's first view must show. */
export interface HeldPartView {
  /** The held part's body and the pixels it must show. */
  part: BodyRequirement;
  /** The fixed bodies the rules name: walls, openings' wall, wire, frame, floor, goal mark. */
  scenery: BodyRequirement[];
  /** Prefix of the working frame's arrow bodies (`<prefix>-x`, `-y`, `-z`; `frameArrowBodies`). */
  frameArrows: string;
  /** Prefix of the arrows fixed to the part, when the tier turns about the part's own axes. */
  partArrows?: string;
  /** Bodies the tier hides on purpose (none in M2–M6 today: their L7 levers hide nothing). */
  hidden?: string[];
  /** Rulers the tier hides on purpose. */
  hiddenRulers?: number[];
  /** Why the tier hides them (required by the view rule when anything is hidden). */
  hiddenBecause?: string;
}

/** The one picture of a held-part family's first view, declared for the view rule. */
export function heldPartViewParts(v: HeldPartView): ViewDeclaration[] {
  const axes = ['x', 'y', 'z'] as const;
  const bodies: BodyRequirement[] = [
    v.part,
    ...v.scenery,
    ...axes.map((a) => ({ name: `${v.frameArrows}-${a}`, minPixels: AXIS_ARROW_MIN_PIXELS })),
  ];
  if (v.partArrows) {
    bodies.push({ name: `${v.partArrows} arrows`, group: axes.map((a) => `${v.partArrows}-${a}`), minPixels: PART_AXES_MIN_PIXELS });
  }
  // The small cubes where each set of arrows meets are part of the arrows, not something to read.
  const origins = [`${v.frameArrows}-origin`, ...(v.partArrows ? [`${v.partArrows}-origin`] : [])];
  // Every arrow is read one by one (which way is +x?): each shows its head and most of its shaft.
  const arrows: ArrowRequirement[] = axes.map((a) => ({ body: `${v.frameArrows}-${a}`, what: `+${a} of the working frame` }));
  if (v.partArrows) arrows.push(...axes.map((a) => ({ body: `${v.partArrows}-${a}`, what: `the part's own +${a}` })));
  return [{ bodies, hidden: v.hidden ?? [], hiddenRulers: v.hiddenRulers ?? [], ...(v.hiddenBecause ? { hiddenBecause: v.hiddenBecause } : {}), scenery: origins, arrows }];
}
