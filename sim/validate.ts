/**
 * Input validation shared by the world and by tool arguments.
 *
 * Every check throws a {@link SpaceActError} (code `invalid-argument` unless noted) whose
 * message names the offending field by a path such as `target.q[3]` or `spec.shapes[1].half`,
 * says what was wrong and what is accepted. Checks never mutate their input; the ones that
 * return a value return a fresh, normalised copy.
 */
import { SpaceActError } from '../core/errors.ts';
import type { Pose, Quat, Vec3 } from './types.ts';

/** Largest accepted |coordinate| of a position, metres. */
export const MAX_POSITION = 1e3;
/** Largest accepted |component| of a linear velocity, m/s. */
export const MAX_SPEED = 1e3;
/** Largest accepted angle or angular speed, radians (or rad/s). */
export const MAX_ANGLE = 1e4;
/** Largest accepted |quaternion norm − 1| before a quaternion counts as non-unit. */
export const QUAT_NORM_TOLERANCE = 1e-3;

/** Options of {@link finiteNumber}. */
export interface NumberBounds {
  /** Inclusive lower bound. */
  min?: number;
  /** Inclusive upper bound. */
  max?: number;
  /** Exclusive lower bound (e.g. `0` for "positive"). */
  above?: number;
  /** Require an integer. */
  integer?: boolean;
}

function describe(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  return `a ${typeof value}`;
}

function fail(path: string, message: string, value: unknown): never {
  throw new SpaceActError('invalid-argument', `${path}: ${message}`, { path, value: describe(value) });
}

/** A finite number within the given bounds. */
export function finiteNumber(value: unknown, path: string, bounds: NumberBounds = {}): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    fail(path, `expected a finite number, got ${describe(value)}`, value);
  }
  if (bounds.integer && !Number.isInteger(value)) fail(path, `expected an integer, got ${value}`, value);
  if (bounds.above !== undefined && !(value > bounds.above)) {
    fail(path, `must be greater than ${bounds.above}, got ${value}`, value);
  }
  if (bounds.min !== undefined && value < bounds.min) fail(path, `must be at least ${bounds.min}, got ${value}`, value);
  if (bounds.max !== undefined && value > bounds.max) fail(path, `must be at most ${bounds.max}, got ${value}`, value);
  return value;
}

/** A non-empty string of at most `maxLength` characters. */
export function nonEmptyString(value: unknown, path: string, maxLength = 200): string {
  if (typeof value !== 'string' || value.length === 0) fail(path, `expected a non-empty string, got ${describe(value)}`, value);
  if (value.length > maxLength) fail(path, `must be at most ${maxLength} characters`, value);
  return value;
}

/** A boolean. */
export function booleanValue(value: unknown, path: string): boolean {
  if (typeof value !== 'boolean') fail(path, `expected true or false, got ${describe(value)}`, value);
  return value;
}

/** One of the listed string values. */
export function oneOf<T extends string>(value: unknown, path: string, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    fail(path, `expected one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}, got ${describe(value)}`, value);
  }
  return value as T;
}

/** A `[x, y, z]` of finite numbers, each with |component| ≤ `maxAbs`. */
export function vec3(value: unknown, path: string, maxAbs = MAX_POSITION): Vec3 {
  if (!Array.isArray(value) || value.length !== 3) fail(path, `expected [x, y, z], got ${describe(value)}`, value);
  const out: Vec3 = [0, 0, 0];
  for (let i = 0; i < 3; i++) {
    out[i] = finiteNumber(value[i], `${path}[${i}]`, { min: -maxAbs, max: maxAbs });
  }
  return out;
}

/** A `[x, y, z]` whose length is positive (e.g. a direction or an axis); returned normalised. */
export function direction(value: unknown, path: string): Vec3 {
  const v = vec3(value, path);
  const n = Math.hypot(v[0], v[1], v[2]);
  if (!(n > 1e-9)) fail(path, 'expected a non-zero direction vector', value);
  return [v[0] / n, v[1] / n, v[2] / n];
}

/**
 * A unit quaternion `[x, y, z, w]`. Norms within {@link QUAT_NORM_TOLERANCE} of 1 are accepted
 * (rounded input from a person or a model) and returned normalised; anything else, including the
 * zero quaternion, is rejected.
 */
export function unitQuat(value: unknown, path: string): Quat {
  if (!Array.isArray(value) || value.length !== 4) fail(path, `expected a quaternion [x, y, z, w], got ${describe(value)}`, value);
  const q: Quat = [0, 0, 0, 1];
  for (let i = 0; i < 4; i++) q[i] = finiteNumber(value[i], `${path}[${i}]`, { min: -2, max: 2 });
  const n = Math.hypot(q[0], q[1], q[2], q[3]);
  if (n === 0) fail(path, 'the zero quaternion is not a rotation', value);
  if (Math.abs(n - 1) > QUAT_NORM_TOLERANCE) {
    fail(path, `quaternion must have unit length (norm ${n.toPrecision(6)}); normalise it first`, value);
  }
  return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
}

/** A pose `{ p, q }` with a bounded position and a unit quaternion; returned normalised. */
export function pose(value: unknown, path: string): Pose {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(path, `expected a pose { p: [x, y, z], q: [x, y, z, w] }, got ${describe(value)}`, value);
  }
  const v = value as { p?: unknown; q?: unknown };
  return { p: vec3(v.p, `${path}.p`), q: unitQuat(v.q, `${path}.q`) };
}

/** An angle in degrees with |angle| ≤ {@link MAX_ANGLE} radians. */
export function angleDeg(value: unknown, path: string): number {
  const maxDeg = (MAX_ANGLE * 180) / Math.PI;
  return finiteNumber(value, path, { min: -maxDeg, max: maxDeg });
}

/** A plain object (not null, not an array). */
export function plainObject(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(path, `expected an object, got ${describe(value)}`, value);
  }
  return value as Record<string, unknown>;
}

/** An array, optionally with a length range. */
export function arrayOf(value: unknown, path: string, minLength = 0, maxLength = 1e6): unknown[] {
  if (!Array.isArray(value)) fail(path, `expected an array, got ${describe(value)}`, value);
  if (value.length < minLength) fail(path, `expected at least ${minLength} entries, got ${value.length}`, value);
  if (value.length > maxLength) fail(path, `expected at most ${maxLength} entries, got ${value.length}`, value);
  return value;
}

/** A CSS colour string (`#rgb`, `#rrggbb`, `#rrggbbaa`, or a named/functional colour). */
export function cssColor(value: unknown, path: string): string {
  const s = nonEmptyString(value, path, 64);
  if (!/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/.test(s) && !/^[a-zA-Z]+$/.test(s) && !/^(rgb|rgba|hsl|hsla)\([0-9.,%\s]+\)$/.test(s)) {
    fail(path, `expected a CSS colour such as "#c0392b", got ${describe(value)}`, value);
  }
  return s;
}

/** Throws an `invalid-argument` error for `path` (for checks that do not fit a helper). */
export function invalid(path: string, message: string, value?: unknown): never {
  fail(path, message, value);
}
