import type { SummaryEntry } from '../agents/runner.ts';
import type { Agent, AgentReply, Observation } from '../agents/types.ts';

/** Thrown into the episode when the person stops playing (Ctrl-C): the log stays resumable. */
export class PlayInterrupted extends Error {
  constructor() {
    super('play was interrupted; the episode log keeps every finished turn');
    this.name = 'PlayInterrupted';
  }
}

/** Where a play session stands. */
export type PlayStatus = 'starting' | 'waiting' | 'running' | 'finished' | 'failed' | 'stopped';

/**
 * The meeting point of the episode loop and the play page's server. The loop's agent waits
 * here for the person's reply; the server hands replies in and reads the current
 * observation. Every change bumps {@link PlaySession.version}, so a page can wait for the
 * next one.
 */
export class PlaySession {
  status: PlayStatus = 'starting';
  version = 0;
  /** The observation the person is answering (while `waiting`). */
  observation: Observation | null = null;
  /** The episode's summary row, once finished. */
  outcome: SummaryEntry | null = null;
  /** Why the session failed or stopped. */
  message = '';
  private pending: { resolve(r: AgentReply): void; reject(e: Error): void } | null = null;
  private waiters: Array<() => void> = [];
  private interrupted = false;

  private bump(status: PlayStatus): void {
    this.status = status;
    this.version += 1;
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** Resolves at the next change after `version` (at once if there already was one). */
  changed(version: number): Promise<void> {
    if (this.version !== version) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /**
   * Resolves once the session has left `running` after the change past `version`: the next
   * observation is published, or the episode ended (what a turn's answer waits for).
   */
  async settled(version: number): Promise<void> {
    let v = version + 1;
    // (Read through a function: the status changes while this waits.)
    const running = (): boolean => this.status === 'running';
    while (running()) {
      await this.changed(v);
      v = this.version;
    }
  }

  /** The agent's side: publish the observation and wait for the person's reply. */
  awaitReply(obs: Observation): Promise<AgentReply> {
    if (this.interrupted) return Promise.reject(new PlayInterrupted());
    return new Promise<AgentReply>((resolve, reject) => {
      this.pending = { resolve, reject };
      this.observation = obs;
      this.bump('waiting');
    });
  }

  /** The server's side: hand in a checked reply. False when no reply is awaited. */
  submit(reply: AgentReply): boolean {
    if (!this.pending || this.status !== 'waiting') return false;
    const p = this.pending;
    this.pending = null;
    this.bump('running');
    p.resolve(reply);
    return true;
  }

  /**
   * The server's side: the person gives up. The awaited turn is answered with a reply that ends
   * the episode unsolved (logged and scored like any end). False when no reply is awaited.
   */
  giveUp(): boolean {
    const obs = this.observation;
    if (!obs) return false;
    return this.submit({ rationale: 'I give up.', note: obs.note, actions: [], gaveUp: true });
  }

  /** The episode ended. */
  finish(entry: SummaryEntry): void {
    this.outcome = entry;
    this.bump('finished');
  }

  /** The episode could not go on (an error in the run, not in a reply). */
  fail(message: string): void {
    this.message = message;
    this.bump('failed');
  }

  /** Stops playing: a reply being waited for is refused with {@link PlayInterrupted}. */
  interrupt(message = 'stopped'): void {
    this.interrupted = true;
    this.message = message;
    const p = this.pending;
    this.pending = null;
    this.bump('stopped');
    p?.reject(new PlayInterrupted());
  }
}

/**
 * An agent whose replies come from outside the process through a {@link PlaySession}: each
 * turn it publishes the observation there and resolves when a reply is handed in (by the play
 * page for a person, by an HTTP client of `spaceact serve` for a program). It goes through the
 * same loop, log and scoring as every model.
 */
export class SessionAgent implements Agent {
  constructor(
    private readonly session: PlaySession,
    readonly name: string,
    readonly settings: Record<string, unknown>,
    readonly needsImages = true,
  ) {}

  start(): void {}

  act(obs: Observation): Promise<AgentReply> {
    return this.session.awaitReply(obs);
  }
}

/** A person as an agent (`human`), answering on the play page. */
export class HumanAgent extends SessionAgent {
  constructor(session: PlaySession) {
    super(session, 'human', { interface: 'play-page' });
  }
}
