/**
 * Shapes of simple mechanism parts built from the world's primitives, so that families drive
 * real contacts instead of faking them (a gear train whose teeth mesh, not teleported poses).
 */
import type { ShapeSpec } from './types.ts';
import { finiteNumber, invalid } from './validate.ts';

/**
 * A pin gear (lantern gear) lying flat, axis = the body's +Y: `teeth` balls of radius
 * `0.2·π·m` centred on the pitch circle of radius `r = m·z/2` (module `m`), around a thin hub of
 * radius `r − 2.2·ρ`. The first pin is at `phaseRad` about +Y from +X (right-handed: +X turns
 * towards −Z). Two such gears on axles `r₁ + r₂` apart mesh when one shows the other a gap: give
 * the second a phase of π + π/z₂ when the first's pin at phase 0 points at it. Pins cannot pass
 * through each other, so on average the gears turn at exactly −z₁/z₂ of each other's speed.
 *
 * Why balls: Rapier's ball contacts are exact, and round pins roll through the mesh. Square or
 * trapezoid teeth (boxes, hulls) wedged within the first tooth in Rapier at any friction tried
 * (a 12/24 pair of module 5 mm or 20 mm, step 1/240 or 1/960 s).
 */
export function pinGear(teeth: number, m: number, phaseRad = 0): ShapeSpec[] {
  const z = finiteNumber(teeth, 'teeth', { min: 6, max: 400, integer: true });
  const mod = finiteNumber(m, 'module', { min: 1e-4, max: 1 });
  const phase = finiteNumber(phaseRad, 'phaseRad', { min: -100, max: 100 });
  if (mod * z > 100) invalid('module', 'the gear would be larger than 100 m', mod);
  const r = (mod * z) / 2;
  const pin = 0.2 * Math.PI * mod;
  const shapes: ShapeSpec[] = [{ type: 'cylinder', radius: r - 2.2 * pin, halfHeight: 0.5 * pin }];
  for (let k = 0; k < z; k++) {
    const a = phase + (2 * Math.PI * k) / z;
    shapes.push({ type: 'ball', radius: pin, pose: { p: [r * Math.cos(a), 0, -r * Math.sin(a)], q: [0, 0, 0, 1] } });
  }
  return shapes;
}
