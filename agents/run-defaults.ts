/**
 * The defaults of a run, defined once for the episode loop, the runner, its worker processes,
 * the play page and the `run` command's options.
 */

/** When the loop renders: `always`; `auto` only when the agent looks at images; `never`. */
export type RenderWhen = 'always' | 'auto' | 'never';

/** Every value `--render` takes. */
export const RENDER_WHEN: readonly RenderWhen[] = ['always', 'auto', 'never'];

/** The defaults of a run. */
export const RUN_DEFAULTS = {
  /**
   * Render every turn, even for agents that never look (the reference, the baselines): the log
   * and the report then show what a model would have seen. Blind mode never renders.
   */
  render: 'always' as RenderWhen,
  /** Turns whose images stay in the history an agent is shown. */
  historyImages: 1,
  /** Episodes at once (1: in this process). */
  concurrency: 1,
} as const;
