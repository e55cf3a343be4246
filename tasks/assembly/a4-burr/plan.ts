/**
 * The A4 certificate and plan: the disassembly of the scene's burr (the polycube-piece kit's
 * breadth-first search, the key clamped, the table under the burr), each stick's removal carried
 * on to where it starts, and the reverse of all that — the assembly the reference plays.
 */
import { SpaceActError } from '../../../core/errors.ts';
import type { Cell } from '../../../solvers/polycube.ts';
import { SLIDE_DIRECTIONS, type Disassembly } from '../../kits/polycube-pieces/disassembly.ts';
import { burrDisassembly } from './burr.ts';
import type { A4Scene } from './scene.ts';

/** The agent's direction names, by index into {@link SLIDE_DIRECTIONS} (+x, −x, +y, −y, +z, −z). */
export const DIRECTION_NAMES = ['right', 'left', 'up', 'down', 'front', 'back'] as const;

/** A direction the agent names. */
export type DirectionName = (typeof DIRECTION_NAMES)[number];

/** One slide of the plan: a stick by index, a direction index, whole cubes. */
export interface PlanSlide {
  stick: number;
  dir: number;
  steps: number;
}

/** The disassembly of a scene's burr, or an error when it cannot be taken apart. */
export function sceneDisassembly(s: A4Scene): Disassembly {
  const key = s.sticks.findIndex((t) => t.key);
  const dis = burrDisassembly(s.sticks.map((t) => t.cells), key);
  if (!dis) throw new SpaceActError('invalid-state', 'the burr cannot be taken apart', {});
  return dis;
}

/**
 * The disassembly as slides from the assembled burr to the start: every phase's moves, then its
 * removal carried straight on to the stick's start offset.
 */
export function disassemblySlides(s: A4Scene, dis: Disassembly): PlanSlide[] {
  const out: PlanSlide[] = [];
  for (const phase of dis.phases) {
    for (const m of phase.moves) out.push({ stick: m.pieces[0], dir: m.dir, steps: m.steps });
    const p = phase.removal.pieces[0];
    const from = dis.exitOffsets[p]!;
    const to = s.sticks[p].start;
    const axis = phase.removal.dir >> 1;
    const steps = Math.abs(to[axis] - from[axis]);
    out.push({ stick: p, dir: phase.removal.dir, steps });
  }
  return out;
}

/** The assembly: the disassembly reversed, each slide the other way, consecutive slides of one stick one way merged. */
export function assemblySlides(s: A4Scene, dis: Disassembly = sceneDisassembly(s)): PlanSlide[] {
  const rev = disassemblySlides(s, dis)
    .reverse()
    .map((m) => ({ stick: m.stick, dir: m.dir ^ 1, steps: m.steps }));
  const out: PlanSlide[] = [];
  for (const m of rev) {
    const last = out[out.length - 1];
    if (last && last.stick === m.stick && last.dir === m.dir) last.steps += m.steps;
    else out.push({ ...m });
  }
  return out.filter((m) => m.steps > 0);
}

/** A stick's offset after a slide. */
export function slid(offset: readonly number[], dir: number, steps: number): Cell {
  const d = SLIDE_DIRECTIONS[dir];
  return [offset[0] + d[0] * steps, offset[1] + d[1] * steps, offset[2] + d[2] * steps];
}

/** The reference's calls: one `slide` per plan slide. */
export function referenceCalls(s: A4Scene, dis?: Disassembly): Array<{ tool: string; args: Record<string, unknown> }> {
  return assemblySlides(s, dis).map((m) => ({ tool: 'slide', args: { stick: s.sticks[m.stick].name, direction: DIRECTION_NAMES[m.dir], cubes: m.steps } }));
}
