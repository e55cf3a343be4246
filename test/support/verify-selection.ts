import type { VerifyAllOptions } from '../../verify/verify-all.ts';

/**
 * A small verification for tests that compare runs: B1's released instances (no browser), their
 * text check and B1's battery without the adaptive agents — 11 records (3 instances, 4 text
 * records, 4 battery tiers).
 */
export const SMALL_VERIFICATION: VerifyAllOptions = {
  instances: ['B1-L3-s100', 'B1-L5-s100', 'B1-L7-s100'],
  randomSeeds: 1,
  randomTurns: 5,
  textSeeds: 2,
  batterySeeds: 2,
  batteryTraining: 2,
  batterySkipAdaptive: true,
  batteryFamilies: ['B1'],
  viewRule: false,
};
