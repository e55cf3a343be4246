/**
 * Option values from the command line (strings, as commander hands them over) or from code
 * (numbers), read strictly and in one way everywhere: the CLI commands, the agents' own
 * options, worker processes. A bad value is an `invalid-argument` error naming the flag.
 */
import { SpaceActError } from './errors.ts';

/** Options from the command line (strings) or from code (numbers). */
export type OptionValues = Record<string, unknown>;

/** Display name of an option: `maxOutputTokens` → `--max-output-tokens`. */
export function flagName(name: string): string {
  return `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/**
 * Reads a numeric option, strictly: a number, or a string that is entirely a number. Anything
 * else (empty, `3x`, NaN, out of range, a fraction where an integer is needed) is an error.
 */
export function numberOption(
  opts: OptionValues,
  name: string,
  limits: { min?: number; max?: number; integer?: boolean } = {},
): number | undefined {
  const raw = opts[name];
  if (raw === undefined || raw === null) return undefined;
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  const bad = (why: string): SpaceActError =>
    new SpaceActError('invalid-argument', `${flagName(name)} ${why}`, { option: name, value: typeof raw === 'string' ? raw.slice(0, 40) : raw });
  if (!Number.isFinite(n)) throw bad('must be a number');
  if (limits.integer && !Number.isInteger(n)) throw bad('must be a whole number');
  if (limits.min !== undefined && n < limits.min) throw bad(`must be at least ${limits.min}`);
  if (limits.max !== undefined && n > limits.max) throw bad(`must be at most ${limits.max}`);
  return n;
}

/** Reads a string option (undefined when absent; an error when not a non-empty string). */
export function stringOption(opts: OptionValues, name: string, allowed?: readonly string[]): string | undefined {
  const raw = opts[name];
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string' || raw.trim() === '') throw new SpaceActError('invalid-argument', `${flagName(name)} must be a non-empty text`, { option: name });
  if (allowed && !allowed.includes(raw)) {
    throw new SpaceActError('invalid-argument', `${flagName(name)} must be one of: ${allowed.join(', ')}`, { option: name, value: raw.slice(0, 40) });
  }
  return raw;
}

/**
 * A comma-separated list option (`--family P6,V1`): its items, trimmed, empty ones dropped;
 * undefined when the option is absent. `invalid-argument` when it is given but lists nothing.
 */
export function listOption(opts: OptionValues, name: string): string[] | undefined {
  const raw = opts[name];
  if (raw === undefined || raw === null) return undefined;
  const items = String(raw).split(',').map((s) => s.trim()).filter(Boolean);
  if (items.length === 0) throw new SpaceActError('invalid-argument', `${flagName(name)} needs at least one item`, { option: name });
  return items;
}
