/**
 * T6 reference solver: a search over every gear train the pegboard and the tray allow
 * (`trains.ts`: paths of pegs from I to O with a distinct tray gear on each, consecutive gears
 * meshing, the others clear), keeping those whose exact output rotation (−1)^(n−1) · z_in / z_out
 * is the asked fraction, and playing the one with the fewest gears: its placements from the input
 * outward (each gear meshes with the one before it), then one turn of the input.
 *
 * The certificate is the exact rational rotation and its sign; `measuredTurn` plays a train in
 * the real engine and returns the output's measured rotation, which the family test holds to the
 * exact one within the mark's half-width (and the README reports the agreement over many seeds).
 */
import { SpaceActError } from '../../../core/errors.ts';
import { World } from '../../../sim/world.ts';
import type { Instance, ReferenceSolution, ToolCall } from '../../types.ts';
import { build } from './episode.ts';
import type { T6Scene } from './scene.ts';
import { allTrains, solvingTrains, trainDeg, type Train } from './trains.ts';

/** The calls that build `train` (input first) and turn the input once. */
export function trainCalls(train: Train): ToolCall[] {
  return [...train.pegs.map((p, i) => ({ tool: 'place_gear', args: { teeth: train.teeth[i], peg: p } })), { tool: 'turn_input', args: {} }];
}

/** The shortest train that turns the output as asked (ties: the first found), or null. */
export function bestTrain(s: T6Scene): Train | null {
  const ok = solvingTrains(s);
  if (!ok.length) return null;
  return ok.reduce((a, b) => (b.teeth.length < a.teeth.length ? b : a));
}

/** Builds `train` in a fresh world of `instance`, turns the input once and returns the output's measured rotation (degrees) and whether the episode counts it solved. */
export async function measuredTurn(instance: Instance<T6Scene>, train: Train): Promise<{ degrees: number; solved: boolean }> {
  const world = await World.create();
  try {
    const env = build(instance, world);
    for (const c of trainCalls(train)) {
      const r = world.attempt(() => env.tools[c.tool](c.args), { captureScene: false });
      if (!r.ok) throw new SpaceActError('invalid-state', `${instance.id}: ${c.tool} ${JSON.stringify(c.args)} was refused: ${r.violation.message}`, { instance: instance.id });
    }
    return { degrees: world.meta.lastTurnDeg as number, solved: env.solved() };
  } finally {
    world.free();
  }
}

/** The reference: the shortest right train, placed from the input outward, and one turn. */
export async function reference(instance: Instance<T6Scene>): Promise<ReferenceSolution> {
  const s = instance.scene;
  const train = bestTrain(s);
  if (!train) throw new SpaceActError('invalid-state', `${instance.id}: no gear train turns the output as asked`, { instance: instance.id });
  const all = allTrains(s);
  const shortest = train.teeth.length;
  return {
    calls: trainCalls(train),
    optimal: true,
    unique: false,
    method:
      `search over all ${all.length} trains the pegs and tray allow; ${solvingTrains(s).length} turn the output ${s.target.num}/${s.target.den} turn (${trainDeg(train).toFixed(1)}°); ` +
      `the shortest has ${shortest} gears on ${train.pegs.join('→')} with ${train.teeth.join(', ')} teeth; ` +
      'no train with fewer gears turns it so, and every gear of a train must be placed before one turn',
  };
}
