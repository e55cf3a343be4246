/**
 * V3 episode: the world of one instance and the family's logic at run time — the tool
 * handlers (run inside `World.attempt`, so a thrown violation rolls everything back), the
 * success test and the progress measure. Family state lives in body poses (or `world.meta`), so
 * one world snapshot rolls back everything and one state hash covers it.
 */
import { SpaceActError } from '../../../core/errors.ts';
import { ViolationError } from '../../../sim/violation.ts';
import type { World } from '../../../sim/world.ts';
import type { FamilyEnv, Instance } from '../../types.ts';
import { BLOCK_HALF, blockPose, cellX, cellZ, DIRECTIONS, PITCH, type V3Scene, type Cell, type Direction } from './scene.ts';
import { distanceOf, distancesTo } from './solver.ts';

/** Builds the board, the pad, the obstacles and the block, and the `slide` tool acting on the block. */
export function build(instance: Instance<V3Scene>, world: World): FamilyEnv {
  const { grid, start, goal } = instance.scene;
  const half = (grid.size * PITCH) / 2;
  world.addBody({ name: 'board', kind: 'static', pose: { p: [0, -0.01, 0], q: [0, 0, 0, 1] }, shapes: [{ type: 'box', half: [half, 0.01, half] }], color: '#d9cbb0' });
  world.addBody({
    name: 'goal-pad',
    kind: 'static',
    collides: false,
    pose: { p: [cellX(grid, goal), 0.0003, cellZ(grid, goal)], q: [0, 0, 0, 1] },
    shapes: [{ type: 'box', half: [PITCH * 0.45, 0.0003, PITCH * 0.45] }],
    color: '#2ecc71',
  });
  grid.obstacles.forEach((c, i) => {
    world.addBody({ name: `obstacle-${i + 1}`, kind: 'static', pose: blockPose(grid, c), shapes: [{ type: 'box', half: [BLOCK_HALF, BLOCK_HALF, BLOCK_HALF] }], color: '#7f8c8d' });
  });
  // Kinematic: the block moves only by swept slides, so there is nothing to settle.
  world.addBody({ name: 'block', kind: 'kinematic', pose: blockPose(grid, start), shapes: [{ type: 'box', half: [BLOCK_HALF, BLOCK_HALF, BLOCK_HALF] }], color: '#2980b9' });
  const dist = distancesTo(grid, goal);
  const startDistance = distanceOf(dist, grid, start);
  // The block's cell is derived from its pose, so one world snapshot rolls everything back.
  const cellNow = (): Cell => {
    const p = world.getPose('block').p;
    return { col: Math.round(p[0] / PITCH + (grid.size - 1) / 2), row: Math.round(p[2] / PITCH + (grid.size - 1) / 2) };
  };
  return {
    tools: {
      slide(args) {
        const d = String(args.direction) as Direction;
        if (!(d in DIRECTIONS)) throw new SpaceActError('invalid-argument', 'direction must be left, right, away or toward');
        const from = cellNow();
        const to = { col: from.col + DIRECTIONS[d].col, row: from.row + DIRECTIONS[d].row };
        if (to.col < 0 || to.row < 0 || to.col >= grid.size || to.row >= grid.size) {
          throw new ViolationError({ kind: 'rule', bodies: ['block'], message: `slide ${d} refused: the block would leave the board` });
        }
        // An obstacle in the way is found by the swept check itself (a collision violation).
        world.moveSwept('block', blockPose(grid, to), { exclude: ['board'] });
        return `slid the block one cell ${d}`;
      },
    },
    solved() {
      const c = cellNow();
      return c.col === goal.col && c.row === goal.row;
    },
    progress() {
      const d = distanceOf(dist, grid, cellNow());
      return startDistance > 0 && d >= 0 ? 1 - d / startDistance : 0;
    },
    stateText() {
      const c = cellNow();
      return `Block at column ${c.col + 1}, row ${c.row + 1} (columns left to right, rows away to toward); goal pad at column ${goal.col + 1}, row ${goal.row + 1}; obstacles at ${grid.obstacles.map((o) => `(${o.col + 1}, ${o.row + 1})`).join(', ') || 'none'}.`;
    },
  };
}
