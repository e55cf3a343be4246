/**
 * The check-suite: every registered family × tier, the same checks. A family is covered the
 * moment it is registered in `tasks/registry.ts`. It is split by category into one test file each
 * (`test/check-suite-<category>.test.ts`) so that mocha's parallel workers share it: as one file
 * it was the longest single job of `npm test` and set its wall time.
 */
import type { Category } from '../../core/catalog.ts';
import { expect } from 'chai';
import { Renderer } from '../../render/renderer.ts';
import { TaskEnv } from '../../tasks/env.ts';
import { assertInstance } from '../../tasks/instance-schema.ts';
import { families, tiersOf } from '../../tasks/registry.ts';
import type { Instance, TaskFamily, Tier } from '../../tasks/types.ts';
import { checkFirstView } from '../../tasks/view-rule.ts';
import { QUICK_BATTERY, quickBatteryProblems } from '../../verify/battery.ts';
import { runNullPolicy, runReference, type ReferenceRun } from '../../verify/verify.ts';
import { PURITY_GENERATIONS, PURITY_SEEDS } from '../../verify/determinism.ts';
import { claimProblems, probeInCheckSuite, purityCheck, replayMismatch, seedRange, textLeakProblems, TierInstances } from '../../verify/family-checks.ts';

const SEED = 100;
/** Seeds whose instances must not all be the same task. */
const OTHER_SEEDS = [101, 102, 103, 104, 105, 106, 107];
/**
 * Seeds whose instance text must read alike: the eight generated anyway (some generators take
 * seconds per instance), or SPACEACT_TEXT_SEEDS of them (e.g. 30) from seed 100; `spaceact
 * verify` compares 100.
 */
const TEXT_SEEDS = process.env.SPACEACT_TEXT_SEEDS ? seedRange(SEED, Number(process.env.SPACEACT_TEXT_SEEDS)) : [SEED, ...OTHER_SEEDS];

/** The first observation as the agent would see it: one view, or the strobe strip of a moving world. */
async function firstImage(renderer: Renderer, env: TaskEnv): Promise<Buffer> {
  if (env.instance.dynamic) return (await env.strobeStrip(renderer)).png;
  return renderer.render(env.scene(), env.camera, env.frameSize(renderer));
}

/**
 * Where a value is not plain JSON: undefined, functions, non-finite numbers, class instances.
 * (-0 is allowed: it is written as 0 and reads back equal.)
 */
function jsonProblems(v: unknown, path: string): string[] {
  const at = path || '(root)';
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return [];
  if (typeof v === 'number') return Number.isFinite(v) ? [] : [`${at}: ${v}`];
  if (Array.isArray(v)) return v.flatMap((x, i) => jsonProblems(x, `${path}[${i}]`));
  if (typeof v === 'object') {
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return [`${at}: a ${(v as object).constructor?.name ?? 'non-plain'} object`];
    return Object.entries(v).flatMap(([k, x]) => jsonProblems(x, path ? `${path}.${k}` : k));
  }
  return [`${at}: ${typeof v}`];
}

/** The task an instance poses, without the fields that name its seed. */
function task(instance: Instance): Omit<Instance, 'id' | 'seed'> {
  const { id: _id, seed: _seed, ...rest } = instance;
  return rest;
}

/**
 * Declares the check-suite for every registered family of one category (restricted further by
 * `SPACEACT_FAMILIES=P6,V1`, as `scripts/check-family.sh` does).
 */
export function describeCheckSuite(category: Category): void {
  describe(`check-suite (every registered family × tier): category ${category}`, function () {
    // A long reference (a 60-move L7 puzzle) is a few hundred physical actions per episode.
    this.timeout(600_000);
    const renderer = new Renderer({ frameCache: 0 });
    after(async () => {
      await renderer.close();
    });

    // SPACEACT_FAMILIES=P6,V1 restricts the suite to those families (`scripts/check-family.sh`).
    const only = (process.env.SPACEACT_FAMILIES ?? '').split(',').map((x) => x.trim().toUpperCase()).filter(Boolean);
    for (const family of (families() as TaskFamily[]).filter((f) => f.category === category && (only.length === 0 || only.includes(f.id)))) {
      describe(`${family.id} ${family.title}`, () => {
        for (const tier of tiersOf(family) as Tier[]) {
          describe(tier, () => {
            const instance = family.generate(SEED, tier);
            // Seeds 0 … 29 of the tier, generated once for the text-leak and purity checks.
            const tierInstances = new TierInstances(family, tier);
            tierInstances.set(instance);
            let first: (ReferenceRun & { png: Buffer }) | null = null;
            const playReference = async (): Promise<ReferenceRun & { png: Buffer }> => {
              let png: Buffer | null = null;
              const run = await runReference(family, instance, {
                probe: probeInCheckSuite(family),
                trace: true,
                onStart: async (env) => {
                  png = await firstImage(renderer, env);
                },
              });
              return { ...run, png: png! };
            };

            it('generate is pure: the same seed and tier give a deep-equal instance of plain JSON', () => {
              expect(family.generate(SEED, tier)).to.deep.equal(instance);
              expect(jsonProblems(instance, '')).to.deep.equal([]);
            });

            // At the family's first tier only: some generators take seconds per instance (V1, V3 ~3 s),
            // and eight more generations per tier would cost the suite minutes. Each extra generation
            // halves the chance a one-bit Math.random goes unseen: eight miss it 1 time in 256.
            if (tier === tiersOf(family)[0]) {
              it(`generate is pure over ${PURITY_SEEDS} seeds, each generated ${PURITY_GENERATIONS} times (finds one-bit randomness)`, () => {
                const problems = purityCheck(tierInstances, [SEED, ...OTHER_SEEDS].slice(0, PURITY_SEEDS));
                expect(problems, problems.join('\n')).to.deep.equal([]);
              });
            }

            it('different seeds give different tasks', () => {
              const others = OTHER_SEEDS.map((s) => tierInstances.get(s));
              others.forEach((o, i) => expect(o.id).to.equal(`${family.id}-${tier}-s${OTHER_SEEDS[i]}`));
              const distinct = new Set([instance, ...others].map((x) => JSON.stringify(task(x))));
              expect(distinct.size, `seeds ${SEED}, ${OTHER_SEEDS.join(', ')} all give the same task`).to.be.greaterThan(1);
            });

            it('the instance validates against the schema', () => {
              assertInstance(instance, instance.id);
              expect(instance.tier).to.equal(tier);
              expect(instance.family).to.equal(family.id);
              expect(instance.version).to.equal(family.version);
            });

            it('the reference solves it through the episode loop, with no violation', async () => {
              first = await playReference();
              expect(first.problem, first.problem ?? '').to.equal(null);
              expect(first.outcome.solved).to.equal(true);
              expect(first.outcome.violations).to.equal(0);
              expect(first.outcome.actions).to.equal(first.referenceActions);
            });

            it('the reference claims only what the family search and the minimality probe confirm', async () => {
              first ??= await playReference();
              const problems = claimProblems(family, instance, first);
              expect(problems, problems.join('\n')).to.deep.equal([]);
            });

            it(`no text leak: instance text alike over ${TEXT_SEEDS.length} seeds but for textVaries; no percentage, distance, angle or seed-varying number in what an episode says`, async () => {
              first ??= await playReference();
              const problems = await textLeakProblems(tierInstances, instance, first, { seeds: TEXT_SEEDS });
              expect(problems, problems.join('\n')).to.deep.equal([]);
            });

            it('the first view shows every part the rules mention, rulers readable, nothing cut (view rule)', async () => {
              const env = await TaskEnv.create(family, instance);
              try {
                const verdict = await checkFirstView(env, renderer);
                expect(verdict.problems, verdict.problems.join('\n')).to.deep.equal([]);
              } finally {
                env.free();
              }
            });

            it('the null policy does not solve it', async () => {
              const outcome = await runNullPolicy(family, instance);
              expect(outcome.solved, `${instance.id} is solved by doing nothing (${outcome.endReason})`).to.equal(false);
            });

            // At the family's hardest tier only (its world has the most bodies and moves): a second
            // reference episode per tier was an eighth of the check-suite's time. Every tier's
            // released instance is still replayed against its golden state hashes by the fixtures
            // check (test/verify-fixtures.test.ts), which a one-bit difference fails as well.
            if (tier === tiersOf(family)[tiersOf(family).length - 1])
            it('the same calls replayed give the same state hash every turn and the same first image bytes', async () => {
              first ??= await playReference();
              const second = await playReference();
              const mismatch = replayMismatch(first, second);
              expect(mismatch, mismatch ?? '').to.equal(null);
              expect(second.png.length).to.be.greaterThan(1000);
              expect(second.png.equals(first.png), 'first-observation PNG bytes differ between replays').to.equal(true);
            });
          });
        }

        it(`no sightless agent is far over its bound (quick shortcut battery: ${QUICK_BATTERY.seeds} seeds per tier)`, async () => {
          const problems = await quickBatteryProblems(family);
          expect(problems, problems.join('\n')).to.deep.equal([]);
        });
      });
    }
  });
}
