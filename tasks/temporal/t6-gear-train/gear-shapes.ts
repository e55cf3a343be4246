/**
 * T6 gear bodies: the pins of `sim/gears.ts`'s pin gear as the only colliders, and its hub as a
 * drawn-only disc. Pins are what mesh; a solid hub collider would add a cylinder–ball test per
 * neighbouring pin and step, and it never touches anything the pins do not.
 */
import { pinGear } from '../../../sim/gears.ts';
import type { ShapeSpec } from '../../../sim/types.ts';
import { MODULE } from './scene.ts';

/** A T6 gear of `teeth` pins: its colliders (balls on the pitch circle, the first on +x) and its drawn hub. */
export function pinGearShapes(teeth: number): { pins: ShapeSpec[]; visual: ShapeSpec[] } {
  const all = pinGear(teeth, MODULE, 0);
  return { pins: all.filter((sh) => sh.type === 'ball'), visual: all.filter((sh) => sh.type !== 'ball') };
}
