/**
 * P1 episode: the tray, the blocks (dynamic boxes with their letters) and the green goal marks
 * as bodies, and the `slide` tool acting on them with straight swept motion. Which cell each
 * block is on is read from its pose, so a snapshot of the world is the whole episode state.
 */
import { SpaceActError } from '../../../core/errors.ts';
import { ViolationError } from '../../../sim/violation.ts';
import type { World } from '../../../sim/world.ts';
import { lazy } from '../../../core/lazy.ts';
import { goalDistances } from '../../../solvers/discrete-search/index.ts';
import { addPiece, addTray, WALL_THICKNESS, pieceCell, trayViewBodies, trayLetters, slidePiece, TRAY_DIRECTIONS, trayQuat, trayToWorld, type TrayDirection, type TrayLayout } from '../../kits/grid-tray.ts';
import type { FamilyEnv, Instance } from '../../types.ts';
import { BLOCK_COLORS, BLOCK_HEIGHT, GOAL_COLOR, TARGET_COLOR, WALL_HEIGHT, type P1Scene } from './scene.ts';
import { slidingProblem, type P1State } from './solver.ts';

/** The tray layout of a scene. */
export function trayOf(s: P1Scene): TrayLayout {
  return { cols: s.cols, rows: s.rows, cell: s.cell, yawDeg: s.yawDeg };
}

/** Body name of a block. */
export function blockBody(id: string): string {
  return `block-${id}`;
}

/** Builds the world of a P1 instance and returns the episode logic. */
export function build(instance: Instance<P1Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  const tray = trayOf(s);
  addTray(world, tray, { wallHeight: WALL_HEIGHT });
  const target = s.blocks[0];
  // Green cells under the goal and a green bar outside the wall they touch (seen even when
  // another block covers the cells).
  const [gx, gz] = [(s.goal.col + target.w / 2 - s.cols / 2) * s.cell, (s.goal.row + target.h / 2 - s.rows / 2) * s.cell];
  world.addBody({
    name: 'goal-cells',
    kind: 'static',
    collides: false,
    pose: { p: trayToWorld(tray, gx, 0.0004, gz), q: trayQuat(tray) },
    shapes: [{ type: 'box', half: [(target.w * s.cell) / 2 - 0.003, 0.0004, (target.h * s.cell) / 2 - 0.003] }],
    color: GOAL_COLOR,
  });
  // The bar lies on top of the wall, so it shows from any side the camera looks from.
  world.addBody({
    name: 'goal-bar',
    kind: 'static',
    collides: false,
    pose: { p: trayToWorld(tray, gx, WALL_HEIGHT + 0.0008, (s.rows * s.cell) / 2 + WALL_THICKNESS / 2), q: trayQuat(tray) },
    shapes: [{ type: 'box', half: [(target.w * s.cell) / 2, 0.0008, WALL_THICKNESS / 2 + 0.0005] }],
    color: GOAL_COLOR,
  });
  s.blocks.forEach((b, i) =>
    addPiece(world, tray, {
      name: blockBody(b.id),
      label: b.id,
      col: b.col,
      row: b.row,
      w: b.w,
      h: b.h,
      height: BLOCK_HEIGHT,
      color: i === 0 ? TARGET_COLOR : BLOCK_COLORS[(i - 1) % BLOCK_COLORS.length],
    }),
  );

  const problem = slidingProblem(s);
  const state = (): P1State =>
    s.blocks.map((b) => {
      const c = pieceCell(world, tray, blockBody(b.id), b.w, b.h);
      return c.col + c.row * s.cols;
    });
  // Only progress() needs the distance table: a simulated world never builds it.
  const distances = lazy(() => {
    const toGoal = goalDistances(problem, { maxStates: 500_000 }).toGoalByKey;
    return { toGoal, start: toGoal.get(problem.key(problem.start)) ?? 1 };
  });

  return {
    tools: {
      slide(args) {
        const id = String(args.block);
        const dir = String(args.direction) as TrayDirection;
        const cells = Number(args.cells);
        const b = s.blocks.find((x) => x.id === id);
        if (!b || !TRAY_DIRECTIONS.includes(dir)) throw new SpaceActError('invalid-argument', `unknown block ${id} or direction ${dir}`);
        try {
          slidePiece(world, tray, blockBody(id), dir, cells);
        } catch (err) {
          // The same words whatever stopped it, a wall or a block: naming the obstacle would map
          // the tray for a prober (issue 36). The bodies and the contact point stay in the
          // violation, so the rollback image still marks what it hit and where.
          if (err instanceof ViolationError) throw new ViolationError({ ...err.violation, message: `block ${id} would hit something on the way; the slide was undone.` });
          throw err;
        }
        const at = pieceCell(world, tray, blockBody(id), b.w, b.h);
        if (at.offset > 0.002) {
          throw new ViolationError({ kind: 'rule', bodies: [blockBody(id)], message: `block ${id} did not end on the grid` });
        }
        return `block ${id} slid ${cells} cell${cells === 1 ? '' : 's'} ${dir}`;
      },
    },
    solved() {
      const t = pieceCell(world, tray, blockBody(target.id), target.w, target.h);
      return t.col === s.goal.col && t.row === s.goal.row && t.offset < 0.003;
    },
    // The first view (view rule, AUTHORING step 4a): the tray, its N, the goal marks and every
    // lettered block; nothing is hidden on purpose (L7 turns the tray, it hides nothing).
    viewParts: () => [
      {
        bodies: [
          ...trayViewBodies(s.blocks.map((b) => blockBody(b.id))),
          { name: 'goal', group: ['goal-cells', 'goal-bar'], minPixels: 1500 },
        ],
        letters: trayLetters(s.blocks.map((b) => ({ body: blockBody(b.id), text: b.id }))),
      },
    ],
    staticsAfter() {
      // Blocks ride in the tray (kinematic): nothing can settle or topple, so no settle check.
      return false;
    },
    progress() {
      const { toGoal, start } = distances();
      const d = toGoal.get(problem.key(state()));
      return d === undefined || d < 0 ? 0 : Math.max(0, 1 - d / start);
    },
    stateText() {
      const lines = s.blocks.map((b) => {
        const c = pieceCell(world, tray, blockBody(b.id), b.w, b.h);
        return `Block ${b.id} (${b.w} × ${b.h} cells): north-west corner on column ${c.col + 1} from the west, row ${c.row + 1} from the north.`;
      });
      lines.push(`Goal: block ${target.id}'s north-west corner on column ${s.goal.col + 1}, row ${s.goal.row + 1}.`);
      return lines.join('\n');
    },
  };
}
