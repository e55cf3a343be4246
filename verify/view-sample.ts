/**
 * The view rule over a sample of seeds (issue 36 item 7, issue 32): a family × tier's first
 * views are held to the same rule as its released instance's, on the first seeds the shortcut
 * battery judges — so a picture that hides its goal or cuts a part at one seed in five is found
 * by `verify`, not only by someone who happens to render that seed.
 */
import type { Renderer } from '../render/renderer.ts';
import { TaskEnv } from '../tasks/env.ts';
import { familyAtLever, getFamily } from '../tasks/registry.ts';
import type { Instance, TaskFamily, Tier } from '../tasks/types.ts';
import { checkFirstView } from '../tasks/view-rule.ts';
import { batterySeedLists } from './battery.ts';

/** Seeds per family × tier whose first view `verify` holds to the view rule (beside the released instance's). */
export const VERIFY_VIEW_SEEDS = 20;

/** One family × tier's first views over a sample of seeds. */
export interface ViewSampleReport {
  family: string;
  tier: Tier;
  /** The lever of a single-factor lever study, when the tier carries one. */
  lever?: string;
  /** How many seeds' first views were checked (judged seeds, then training seeds when asked). */
  seeds: number;
  passed: boolean;
  /** Each instance whose first view breaks the rule, with the rule's sentences. */
  failures: Array<{ instance: string; problems: string[] }>;
}

/** Which seeds of a family × tier {@link viewSampleRecord} checks. */
export interface ViewSampleSeeds {
  /** The first `judged` seeds the battery judges (0, 1, … or the family's own `batterySeeds`). */
  judged: number;
  /**
   * Also the training seeds the battery plays with this many training seeds per tier (the most
   * any of its strategies asks for, as the battery counts them); absent: none.
   */
  training?: number;
}

/**
 * The first views of a family × tier's battery seeds (`judged` of its judged seeds, and its
 * training seeds when asked), each held to the view rule with `renderer`. A bare number is
 * `{ judged: n }`. `instances` gives each seed's instance when the caller has made (or will
 * make) them for another check of the same family × tier; it must be that family × tier's.
 */
export async function viewSampleRecord(
  familyOrId: string | TaskFamily,
  tier: Tier,
  sample: number | ViewSampleSeeds,
  renderer: Renderer,
  lever?: string,
  instances?: { get(seed: number): Instance },
): Promise<ViewSampleReport> {
  const family = familyAtLever(typeof familyOrId === 'string' ? getFamily(familyOrId) : familyOrId, lever);
  const { judged, training } = typeof sample === 'number' ? { judged: sample, training: undefined } : sample;
  const lists = batterySeedLists(family, { seeds: judged, ...(training !== undefined ? { training } : {}) });
  const seeds = training === undefined ? lists.judged : [...lists.judged, ...lists.training];
  const failures: ViewSampleReport['failures'] = [];
  for (const seed of seeds) {
    const env = await TaskEnv.create(family, instances ? instances.get(seed) : family.generate(seed, tier));
    try {
      const verdict = await checkFirstView(env, renderer);
      if (verdict.problems.length) failures.push({ instance: env.instance.id, problems: verdict.problems });
    } finally {
      env.free();
    }
  }
  return { family: family.id, tier, ...(lever ? { lever } : {}), seeds: seeds.length, passed: failures.length === 0, failures };
}
