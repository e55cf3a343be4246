/**
 * P3 episode: the room (floor, wall blocks, the platform with its ramp and rails), the crates and
 * the pusher as bodies, and the `move` tool. A step carries the pusher one cell along a swept
 * path; a crate in its way is first carried one cell further along its own swept path. Walls,
 * rails and other crates stop either as a collision, so the world itself refuses an illegal
 * move. The floor, the platform top and the ramp are what the pieces stand on and glide over
 * (excluded from the sweeps); the platform's drops and the ramp's sides are closed by rails.
 * Which cell each piece is on is read from its pose, so a world snapshot is the whole state.
 */
import { lazy } from '../../../core/lazy.ts';
import { SpaceActError } from '../../../core/errors.ts';
import type { Pose, Quat, ShapeSpec, Vec3 } from '../../../sim/types.ts';
import type { World } from '../../../sim/world.ts';
import { ViolationError } from '../../../sim/violation.ts';
import { DIRECTION_STEP, TRAY_DIRECTIONS, type TrayDirection } from '../../kits/grid-tray.ts';
import { glyphShapes } from '../../kits/glyphs.ts';
import type { FamilyEnv, Instance } from '../../types.ts';
import { colRow, opposite, parseLevel, step, type Level } from './level.ts';
import {
  CRATE_COLOR,
  CRATE_HALF,
  FLOOR_COLORS,
  GOAL_COLOR,
  PLATFORM_COLOR,
  PUSHER_COLOR,
  PUSHER_HALF_HEIGHT,
  PUSHER_RADIUS,
  RAIL_COLOR,
  RAIL_RISE,
  RAIL_THICKNESS,
  RAMP_COLOR,
  WALL_COLOR,
  type P3Scene,
} from './scene.ts';
import { firstViewHiddenBodies } from './sight.ts';
import { pullDistances, pushDistance, type P3State } from './solver.ts';

/** Bodies the pieces stand on and glide over: left out of their sweeps. */
export const SURFACES = ['floor', 'platform', 'ramp'];
const IDENTITY: Quat = [0, 0, 0, 1];

/** Body name of crate k (1-based, in the order of the map). */
export function crateBody(k: number): string {
  return `crate-${k}`;
}

/** Centre of a cell on the ground, world frame (x east, z south). */
function cellXZ(s: P3Scene, cell: number): [number, number] {
  const c = cell % s.cols;
  const r = (cell - c) / s.cols;
  return [(c + 0.5 - s.cols / 2) * s.cell, (r + 0.5 - s.rows / 2) * s.cell];
}

/**
 * The orientation of a piece standing on a ramp that rises toward direction index `rise`: its
 * up axis along the slope's normal. Exact square roots only (no sines), so poses are portable.
 */
function rampQuat(s: P3Scene, rise: number): Quat {
  const len = Math.hypot(s.cell, s.platformHeight);
  const cos = s.cell / len;
  const sh = Math.sqrt((1 - cos) / 2);
  const ch = Math.sqrt((1 + cos) / 2);
  // The turn takes +Y toward the downhill side: about the axis Y × normal.
  const [dc, dr] = DIRECTION_STEP[TRAY_DIRECTIONS[rise]];
  // Uphill u = (dc, 0, dr); normal n ∝ (−dc·h, cell, −dr·h); Y × n = (−dr·h, 0, dc·h)·k … normalised: (−dr, 0, dc).
  return [-dr * sh, 0, dc * sh, ch];
}

/** The resting pose of a piece of half-height `hh` on a cell (ground, platform, ramp; a wall cell as if ground). */
export function restPose(s: P3Scene, level: Level, cell: number, hh: number): Pose {
  const [x, z] = cellXZ(s, cell);
  const kind = level.kind[cell];
  if (kind === 'platform') return { p: [x, s.platformHeight + hh, z], q: IDENTITY };
  if (kind === 'ramp') {
    const [dc, dr] = DIRECTION_STEP[TRAY_DIRECTIONS[level.rise[cell]]];
    const len = Math.hypot(s.cell, s.platformHeight);
    // The slope's point above the cell centre is at half the platform's height; the piece's centre lies along the normal.
    const n: Vec3 = [(-dc * s.platformHeight) / len, s.cell / len, (-dr * s.platformHeight) / len];
    return { p: [x + n[0] * hh, s.platformHeight / 2 + n[1] * hh, z + n[2] * hh], q: rampQuat(s, level.rise[cell]) };
  }
  return { p: [x, hh, z], q: IDENTITY };
}

/** Boxes covering runs of cells in each row that satisfy `take`, from y0 to y1. */
function rowRuns(s: P3Scene, take: (cell: number) => boolean, y0: number, y1: number): ShapeSpec[] {
  const out: ShapeSpec[] = [];
  for (let r = 0; r < s.rows; r++) {
    let c = 0;
    while (c < s.cols) {
      if (!take(c + r * s.cols)) {
        c++;
        continue;
      }
      let e = c;
      while (e < s.cols && take(e + r * s.cols)) e++;
      const x0 = (c - s.cols / 2) * s.cell;
      const x1 = (e - s.cols / 2) * s.cell;
      const z = (r + 0.5 - s.rows / 2) * s.cell;
      out.push({ type: 'box', half: [(x1 - x0) / 2, (y1 - y0) / 2, s.cell / 2], pose: { p: [(x0 + x1) / 2, (y0 + y1) / 2, z], q: IDENTITY } });
      c = e;
    }
  }
  return out;
}

/** Adds the room: floor and its checker, walls, platform, ramp, rails, marked cells and the compass letter; returns how many rail bodies it made. */
function addRoom(world: World, s: P3Scene, level: Level): number {
  const w = (s.cols * s.cell) / 2;
  const d = (s.rows * s.cell) / 2;
  world.addBody({ name: 'floor', kind: 'static', pose: { p: [0, -0.005, 0], q: IDENTITY }, shapes: [{ type: 'box', half: [w + 0.06, 0.005, d + 0.06] }], color: FLOOR_COLORS[0] });
  // Every other ground cell a shade darker, so cells can be counted.
  const darker = rowRuns(s, (i) => level.kind[i] === 'ground' && (colRow(level, i)[0] + colRow(level, i)[1]) % 2 === 1, 0, 0.0004);
  if (darker.length) world.addBody({ name: 'floor-checker', kind: 'static', collides: false, pose: { p: [0, 0, 0], q: IDENTITY }, shapes: darker, color: FLOOR_COLORS[1] });
  // One body per wall block, so a rollback view tints only the block that was hit. They are
  // numbered in reading order, and messages call each one just 'wall' (a number in the text
  // would tell a prober which block it hit).
  let wallNo = 0;
  level.kind.forEach((k, i) => {
    if (k !== 'wall') return;
    const [x, z] = cellXZ(s, i);
    world.addBody({ name: `wall-${++wallNo}`, kind: 'static', pose: { p: [x, s.wallHeight / 2, z], q: IDENTITY }, shapes: [{ type: 'box', half: [s.cell / 2, s.wallHeight / 2, s.cell / 2] }], color: WALL_COLOR, tags: ['wall'], spokenName: 'wall' });
  });
  if (level.kind.includes('platform')) {
    world.addBody({ name: 'platform', kind: 'static', pose: { p: [0, 0, 0], q: IDENTITY }, shapes: rowRuns(s, (i) => level.kind[i] === 'platform', 0, s.platformHeight), color: PLATFORM_COLOR });
  }
  const ramp = level.kind.indexOf('ramp');
  if (ramp >= 0) {
    const [x, z] = cellXZ(s, ramp);
    const [dc, dr] = DIRECTION_STEP[TRAY_DIRECTIONS[level.rise[ramp]]];
    const h = s.cell / 2;
    // A wedge: its bottom fills the cell, its top rises from the low edge (height 0) to the high edge (platform height).
    const pts: Vec3[] = [];
    for (const a of [-1, 1]) {
      for (const b of [-1, 1]) {
        const px = dc !== 0 ? a * h : b * h;
        const pz = dc !== 0 ? b * h : a * h;
        const along = dc !== 0 ? a * dc : a * dr; // +1 at the high edge
        pts.push([x + px, 0, z + pz]);
        pts.push([x + px, along > 0 ? s.platformHeight : 0.0004, z + pz]);
      }
    }
    world.addBody({ name: 'ramp', kind: 'static', pose: { p: [0, 0, 0], q: IDENTITY }, shapes: [{ type: 'hull', points: pts }], color: RAMP_COLOR });
    // Dark stripes across the slope, as on a loading ramp, so it reads as a slope from above.
    const q = rampQuat(s, level.rise[ramp]);
    const len = Math.hypot(s.cell, s.platformHeight);
    const stripes: ShapeSpec[] = [-0.3, 0, 0.3].map((f) => {
      const along = f * s.cell;
      const half: Vec3 = dc !== 0 ? [0.0025, 0.0004, s.cell / 2 - 0.004] : [s.cell / 2 - 0.004, 0.0004, 0.0025];
      // A point on the slope `along` metres uphill of the centre, lifted along the normal.
      const y = s.platformHeight / 2 + (along * s.platformHeight) / s.cell + (0.0005 * s.cell) / len;
      return { type: 'box', half, pose: { p: [x + dc * along - (dc * s.platformHeight * 0.0005) / len, y, z + dr * along - (dr * s.platformHeight * 0.0005) / len], q } };
    });
    world.addBody({ name: 'ramp-stripes', kind: 'static', collides: false, pose: { p: [0, 0, 0], q: IDENTITY }, shapes: stripes, color: RAIL_COLOR });
  }
  // Rails on every edge of a platform or ramp cell that is not a passage (walls close theirs).
  const rails: ShapeSpec[] = [];
  const top = s.platformHeight + RAIL_RISE;
  level.kind.forEach((k, i) => {
    if (k !== 'platform' && k !== 'ramp') return;
    const [x, z] = cellXZ(s, i);
    TRAY_DIRECTIONS.forEach((dir, di) => {
      const [dc, dr] = DIRECTION_STEP[dir];
      const [c, r] = colRow(level, i);
      const j = c + dc + (r + dr) * s.cols;
      const kj = level.kind[j];
      if (kj === 'wall' || step(level, i, di) >= 0) return;
      // Between two cells that both get a rail (platform beside ramp), draw it once.
      if ((kj === 'platform' || kj === 'ramp') && j < i) return;
      const half: Vec3 = dc !== 0 ? [RAIL_THICKNESS / 2, top / 2, s.cell / 2 + RAIL_THICKNESS / 2] : [s.cell / 2 + RAIL_THICKNESS / 2, top / 2, RAIL_THICKNESS / 2];
      rails.push({ type: 'box', half, pose: { p: [x + (dc * s.cell) / 2, top / 2, z + (dr * s.cell) / 2], q: IDENTITY } });
    });
  });
  rails.forEach((shape, k) => world.addBody({ name: `rail-${k + 1}`, kind: 'static', pose: { p: [0, 0, 0], q: IDENTITY }, shapes: [shape], color: RAIL_COLOR, tags: ['rail'], spokenName: 'rail' }));
  level.goals.forEach((g, k) => {
    const [x, z] = cellXZ(s, g);
    const y = (level.kind[g] === 'platform' ? s.platformHeight : 0) + 0.0006;
    world.addBody({ name: `mark-${k + 1}`, kind: 'static', collides: false, pose: { p: [x, y, z], q: IDENTITY }, shapes: [{ type: 'box', half: [s.cell / 2 - 0.003, 0.0006, s.cell / 2 - 0.003] }], color: GOAL_COLOR });
  });
  // On top of the north wall, so no wall hides it from any side.
  world.addBody({ name: 'compass-N', kind: 'static', collides: false, pose: { p: [0, s.wallHeight + 0.0006, -d + s.cell / 2], q: IDENTITY }, shapes: glyphShapes('N', s.cell * 0.7, 0.001), color: '#f4f1e8' });
  return rails.length;
}

/** The cell a piece stands on, read from its pose, and how far it is from that cell's resting pose (m). */
function pieceCell(s: P3Scene, level: Level, name: string, hh: number, world: World): { cell: number; offset: number } {
  const p = world.getPose(name).p;
  const c = Math.round(p[0] / s.cell + s.cols / 2 - 0.5);
  const r = Math.round(p[2] / s.cell + s.rows / 2 - 0.5);
  if (c < 0 || r < 0 || c >= s.cols || r >= s.rows) return { cell: -1, offset: Infinity };
  const cell = c + r * s.cols;
  const rest = restPose(s, level, cell, hh).p;
  return { cell, offset: Math.hypot(p[0] - rest[0], p[1] - rest[1], p[2] - rest[2]) };
}

/** Builds the world of a P3 instance and returns the episode logic. */
export function build(instance: Instance<P3Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  const level = parseLevel(s);
  const railCount = addRoom(world, s, level);
  level.crates.forEach((c, k) =>
    world.addBody({
      name: crateBody(k + 1),
      kind: 'kinematic',
      pose: restPose(s, level, c, CRATE_HALF),
      shapes: [{ type: 'box', half: [CRATE_HALF, CRATE_HALF, CRATE_HALF] }],
      material: { density: 500, friction: 0.5, restitution: 0 },
      color: CRATE_COLOR,
      tags: ['crate'],
    }),
  );
  world.addBody({
    name: 'pusher',
    kind: 'kinematic',
    pose: restPose(s, level, level.pusher, PUSHER_HALF_HEIGHT),
    shapes: [{ type: 'cylinder', radius: PUSHER_RADIUS, halfHeight: PUSHER_HALF_HEIGHT }],
    material: { density: 900, friction: 0.5, restitution: 0 },
    color: PUSHER_COLOR,
    tags: ['pusher'],
  });
  const crateNames = level.crates.map((_, k) => crateBody(k + 1));
  const state = (): P3State => ({
    crates: crateNames.map((n) => pieceCell(s, level, n, CRATE_HALF, world).cell).sort((a, b) => a - b),
    pusher: pieceCell(s, level, 'pusher', PUSHER_HALF_HEIGHT, world).cell,
  });
  // Only progress() needs the pull-distance table: a simulated world never builds it.
  const start = state();
  const distances = lazy(() => {
    const table = pullDistances(level, { maxStates: 1_000_000 });
    return { table, start: Math.max(1, pushDistance(level, table, start)) };
  });
  const goalSet = new Set(level.goals);
  const cols = s.cols;
  const gridStep = (cell: number, d: number): number => {
    const [dc, dr] = DIRECTION_STEP[TRAY_DIRECTIONS[d]];
    const [c, r] = colRow(level, cell);
    const cc = c + dc;
    const rr = r + dr;
    return cc < 0 || rr < 0 || cc >= s.cols || rr >= s.rows ? -1 : cc + rr * cols;
  };
  const describeCell = (cell: number): string => {
    const [c, r] = colRow(level, cell);
    const where = level.kind[cell] === 'platform' ? ' (on the platform)' : level.kind[cell] === 'ramp' ? ' (on the ramp)' : '';
    return `column ${c} from the west, row ${r} from the north${where}`;
  };

  return {
    tools: {
      move(args) {
        const dir = String(args.direction) as TrayDirection;
        const d = TRAY_DIRECTIONS.indexOf(dir);
        if (d < 0) throw new SpaceActError('invalid-argument', `unknown direction ${dir}`);
        const at = pieceCell(s, level, 'pusher', PUSHER_HALF_HEIGHT, world).cell;
        const to = gridStep(at, d);
        if (to < 0) throw new ViolationError({ kind: 'rule', bodies: ['pusher'], message: 'the pusher would leave the room' });
        const crate = crateNames.find((n) => pieceCell(s, level, n, CRATE_HALF, world).cell === to);
        let pushed = false;
        if (crate) {
          const beyond = gridStep(to, d);
          if (beyond < 0) throw new ViolationError({ kind: 'rule', bodies: [crate], message: 'the crate would leave the room' });
          // The crate goes first, along its own swept path; the pusher follows into the cell it left.
          world.moveSwept(crate, restPose(s, level, beyond, CRATE_HALF), { exclude: SURFACES.filter((b) => world.hasBody(b)) });
          pushed = true;
        }
        world.moveSwept('pusher', restPose(s, level, to, PUSHER_HALF_HEIGHT), { exclude: SURFACES.filter((b) => world.hasBody(b)) });
        // The graph the solver searches and the world agree; a disagreement is a bug, not a move.
        const expected = step(level, at, d);
        if (expected !== to || (pushed && step(level, to, d) !== gridStep(to, d))) {
          throw new SpaceActError('invalid-state', `P3: the world let the pusher step ${dir} where the rules have no passage`);
        }
        return pushed ? `pushed a crate one cell ${dir}` : `walked one cell ${dir}`;
      },
    },
    solved() {
      return crateNames.every((n) => {
        const c = pieceCell(s, level, n, CRATE_HALF, world);
        return goalSet.has(c.cell) && c.offset < 0.002;
      });
    },
    // The first view shows the room, every crate, the pusher, every green cell and the N; at L7
    // (+occ) the tall walls hide on purpose the crates and green cells the generator chose the
    // low first camera for (sight.ts, every test point of the part behind a wall block).
    viewParts: () => {
      const walls = level.kind.flatMap((k, i) => (k === 'wall' ? [i] : [])).map((_, n) => `wall-${n + 1}`);
      const rails = Array.from({ length: railCount }, (_, k) => `rail-${k + 1}`);
      return [
        {
          bodies: [
            { name: 'floor', minPixels: 20000, mayBeCut: true },
            { name: 'walls', group: walls, minPixels: 20000 },
            ...(world.hasBody('platform') ? [{ name: 'platform', minPixels: 1000 }] : []),
            ...(world.hasBody('ramp') ? [{ name: 'ramp', minPixels: 300 }] : []),
            ...(rails.length ? [{ name: 'rails', group: rails, minPixels: 300 }] : []),
            ...crateNames.map((name) => ({ name, minPixels: 600 })),
            { name: 'pusher', minPixels: 400 },
            ...level.goals.map((_, k) => ({ name: `mark-${k + 1}`, minPixels: 150 })),
            { name: 'compass-N', minPixels: 120 },
          ],
          letters: [{ body: 'compass-N', text: 'N', role: 'compass' }],
          hidden: firstViewHiddenBodies(s),
          hiddenBecause: '+occ (L7): the tall walls hide a crate or a green cell wholly from the low first view',
          // The tier text promises one crate or one green cell, no more.
          hiddenAtMost: 1,
          // The floor's checker pattern and the ramp's stripes are paint on required bodies.
          scenery: ['floor-checker', 'ramp-stripes'],
        },
      ];
    },
    staticsAfter() {
      // The crates and the pusher are kinematic pieces standing on the floor: nothing settles.
      return false;
    },
    progress() {
      const { table, start: startDistance } = distances();
      const dist = pushDistance(level, table, state());
      return dist < 0 ? 0 : Math.max(0, 1 - dist / startDistance);
    },
    stateText() {
      const st = state();
      const lines = [`Pusher: ${describeCell(st.pusher)}.`, ...st.crates.map((c) => `Crate: ${describeCell(c)}${goalSet.has(c) ? ', on a green cell' : ''}.`)];
      lines.push(...level.goals.map((g) => `Green cell: ${describeCell(g)}.`));
      return lines.join('\n');
    },
  };
}

export { opposite };
