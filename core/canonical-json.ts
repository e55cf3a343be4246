/**
 * Canonical JSON: object keys sorted at every level, so equal data always gives equal text
 * (used for hashing and for snapshotting JSON state).
 */
import { SpaceActError } from './errors.ts';

/**
 * Serialises `value` with sorted object keys. Throws `invalid-argument` for anything that
 * JSON cannot hold exactly (non-finite numbers, functions, symbols, bigints, cycles).
 */
export function canonicalJson(value: unknown, path = 'value'): string {
  const seen = new Set<object>();
  const walk = (v: unknown, at: string): string => {
    if (v === null) return 'null';
    switch (typeof v) {
      case 'boolean':
        return v ? 'true' : 'false';
      case 'string':
        return JSON.stringify(v);
      case 'number':
        if (!Number.isFinite(v)) throw new SpaceActError('invalid-argument', `${at}: ${v} cannot be stored as JSON`, { path: at });
        return JSON.stringify(v);
      case 'object': {
        if (seen.has(v as object)) throw new SpaceActError('invalid-argument', `${at}: circular reference`, { path: at });
        seen.add(v as object);
        let out: string;
        if (Array.isArray(v)) out = `[${v.map((x, i) => walk(x, `${at}[${i}]`)).join(',')}]`;
        else {
          const keys = Object.keys(v as object).filter((k) => (v as Record<string, unknown>)[k] !== undefined).sort();
          out = `{${keys.map((k) => `${JSON.stringify(k)}:${walk((v as Record<string, unknown>)[k], `${at}.${k}`)}`).join(',')}}`;
        }
        seen.delete(v as object);
        return out;
      }
      default:
        throw new SpaceActError('invalid-argument', `${at}: a ${typeof v} cannot be stored as JSON`, { path: at });
    }
  };
  return walk(value, path);
}
