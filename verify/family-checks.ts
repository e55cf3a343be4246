/**
 * The check-suite's checks of one family × tier that issue 36 added, as functions, so that the
 * check-suite (`test/check-suite-<category>.test.ts`) runs them over every registered family and the tests
 * can show each one failing a hand-built family: the text-leak check, the claims check, purity
 * over several seeds, and replays compared call by call.
 */
import { AGENTS } from '../agents/agent-registry.ts';
import type { Instance, TaskFamily, Tier } from '../tasks/types.ts';
import { checkClaims } from './claims.ts';
import { firstPoseDifference, purityProblems, PURITY_SEEDS } from './determinism.ts';
import { CHECK_SUITE_TEXT_SEEDS, episodeTextLeaks, episodeTexts, seedVaryingNumbers, staticTextLeaks } from './text-leak.ts';
import { VARYING_NUMBER_SEEDS, type ReferenceRun } from './verify.ts';

/** Turns of the seeded random agent whose results the text-leak check reads. */
export const TEXT_RANDOM_TURNS = 3;

/** Instances of one tier generated once and shared by the checks (seed → instance). */
export class TierInstances {
  private readonly made = new Map<number, Instance>();
  constructor(
    readonly family: TaskFamily,
    readonly tier: Tier,
  ) {}

  /** Records an instance generated elsewhere (it counts as its seed's first generation). */
  set(instance: Instance): void {
    this.made.set(instance.seed, instance);
  }

  /** The instance of `seed`, generated on first use. */
  get(seed: number): Instance {
    let i = this.made.get(seed);
    if (!i) this.made.set(seed, (i = this.family.generate(seed, this.tier)));
    return i;
  }

  /** The instances of `seeds`, generated on first use, by seed. */
  of(seeds: readonly number[]): Map<number, Instance> {
    return new Map(seeds.map((s) => [s, this.get(s)] as const));
  }
}

/** Seeds `from`, `from`+1, … (`count` of them). */
export function seedRange(from: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => from + i);
}

/**
 * The text-leak check on one family × tier: instance text alike over `seeds` (default 0 …
 * {@link CHECK_SUITE_TEXT_SEEDS}−1), and
 * the text of the given reference episode and of a seeded random agent's first turns free of
 * percentages, lengths, angles and seed-varying numbers. One line per leak.
 */
export async function textLeakProblems(
  instances: TierInstances,
  instance: Instance,
  reference: ReferenceRun | null,
  opts: { seeds?: readonly number[]; randomTurns?: number } = {},
): Promise<string[]> {
  const { family, tier } = instances;
  const seeds = opts.seeds ?? seedRange(0, CHECK_SUITE_TEXT_SEEDS);
  const problems = [...staticTextLeaks(family, tier, seeds, instances.of(seeds)).problems];
  // The seed-varying numbers are told apart on the seeds already generated.
  const others = [...instances.of(seeds.length > 1 ? seeds : seedRange(0, VARYING_NUMBER_SEEDS + 1)).values()].filter((o) => o.seed !== instance.seed).slice(0, VARYING_NUMBER_SEEDS);
  const varying = seedVaryingNumbers(instance, others, reference?.solution ?? null);
  if (reference) problems.push(...episodeTextLeaks(family, instance, reference.texts, varying, 'reference episode'));
  const random = Object.hasOwn(AGENTS, 'random') ? AGENTS.random({ seed: 0 }) : null;
  if (random) {
    const texts = await episodeTexts(family, instance, random, opts.randomTurns ?? TEXT_RANDOM_TURNS);
    problems.push(...episodeTextLeaks(family, instance, texts, varying, 'random agent (seed 0)'));
  }
  return problems;
}

/**
 * The reference's claims checked against the family's search and the minimality probe (`run`
 * played with `probe`; a family with a search of its own may be played without, see
 * {@link probeInCheckSuite}).
 */
export function claimProblems(family: TaskFamily, instance: Instance, run: ReferenceRun): string[] {
  if (run.problem) return [`${instance.id}: ${run.problem}`];
  if (!run.minimality && !family.shortestSolutions) return [`${instance.id}: the reference episode ran no minimality probe (play it with probe: true)`];
  return checkClaims(family, instance, run.solution, run.referenceActions, run.minimality).problems.map((p) => `${instance.id}: ${p}`);
}

/**
 * Whether the check-suite runs the minimality probe for a family: only where it has no search
 * of its own. The search settles optimality exactly, and the probe's replays cost as much as
 * the reference episode on a long physical script (P6-L7: 123 replays, 329 calls, 100 s on a
 * loaded machine); `spaceact verify` runs both everywhere.
 */
export function probeInCheckSuite(family: TaskFamily): boolean {
  return !family.shortestSolutions;
}

/** Purity: `seeds` of the tier (default 0 … {@link PURITY_SEEDS}−1) generated three times, the first from `instances`. */
export function purityCheck(instances: TierInstances, seeds: readonly number[] = seedRange(0, PURITY_SEEDS)): string[] {
  return purityProblems(instances.family, instances.tier, seeds, { first: instances.of(seeds) });
}

/**
 * Two replays of the same calls: null when they agree on every state hash, else where they
 * part — the first call and body whose pose differs (both runs played with `trace`).
 */
export function replayMismatch(a: ReferenceRun, b: ReferenceRun): string | null {
  const same = a.stateHashes.length === b.stateHashes.length && a.stateHashes.every((h, i) => h === b.stateHashes[i]) && a.outcome.finalStateHash === b.outcome.finalStateHash;
  if (same) return null;
  const turn = a.stateHashes.findIndex((h, i) => h !== b.stateHashes[i]) + 1;
  const where = a.poses && b.poses ? firstPoseDifference(a.poses, b.poses) : null;
  return `the replays part at turn ${turn || a.stateHashes.length}: ${where ?? 'every body pose agrees after every call, so the difference is in velocities, time or family state'}`;
}
