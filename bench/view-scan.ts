/**
 * The view rule over many seeds at once, for authors fixing pictures: every family × tier (or
 * those named) × the first N judged battery seeds, one line per instance that breaks the rule,
 * and a JSON line per picture (declaration less its scene, and the measurement) for study.
 * `--training N` adds the battery's training seeds with N per tier (as `verify` checks them;
 * default 8, 0 leaves them out); `--training-only` checks those alone (the judged seeds still count
 * for where training seeds start).
 *   npx tsx bench/view-scan.ts [--families P3,M2] [--tiers L7] [--seeds 20] [--training 8 [--training-only]] [--out FILE.jsonl]
 */
import { writeFileSync, appendFileSync } from 'node:fs';
import { Renderer } from '../render/renderer.ts';
import { TaskEnv } from '../tasks/env.ts';
import { FAMILIES } from '../tasks/registry.ts';
import { checkFirstView } from '../tasks/view-rule.ts';
import { batterySeedLists, DEFAULT_BATTERY_TRAINING } from '../verify/battery.ts';
import type { Tier } from '../tasks/types.ts';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const only = arg('families')?.split(',');
const tiers = arg('tiers')?.split(',');
const count = Number(arg('seeds') ?? 20);
const training = Number(arg('training') ?? DEFAULT_BATTERY_TRAINING);
const out = arg('out');
if (out) writeFileSync(out, '');
const renderer = new Renderer({ frameCache: 0 });
let bad = 0;
let total = 0;
try {
  for (const family of FAMILIES.filter((f) => !only || only.includes(f.id))) {
    const lists = batterySeedLists(family, { seeds: count, training });
    const seeds = process.argv.includes('--training-only') ? lists.training : training > 0 ? [...lists.judged, ...lists.training] : lists.judged;
    for (const tier of Object.keys(family.tiers) as Tier[]) {
      if (tiers && !tiers.includes(tier)) continue;
      let tierBad = 0;
      for (const seed of seeds) {
        const env = await TaskEnv.create(family, family.generate(seed, tier));
        try {
          const v = await checkFirstView(env, renderer);
          total++;
          if (v.problems.length) {
            bad++;
            tierBad++;
            for (const p of v.problems) console.log(p);
          }
          if (out) {
            const decl = env.viewDeclarations() ?? [];
            v.views.forEach((view, i) => {
              const { scene: _scene, ...req } = decl[i] ?? {};
              appendFileSync(out, JSON.stringify({ id: env.instance.id, label: view.label, req, measurement: view.measurement }) + '\n');
            });
          }
        } finally {
          env.free();
        }
      }
      console.error(`${family.id}-${tier}: ${tierBad}/${seeds.length} break the view rule`);
    }
  }
} finally {
  await renderer.close();
}
console.error(`${bad}/${total} instances break the view rule`);
process.exitCode = bad ? 1 : 0;
