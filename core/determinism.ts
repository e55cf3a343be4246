/**
 * One rounding rule for every number that must come out the same on every run and machine:
 * instance fields, derived geometry, camera settings after a tool call, summary figures.
 *
 * Rounding to a fixed number of decimals takes float noise out of generated numbers (and out
 * of trigonometry, which may differ between engines in the last bits), so an instance prints,
 * hashes and deep-compares the same everywhere. Negative zero is always turned into zero: JSON
 * writes both as `0`, so a value that still held `-0` would not survive a round trip through a
 * file unchanged, and `Object.is` / sign-sensitive maths would tell the two apart.
 */

/** `x` with `-0` turned into `0` (every other value unchanged). */
export function noNegativeZero(x: number): number {
  return x + 0;
}

/** `x` rounded to `decimals` places (halves upwards, as `Math.round`), never `-0`. */
export function roundTo(x: number, decimals: number): number {
  const k = 10 ** decimals;
  return Math.round(x * k) / k + 0;
}

/** `x` rounded to 1e-9 (nanometres for positions, nano-units otherwise), never `-0`: the default for generated numbers. */
export function round9(x: number): number {
  return roundTo(x, 9);
}
