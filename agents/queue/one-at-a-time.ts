/**
 * One job at a time in a worker process that takes jobs from more than one BullMQ queue
 * (`spaceact worker` plays episodes of queue runs and checks pieces of queue verifications).
 * Each queue has its own BullMQ `Worker` with concurrency 1; while one of them runs a job the
 * others are paused, so that they do not take jobs this process would only hold. A job one of
 * them fetched just before the pause waits here for its turn (its lock is renewed meanwhile:
 * the event loop stays free, the heavy work runs elsewhere or in awaited pieces).
 */
import type { Worker } from 'bullmq';

/** See the module comment. */
export class OneJobAtATime {
  private readonly workers = new Set<Worker>();
  private tail: Promise<void> = Promise.resolve();
  private closing = false;

  /** Adds a worker whose jobs go through {@link run}. */
  add(worker: Worker): void {
    this.workers.add(worker);
  }

  /** No worker is resumed any more (the process is stopping: a resumed worker would take a job). */
  close(): void {
    this.closing = true;
  }

  /** Runs `job` of `owner` once every job queued before it has ended, the other workers paused meanwhile. */
  async run<T>(owner: Worker, job: () => Promise<T>): Promise<T> {
    const before = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((r) => (release = r));
    await before;
    const others = [...this.workers].filter((w) => w !== owner);
    // Paused without waiting for their active job: a job they hold is the one queued behind this.
    await Promise.all(others.map((w) => w.pause(true).catch(() => {})));
    try {
      return await job();
    } finally {
      if (!this.closing) for (const w of others) void w.resume();
      release();
    }
  }
}
