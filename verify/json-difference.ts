/**
 * Where two JSON values first differ: what the fixtures check and the purity check report
 * (a file of its own, so the determinism checks need not import the fixture builder).
 */

function describe(v: unknown): string {
  const text = JSON.stringify(v);
  if (text === undefined) return 'missing';
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * The first place two JSON values differ, as `path: fixture X, regenerated Y`, or null when
 * they are equal. Objects are walked in key order, arrays by index.
 */
export function firstDifference(fixture: unknown, regenerated: unknown, path = ''): string | null {
  const here = path || '(root)';
  if (Array.isArray(fixture) && Array.isArray(regenerated)) {
    const n = Math.max(fixture.length, regenerated.length);
    for (let i = 0; i < n; i++) {
      if (i >= fixture.length || i >= regenerated.length) {
        return `${path}[${i}]: fixture ${describe(fixture[i])}, regenerated ${describe(regenerated[i])} (lengths ${fixture.length} and ${regenerated.length})`;
      }
      const d = firstDifference(fixture[i], regenerated[i], `${path}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  const isObj = (x: unknown): x is Record<string, unknown> => !!x && typeof x === 'object' && !Array.isArray(x);
  if (isObj(fixture) && isObj(regenerated)) {
    const keys = [...new Set([...Object.keys(fixture), ...Object.keys(regenerated)])].sort();
    for (const k of keys) {
      const p = path ? `${path}.${k}` : k;
      if (!(k in fixture) || !(k in regenerated)) return `${p}: fixture ${describe(fixture[k])}, regenerated ${describe(regenerated[k])}`;
      const d = firstDifference(fixture[k], regenerated[k], p);
      if (d) return d;
    }
    return null;
  }
  if (Object.is(fixture, regenerated) || (fixture === 0 && regenerated === 0)) return null;
  return `${here}: fixture ${describe(fixture)}, regenerated ${describe(regenerated)}`;
}
