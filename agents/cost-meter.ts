/**
 * Adds up dollars spent against a limit. `reached` turns true once the spend meets the
 * limit; the run then stops between turns, so it may overshoot by the turns in flight.
 */
export class CostMeter {
  readonly limit: number;
  private total: number;

  /** @param spent dollars already recorded before this run (earlier, interrupted runs). */
  constructor(limit: number, spent = 0) {
    this.limit = limit;
    this.total = spent;
  }

  /** Records more spend (non-finite or negative amounts are ignored). */
  add(dollars: number): void {
    if (Number.isFinite(dollars) && dollars > 0) this.total += dollars;
  }

  get spent(): number {
    return this.total;
  }

  get reached(): boolean {
    return this.total >= this.limit;
  }
}
