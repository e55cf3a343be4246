/**
 * The largest value each verification setting may take: what `spaceact verify` accepts on its
 * command line and what a verification job from the queue may ask of a worker.
 */
export const VERIFY_LIMITS = {
  /** Random-baseline episodes per instance. */
  randomSeeds: 1000,
  /** Turn budget of each random-baseline episode. */
  randomTurns: 1000,
  /** Shortcut battery: judged seeds per tier. */
  batterySeeds: 100_000,
  /** Shortcut battery: training seeds per tier. */
  batteryTraining: 1000,
  /** Text-leak check: seeds per tier. */
  textSeeds: 100_000,
  /** View-rule sample: seeds per tier whose first view is rendered and checked. */
  viewSeeds: 10_000,
} as const;
