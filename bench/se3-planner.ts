/**
 * The SE(3) planner on its narrow-passage scene (`solvers/se3-planner/scenes.ts`): a 100 × 40 ×
 * 20 mm box threaded end-on through a slot in a 20 mm wall, turned on the way, at three
 * clearances per side. For each clearance: success rate over seeds 1…N within the default budget
 * of 20 000 samples, and seconds and samples per solved run; next to it, in the same run, plain
 * RRT-Connect (no narrow-passage sampling, no relaxation, no probe) with the same budget — the
 * baseline the narrow-passage machinery is measured against.
 */
import { World } from '../sim/world.ts';
import { planPath, type PlanOptions } from '../solvers/se3-planner/index.ts';
import { buildSlotScene, slotForClearance, SLOT_GOAL, SLOT_WORKSPACE } from '../solvers/se3-planner/scenes.ts';

/** Clearances per side, metres. */
const CLEARANCES = [0.004, 0.002, 0.001];
const SEEDS = Number(process.env.PLANNER_BENCH_SEEDS ?? 5);
const PLAIN: PlanOptions = { narrowPassage: false, relax: false, probe: false };

async function runs(clearance: number, opts: PlanOptions): Promise<{ solved: number; seconds: number[]; samples: number[]; calls: number[] }> {
  const out = { solved: 0, seconds: [] as number[], samples: [] as number[], calls: [] as number[] };
  for (let seed = 1; seed <= SEEDS; seed++) {
    const world = await World.create({ workspace: SLOT_WORKSPACE });
    try {
      buildSlotScene(world, slotForClearance(clearance));
      const r = planPath(world, 'part', SLOT_GOAL, { seed, ...opts });
      if (r.found) {
        out.solved++;
        out.seconds.push(r.seconds);
        out.samples.push(r.samples);
        out.calls.push(r.calls.length);
      }
    } finally {
      world.free();
    }
  }
  return out;
}

function mean(xs: number[]): number | null {
  return xs.length ? Number((xs.reduce((a, b) => a + b, 0) / xs.length).toPrecision(3)) : null;
}

/** Success rate and cost per clearance, with plain RRT-Connect beside it. */
export async function benchNarrowPassage(): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = { seeds: SEEDS, budgetSamples: 20000 };
  for (const c of CLEARANCES) {
    const ours = await runs(c, {});
    const plain = await runs(c, PLAIN);
    out[`clearance${(c * 1000).toFixed(0)}mm`] = {
      successRate: ours.solved / SEEDS,
      meanSecondsSolved: mean(ours.seconds),
      meanSamplesSolved: mean(ours.samples),
      meanCalls: mean(ours.calls),
      plainRrtConnectSuccessRate: plain.solved / SEEDS,
    };
  }
  return out;
}
