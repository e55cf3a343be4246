/**
 * The A4 solver: the disassembly search over the burr (the polycube-piece kit's
 * `disassembly.ts`: breadth-first over every stick's integer offset, the key clamped, the table
 * under the burr), phase by phase to each next stick out, carried on to where the sticks start,
 * and reversed — the assembly the reference plays.
 */
import type { Instance, ReferenceSolution } from '../../types.ts';
import { referenceCalls, sceneDisassembly } from './plan.ts';
import type { A4Scene } from './scene.ts';

/** The reference: the reversed disassembly, one `slide` per straight move. */
export function reference(instance: Instance<A4Scene>): ReferenceSolution {
  const s = instance.scene;
  const dis = sceneDisassembly(s);
  const calls = referenceCalls(s, dis);
  return {
    calls,
    method:
      `disassembly search run backwards: breadth-first over the sticks' cube offsets (key clamped, table under the burr), ` +
      `level ${dis.level} (moves to the first stick out), ${dis.phases.length} stick(s) taken out with ${dis.states} states searched; ` +
      `the reverse is ${calls.length} slide(s)`,
  };
}
