/**
 * Plays a sightless strategy (`tasks/sightless.ts`) through the real task environment, without
 * rendering: each turn it gets the rules, tools and the text results of its earlier calls, never
 * an image or the scene. For family tests that exercise their own strategies over many seeds
 * until the shared shortcut battery runs them.
 */
import { readFileSync } from 'node:fs';
import { TaskEnv } from '../../tasks/env.ts';
import type { SightlessResult, SightlessStrategy, SightlessView } from '../../tasks/sightless.ts';
import type { Instance, ReferenceSolution, TaskFamily } from '../../tasks/types.ts';
import { fixtureFile } from '../../verify/fixtures.ts';
import { fixtureInstanceIds } from '../../tasks/suites.ts';

/** Plays `strategy` on `instance` for at most `turns` turns; true when the task was solved. */
export async function playSightless(family: TaskFamily, instance: Instance, strategy: SightlessStrategy, fitted: unknown, seed: number, turns: number): Promise<boolean> {
  const env = await TaskEnv.create(family, instance);
  try {
    const view: SightlessView = {
      id: instance.id,
      family: instance.family,
      tier: instance.tier,
      title: instance.title,
      rules: instance.rules,
      tools: instance.tools,
      budgets: instance.budgets,
      levers: instance.levers,
      scoring: instance.scoring,
      dynamic: instance.dynamic,
    };
    const history: SightlessResult[][] = [];
    const budget = Math.min(turns, instance.budgets.turns);
    for (let turn = 1; turn <= budget && !env.terminated; turn++) {
      const calls = strategy.next({ view, seed, turn, turnsLeft: budget - turn + 1, actionCap: instance.budgets.actionsPerTurn, history }, fitted);
      if (!calls || calls.length === 0) break;
      const results: SightlessResult[] = [];
      for (const call of calls.slice(0, instance.budgets.actionsPerTurn)) {
        const r = env.execute(call);
        results.push({ call, status: r.status, message: r.message, ...(r.data ? { data: r.data } : {}) });
        if (r.status === 'violation' || env.terminated) break;
      }
      history.push(results);
    }
    return env.solved();
  } finally {
    env.free();
  }
}

/** The released instances of a family with their checked-in references: training data for `fit`. */
export function releasedTraining(familyId: string): Array<{ instance: Instance; reference: ReferenceSolution }> {
  return fixtureInstanceIds(familyId).map((id) => {
    const record = JSON.parse(readFileSync(fixtureFile(id), 'utf8')) as { instance: Instance; reference: ReferenceSolution };
    return { instance: record.instance, reference: record.reference };
  });
}
