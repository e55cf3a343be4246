/**
 * Plays a sightless strategy through the real episode loop without rendering (it never looks),
 * for family tests of their own shortcut strategies over many seeds. The lead's battery in
 * `verify` is the authoritative runner; this one exists so a family test can show its
 * strategies fail without depending on it.
 */
import { TaskEnv } from '../../tasks/env.ts';
import { sightlessView, type SightlessResult, type SightlessStrategy } from '../../tasks/sightless.ts';
import type { Instance, TaskFamily } from '../../tasks/types.ts';

/** Runs one episode of `strategy` on `instance`; true when it solved the task. */
export async function playSightless(family: TaskFamily, instance: Instance, strategy: SightlessStrategy, seed: number, opts: { turns?: number } = {}): Promise<boolean> {
  const env = await TaskEnv.create(family, instance);
  try {
    const view = sightlessView(instance);
    const turns = Math.min(opts.turns ?? instance.budgets.turns, instance.budgets.turns);
    const history: SightlessResult[][] = [];
    const fitted = strategy.fit ? await strategy.fit([], { trial: () => Promise.reject(new Error('no trial episodes here')) }) : undefined;
    for (let turn = 1; turn <= turns && !env.terminated; turn++) {
      const calls = await strategy.next({ view, seed, turn, turnsLeft: turns - turn + 1, actionCap: instance.budgets.actionsPerTurn, history }, fitted);
      if (!calls) break;
      const results: SightlessResult[] = [];
      for (const call of calls.slice(0, instance.budgets.actionsPerTurn)) {
        const r = env.execute(call);
        results.push({ call, status: r.status, message: r.message, ...(r.data ? { data: r.data } : {}) });
        if (r.status !== 'ok' || env.terminated) break;
      }
      history.push(results);
    }
    return env.solved();
  } finally {
    env.free();
  }
}
