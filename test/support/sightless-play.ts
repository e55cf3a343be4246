/**
 * Plays a sightless strategy (tasks/sightless.ts) on an instance through the family's own
 * episode environment, turn by turn, the way the shortcut battery does: the strategy sees the
 * instance's text and the results of its earlier calls, never a picture or the scene.
 */
import { TaskEnv } from '../../tasks/env.ts';
import { sightlessView, type FitTools, type SightlessResult, type SightlessStrategy } from '../../tasks/sightless.ts';
import type { Instance, TaskFamily } from '../../tasks/types.ts';

export { sightlessView };

/** Fit tools for strategies that learn from training data alone (a trial would need the battery). */
export const NO_TRIALS: FitTools = {
  trial() {
    throw new Error('this test fits strategies without trial episodes');
  },
};

/** Plays `strategy` (fitted with `fitted`) on `instance` with battery seed `seed`; true when the episode is solved. */
export async function playSightless<F>(family: TaskFamily, instance: Instance, strategy: SightlessStrategy<F>, seed: number, fitted: F | undefined, maxTurns = 5): Promise<boolean> {
  const env = await TaskEnv.create(family, instance);
  try {
    const history: SightlessResult[][] = [];
    for (let turn = 1; turn <= Math.min(maxTurns, instance.budgets.turns) && !env.terminated; turn++) {
      const calls = await strategy.next({ view: sightlessView(instance), seed, turn, turnsLeft: instance.budgets.turns - turn, actionCap: instance.budgets.actionsPerTurn, history }, fitted);
      if (!calls) break;
      const results: SightlessResult[] = calls.slice(0, instance.budgets.actionsPerTurn).map((c) => {
        const r = env.execute(c);
        return { call: r.call, status: r.status, message: r.message, ...(r.data ? { data: r.data } : {}) };
      });
      history.push(results);
    }
    return env.solved();
  } finally {
    env.free();
  }
}
