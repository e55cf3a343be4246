/**
 * The brick catalog shared by the construction (B) families: the kinds of interlocking bricks
 * and plates an instance may offer, their sizes in studs and plates, and the supply format.
 * Sizes are the world's brick system defaults (`BRICK_DEFAULTS` in `sim/bricks.ts`), so a plan
 * drawn with these numbers lands exactly where `BrickSystem.place` puts the brick.
 */
import { SpaceActError } from '../../../core/errors.ts';
import { BRICK_DEFAULTS } from '../../../sim/bricks.ts';

/** Stud pitch, m (the brick system default). */
export const PITCH = BRICK_DEFAULTS.pitch;
/** Plate height, m (the brick system default); a brick is {@link BRICK_PLATES} plates. */
export const PLATE = BRICK_DEFAULTS.plateHeight;
/** Height of a brick in plates. */
export const BRICK_PLATES = 3;
/** Gravity, m/s² (the world default). */
export const GRAVITY = 9.81;

/** A kind of brick in the catalog. */
export interface BrickType {
  /** Tool name, e.g. `brick-1x6`, `plate-2x8`. */
  id: string;
  /** Studs across the brick. */
  width: 1 | 2;
  /** Studs along the brick. */
  length: number;
  /** A plate (1 plate tall) instead of a brick (3 plates). */
  plate: boolean;
  color: string;
}

function defineType(width: 1 | 2, length: number, plate: boolean, color: string): BrickType {
  return { id: `${plate ? 'plate' : 'brick'}-${width}x${length}`, width, length, plate, color };
}

/** Every brick type an instance may offer, by id. */
export const CATALOG: Readonly<Record<string, BrickType>> = Object.freeze(
  Object.fromEntries(
    [
      defineType(1, 1, false, '#f7dc6f'),
      defineType(1, 2, false, '#f4d03f'),
      defineType(1, 4, false, '#eb984e'),
      defineType(1, 6, false, '#d35400'),
      defineType(1, 8, false, '#a04000'),
      defineType(2, 2, false, '#82e0aa'),
      defineType(2, 4, false, '#52be80'),
      defineType(2, 6, false, '#45b39d'),
      defineType(2, 8, false, '#196f3d'),
      defineType(1, 2, true, '#fcf3cf'),
      defineType(1, 4, true, '#f8c471'),
      defineType(1, 6, true, '#f0b27a'),
      defineType(2, 2, true, '#d5f5e3'),
      defineType(2, 4, true, '#a9dfbf'),
      defineType(2, 6, true, '#7dcea0'),
      defineType(2, 8, true, '#76d7c4'),
    ].map((t) => [t.id, t]),
  ),
);

/** A brick type by id; `invalid-argument` for an id the catalog does not have. */
export function brickType(id: string): BrickType {
  const t = Object.hasOwn(CATALOG, id) ? CATALOG[id] : undefined;
  if (!t) throw new SpaceActError('invalid-argument', `unknown brick type '${id}'; known: ${Object.keys(CATALOG).join(', ')}`, { type: id });
  return t;
}

/** Height of a brick type in plates. */
export function heightOf(t: BrickType): number {
  return t.plate ? 1 : BRICK_PLATES;
}

/** One line of a supply: a brick type and how many of it there are. */
export interface SupplyItem {
  type: string;
  count: number;
}
