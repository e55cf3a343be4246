/**
 * Answer-position balance of the multiple-choice families over many generated instances
 * (default 1,000 per family and form): counts per place, Pearson's chi-square against uniform,
 * and the 0.1 % bound (verify/answer-positions.ts). Exits non-zero when a family of `--strict`
 * is off. Run: `npx tsx bench/answer-positions.ts [--n 1000] [--family V2,V3,A6,V6] [--strict V2,V3]`.
 */
import { getFamily, tiersOf } from '../tasks/registry.ts';
import { instancesOver, tallyPlaces } from '../verify/answer-positions.ts';

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const n = Number(arg('n', '1000'));
const ids = arg('family', 'V2,V3,A6,V6').split(',');
const strict = new Set(arg('strict', 'V2,V3').split(','));
let failed = false;
for (const id of ids) {
  const family = getFamily(id);
  // A6 has two forms: the assembly (seeds below 1000, every tier) and the seed's four-option
  // question (seeds from 1000, the `polycomp` tier L5).
  const forms: Array<{ label: string; seeds: number[]; tiers: readonly string[] }> =
    id === 'A6'
      ? [
          { label: 'assembly form', seeds: Array.from({ length: n }, (_, i) => i), tiers: tiersOf(family) },
          { label: 'question form', seeds: Array.from({ length: n }, (_, i) => 1000 + i), tiers: ['L5'] },
        ]
      : [{ label: 'all tiers', seeds: Array.from({ length: n }, (_, i) => i), tiers: tiersOf(family) }];
  for (const form of forms) {
    const started = performance.now();
    const tallies = tallyPlaces(family, instancesOver(family, form.seeds, form.tiers as never));
    const secs = ((performance.now() - started) / 1000).toFixed(0);
    for (const t of tallies) {
      const line = `${id} ${form.label}: ${t.count} options, n=${t.n}, by place [${t.byPlace.join(', ')}], chi2 ${t.chi2.toFixed(2)} (bound ${t.bound}, df ${t.count - 1}) ${t.pass ? 'ok' : 'OFF'}`;
      console.log(line);
      if (!t.pass && strict.has(id)) failed = true;
    }
    console.log(`${id} ${form.label}: ${form.seeds.length} instances in ${secs} s`);
  }
}
process.exit(failed ? 1 : 0);
