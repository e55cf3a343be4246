import type { Violation } from './types.ts';

/**
 * Thrown inside an action when a physical check fails. The caller that took the snapshot
 * (see `World.attempt`) catches it, keeps the violating state for the rollback image and
 * restores the snapshot.
 */
export class ViolationError extends Error {
  readonly violation: Violation;
  constructor(violation: Violation) {
    super(violation.message);
    this.name = 'ViolationError';
    this.violation = violation;
  }
}
