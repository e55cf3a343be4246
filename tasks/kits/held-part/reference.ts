/**
 * A held-part family's reference solution from the SE(3) planner: build the instance's world,
 * plan from the part's start to the goal poses (trying a few planner seeds in a fixed order),
 * then replay the calls through the family's own tool handlers and keep them up to the first
 * call after which the task is solved — the episode ends there, and a reference must solve
 * exactly at its last action.
 */
import { SpaceActError } from '../../../core/errors.ts';
import type { Pose } from '../../../sim/types.ts';
import { World, type WorldOptions } from '../../../sim/world.ts';
import { planPath, type PlanFound, type PlanOptions } from '../../../solvers/se3-planner/planner.ts';
import type { FamilyEnv, Instance, ReferenceSolution, ToolCall } from '../../types.ts';

/** What {@link plannedReference} needs from a family. */
export interface PlannedReferenceSpec<S> {
  instance: Instance<S>;
  worldOptions?: WorldOptions;
  build(instance: Instance<S>, world: World): FamilyEnv | Promise<FamilyEnv>;
  /** The held body. */
  body: string;
  /** Where the part may end (any one). */
  goals: Pose[];
  /** Planner options (motion model, guide, budget, relaxation…); `seed` is set per attempt. */
  plan: PlanOptions;
  /** Planner seeds tried in order (default 1, 2, 3). */
  seeds?: number[];
}

/** The planned, replay-trimmed reference (see the module comment). */
export async function plannedReference<S>(spec: PlannedReferenceSpec<S>): Promise<ReferenceSolution & { plan: PlanFound }> {
  const world = await World.create(spec.worldOptions);
  try {
    const env = await spec.build(spec.instance, world);
    const tried: string[] = [];
    for (const seed of spec.seeds ?? [1, 2, 3]) {
      const r = planPath(world, spec.body, spec.goals, { ...spec.plan, seed });
      if (!r.found) {
        tried.push(`seed ${seed}: ${r.reason}`);
        continue;
      }
      const calls = trimToSolved(world, env, r.calls);
      if (!calls) {
        tried.push(`seed ${seed}: the planned calls did not solve the task through its own tools`);
        continue;
      }
      return {
        calls,
        method: `SE(3) planner (RRT-Connect with narrow-passage sampling and relaxation; seed ${seed}, ${r.samples} samples, ${r.stages} stages), certified by replaying its calls through the swept checks`,
        plan: r,
      };
    }
    throw new SpaceActError('invalid-state', `${spec.instance.id}: the planner found no reference path (${tried.join('; ')})`, { instance: spec.instance.id });
  } finally {
    world.free();
  }
}

/** The calls up to the first one after which the task is solved, played through the handlers; null if any is refused or it never solves. */
function trimToSolved(world: World, env: FamilyEnv, calls: ToolCall[]): ToolCall[] | null {
  const snap = world.snapshot();
  try {
    for (let i = 0; i < calls.length; i++) {
      const handler = env.tools[calls[i].tool];
      if (!handler) return null;
      const r = world.attempt(() => handler(calls[i].args), { captureScene: false });
      if (!r.ok) return null;
      if (env.solved()) return calls.slice(0, i + 1);
    }
    return null;
  } finally {
    world.restore(snap);
  }
}
