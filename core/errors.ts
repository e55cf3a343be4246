/** Machine-readable reason codes for {@link SpaceActError}. */
export type ErrorCode =
  | 'invalid-argument'
  | 'unknown-body'
  | 'unknown-frame'
  | 'unknown-tool'
  | 'unknown-instance'
  | 'unknown-family'
  | 'invalid-instance'
  | 'invalid-reply'
  | 'invalid-state'
  | 'browser'
  | 'io';

/**
 * The one error type the project throws for bad input. It carries a code, a message a person
 * (or a model) can act on, and structured details; the operation that threw changed nothing.
 */
export class SpaceActError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;
  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'SpaceActError';
    this.code = code;
    this.details = details;
  }
  /** A JSON form for logs and tool results. */
  toJSON(): { code: ErrorCode; message: string; details: Record<string, unknown> } {
    return { code: this.code, message: this.message, details: this.details };
  }
}
