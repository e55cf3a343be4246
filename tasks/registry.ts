import { compareFamilies, LEVER_BASE_TIER, parseInstanceId, type InstanceIdParts } from '../core/catalog.ts';
import { SpaceActError } from '../core/errors.ts';
import { a1OccludedPacking } from './assembly/a1-occluded-packing/family.ts';
import { a5BlueprintBuild } from './assembly/a5-blueprint-build/family.ts';
import { a6PartToWhole } from './assembly/a6-part-to-whole/family.ts';
import { b1Bridge } from './construction/b1-bridge/family.ts';
import { b4OverhangStack } from './construction/b4-overhang-stack/family.ts';
import { t2IceSlope } from './temporal/t2-ice-slope/family.ts';
import { t3PendulumStrike } from './temporal/t3-pendulum-strike/family.ts';
import { t4Catcher } from './temporal/t4-catcher/family.ts';
import { v1BlockCounting } from './perception/v1-block-counting/family.ts';
import { v5ProjectionAlignment } from './perception/v5-projection-alignment/family.ts';
import { v6ObjectRotation } from './perception/v6-object-rotation/family.ts';
import { p6PegTransfer } from './puzzles/p6-peg-transfer/family.ts';
import { m1ChiralPeg } from './manipulation/m1-chiral-peg/family.ts';
import { t1TunnelTiming } from './temporal/t1-tunnel-timing/family.ts';
import { m2CorridorRod } from './manipulation/m2-corridor-rod/family.ts';
import { m3ApertureThreading } from './manipulation/m3-aperture-threading/family.ts';
import { m4HelicalWire } from './manipulation/m4-helical-wire/family.ts';
import { m5HeartSlot } from './manipulation/m5-heart-slot/family.ts';
import { m6Unlinking } from './manipulation/m6-unlinking/family.ts';
import { v2ChiralOddOneOut } from './perception/v2-chiral-odd-one-out/family.ts';
import { v3RotatedCopy } from './perception/v3-rotated-copy/family.ts';
import { v4RulerReading } from './perception/v4-ruler-reading/family.ts';
import { p1SlidingBlocks } from './puzzles/p1-sliding-blocks/family.ts';
import { p2TrafficJam } from './puzzles/p2-traffic-jam/family.ts';
import { p5PocketCube } from './puzzles/p5-pocket-cube/family.ts';
import { p3CratePushing } from './puzzles/p3-crate-pushing/family.ts';
import { p4GravityMaze } from './puzzles/p4-gravity-maze/family.ts';
import { b2Cantilever } from './construction/b2-cantilever/family.ts';
import { b3Tower } from './construction/b3-tower/family.ts';
import { t5LeverSynthesis } from './temporal/t5-lever-synthesis/family.ts';
import { a2CubeAssembly } from './assembly/a2-cube-assembly/family.ts';
import { a3BlockedInsertion } from './assembly/a3-blocked-insertion/family.ts';
import { t6GearTrain } from './temporal/t6-gear-train/family.ts';
import { b5MultiWall } from './construction/b5-multi-wall/family.ts';
import { unsupportedLever } from './levers.ts';
import { a4Burr } from './assembly/a4-burr/family.ts';
import { b6ObliqueShadow } from './construction/b6-oblique-shadow/family.ts';
import type { Instance, TaskFamily, Tier } from './types.ts';
import { TIERS } from '../core/catalog.ts';

/**
 * Every registered family, in catalog order. Registering a family here puts it under the
 * check-suite, `verify`, `list` and the suites at once.
 */
export const FAMILIES: readonly TaskFamily[] = [p6PegTransfer, v1BlockCounting, m1ChiralPeg, t1TunnelTiming, a1OccludedPacking, b1Bridge, v5ProjectionAlignment, v6ObjectRotation, a6PartToWhole, a5BlueprintBuild, v2ChiralOddOneOut, v3RotatedCopy, v4RulerReading, p1SlidingBlocks, p2TrafficJam, p5PocketCube, p3CratePushing, p4GravityMaze, m2CorridorRod, m3ApertureThreading, m4HelicalWire, m5HeartSlot, m6Unlinking, b4OverhangStack, t2IceSlope, t3PendulumStrike, t4Catcher, b2Cantilever, b3Tower, t5LeverSynthesis, a2CubeAssembly, a3BlockedInsertion, t6GearTrain, b5MultiWall, a4Burr, b6ObliqueShadow] as TaskFamily[];

/** Families sorted by catalog order (category, then number). */
export function families(): TaskFamily[] {
  return [...FAMILIES].sort((a, b) => compareFamilies(a.id, b.id));
}

/** The family with this id, or a clear error listing the known ones. */
export function getFamily(id: string): TaskFamily {
  const f = FAMILIES.find((x) => x.id === id.toUpperCase());
  if (!f) {
    throw new SpaceActError('unknown-family', `unknown family "${id}"; known: ${families().map((x) => x.id).join(', ')}`, { family: id });
  }
  return f;
}

/** Tiers a family defines, in order. */
export function tiersOf(family: TaskFamily): Tier[] {
  return TIERS.filter((t) => family.tiers[t]);
}

/** The hardest tier a family defines (L7 where it has one). */
export function hardestTier(family: TaskFamily): Tier {
  const t = tiersOf(family);
  return t[t.length - 1];
}

/** The levers a family supports as single-factor studies over L5 (`+tool`, …), in declared order. */
export function leversOf(family: TaskFamily): string[] {
  return Object.keys(family.levers ?? {});
}

/**
 * The family as a lever study sees it: the same family, whose `generate(seed, tier)` gives the
 * tier with `lever` on (only L5 is allowed, see `tasks/levers.ts`). Everything that regenerates
 * other seeds of an instance's tier — verify's determinism and text checks, the random baseline,
 * the shortcut battery and its fitted agents — then works on the lever study unchanged. Its
 * `tiers` hold only L5, described with the lever; the family's own `candidates` (which
 * enumerate plain L5 worlds) are left out, so an adaptive agent samples this generator instead.
 * Without a lever the family itself.
 */
export function familyAtLever<Scene>(family: TaskFamily<Scene>, lever: string | undefined): TaskFamily<Scene> {
  if (lever === undefined) return family;
  const info = family.levers?.[lever];
  if (!info) throw unsupportedLever(family.id, LEVER_BASE_TIER, lever, leversOf(family as TaskFamily));
  const { candidates: _enumeratesPlainL5, ...rest } = family;
  return {
    ...rest,
    tiers: { [LEVER_BASE_TIER]: { levers: [lever], description: info.description } },
    generate: (seed: number, tier: Tier) => family.generate(seed, tier, lever),
  };
}

/**
 * Generates the instance an id names, checking the family defines that tier (and supports the
 * lever, for a lever study such as `M5-L5+tool-s100`). The family returned is the one the
 * instance's other seeds come from: {@link familyAtLever} for a lever study.
 */
export function familyAndInstanceFromId(id: string): { family: TaskFamily; instance: Instance } {
  const p = checkInstanceId(id);
  const family = familyAtLever(getFamily(p.family), p.lever);
  if (!family.tiers[p.tier]) {
    throw new SpaceActError('unknown-instance', `${family.id} has no tier ${p.tier}; tiers: ${tiersOf(family).join(', ')}`, { instance: id });
  }
  return { family, instance: family.generate(p.seed, p.tier) };
}

/**
 * The instance an id names, generated (a pure function of family, tier and seed). Use
 * {@link familyAndInstanceFromId} when the family object is needed too (to play its reference,
 * or to generate the tier's other seeds).
 */
export function instanceFromId(id: string): Instance {
  return familyAndInstanceFromId(id).instance;
}

/**
 * {@link parseInstanceId} checked against the registry: an id shaped right but with a tier its
 * family does not define (`P6-L9-s100`, `P6-L2-s1`) is refused naming the family's tiers,
 * rather than as "not an instance id"; a lever the family does not support
 * (`P6-L5+tool-s100`) is refused naming the levers it does.
 */
export function checkInstanceId(id: string): InstanceIdParts {
  const m = /^([A-Za-z][0-9]+)-(L[0-9]{1,3})(\+[a-z]{2,16})?-s([0-9]{1,9})$/.exec(id);
  const known = m ? FAMILIES.find((f) => f.id === m[1].toUpperCase()) : undefined;
  if (m && known && !known.tiers[m[2] as Tier]) {
    throw new SpaceActError('unknown-instance', `${known.id} has no tier ${m[2]}; tiers: ${tiersOf(known).join(', ')}`, { instance: id });
  }
  const parts = parseInstanceId(id);
  if (parts.lever !== undefined && known && !known.levers?.[parts.lever]) {
    const e = unsupportedLever(known.id, parts.tier, parts.lever, leversOf(known));
    throw new SpaceActError(e.code, `"${id}": ${e.message}`, { instance: id, ...e.details });
  }
  return parts;
}
