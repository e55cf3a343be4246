/**
 * P2 episode: the walled lot, the vehicles (boxes with their letters on the roof) and the green
 * exit gate as bodies, and the `drive` tool acting on them with straight swept motion along each
 * vehicle's own axis. Which cell each vehicle is on is read from its pose, so a snapshot of the
 * world is the whole episode state.
 */
import { SpaceActError } from '../../../core/errors.ts';
import { ViolationError } from '../../../sim/violation.ts';
import type { World } from '../../../sim/world.ts';
import { lazy } from '../../../core/lazy.ts';
import { goalDistances } from '../../../solvers/discrete-search/index.ts';
import { addPiece, addTray, blockCentre, labelOf, pieceCell, trayViewBodies, trayLetters, slidePiece, TRAY_DIRECTIONS, TRAY_MARGIN, trayQuat, trayToWorld, WALL_THICKNESS, type TrayDirection, type TrayLayout } from '../../kits/grid-tray.ts';
import { glyphShapes } from '../../kits/glyphs.ts';
import { unseenPoints, type SightBox, type SightPoint } from '../../kits/sight-lines.ts';
import type { Vec3 } from '../../../sim/types.ts';
import type { FamilyEnv, Instance } from '../../types.ts';
import { CAR_HEIGHT, GOAL_COLOR, hiddenBehindTall, TALL_HEIGHT, TARGET_COLOR, TRUCK_HEIGHT, VEHICLE_COLORS, WALL_HEIGHT, type P2Scene, type P2Vehicle } from './scene.ts';
import { trafficProblem } from './solver.ts';

/** The north rim of the lot when a vehicle is tall (the lower L7 camera), m. */
const L7_NORTH_MARGIN = 0.09;

/** Letter height of the compass N, m: the grid-tray kit's for its rim (`addTray`). */
const COMPASS_SIZE = Math.min(0.03, TRAY_MARGIN * 0.5);

/**
 * Where the compass N lies along the north rim, as x in the lot's frame (m). It lies at the
 * middle, as the grid-tray kit lays it, unless the tall vehicle stands in front of it as the
 * first camera sees it. Then it moves a column at a time, first away from the tall vehicle,
 * to the first spot where the first camera sees all of it past that vehicle (by sight lines).
 * Version 6: at P2-L7-s39 the tall car stood in the second row from the north, just east of
 * the middle, and hid half of the N (107 pixels shown; the view rule asks for 120). The rules
 * name every direction by the N. A lot with no tall vehicle keeps its N at the middle.
 */
export function compassX(instance: Instance<P2Scene>): number {
  const s = instance.scene;
  const tall = s.vehicles.find((v) => v.id === s.tall);
  if (!tall) return 0;
  const tray: TrayLayout = { cols: s.size, rows: s.size, cell: s.cell, yawDeg: 0 };
  const { w, h } = footprint(tall);
  const [cx, cz] = blockCentre(tray, tall.col, tall.row, w, h);
  // The tall vehicle's box, without the clearance round a piece: a little wider than drawn.
  const box: SightBox = { center: [cx, TALL_HEIGHT / 2, cz], half: [(w * s.cell) / 2, TALL_HEIGHT / 2, (h * s.cell) / 2] };
  const z = compassZ(s);
  // The letter's corners and middle, with half a centimetre round it.
  const reach = COMPASS_SIZE / 2 + 0.005;
  const letter = (x: number): SightPoint[] =>
    [[0, 0], [-1, -1], [-1, 1], [1, -1], [1, 1]].map(([i, j]) => ({ point: [x + i * reach, 0.0006, z + j * reach] as Vec3, what: 'compass N' }));
  const away = cx > 0 ? -1 : 1;
  const spots = [0, ...[1, 2, 3].map((k) => away * k * s.cell), ...[1, 2, 3].map((k) => -away * k * s.cell)];
  return spots.find((x) => unseenPoints(instance.camera.initial, letter(x), [box]).length === 0) ?? 0;
}

/** The width of the rim beyond the north wall, m: wider at L7 (see `build`). */
function northRim(s: P2Scene): number {
  return s.tall ? L7_NORTH_MARGIN : TRAY_MARGIN;
}

/** The compass N's z in the lot's frame (m): where the grid-tray kit lays it on the north rim. */
function compassZ(s: P2Scene): number {
  return -(s.size * s.cell) / 2 - WALL_THICKNESS - northRim(s) + COMPASS_SIZE / 2 + 0.006;
}

/** Body name of a vehicle. */
export function vehicleBody(id: string): string {
  return `vehicle-${id}`;
}

function footprint(v: P2Vehicle): { w: number; h: number } {
  return { w: v.axis === 'ew' ? v.length : 1, h: v.axis === 'ns' ? v.length : 1 };
}

/** Builds the world of a P2 instance and returns the episode logic. */
export function build(instance: Instance<P2Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  const tray: TrayLayout = { cols: s.size, rows: s.size, cell: s.cell, yawDeg: 0 };
  // The L7 camera looks lower (42°, so the tall vehicle hides what stands behind it): a wider
  // north rim keeps the N out of what the north wall hides.
  addTray(world, tray, { wallHeight: WALL_HEIGHT, floorColor: '#b9bcc0', wallColor: '#6b6f75', northMargin: s.tall ? northRim(s) : undefined, compass: false });
  // The compass N, laid as the kit lays it but moved along the rim out from behind the tall
  // vehicle (compassX).
  world.addBody({
    name: 'compass-N',
    kind: 'static',
    collides: false,
    pose: { p: trayToWorld(tray, compassX(instance), 0.0006, compassZ(s)), q: trayQuat(tray) },
    shapes: glyphShapes('N', COMPASS_SIZE, 0.001),
    color: '#1f2d3d',
  });
  const a = s.vehicles[0];
  const half = (s.size * s.cell) / 2;
  const laneZ = (a.row + 0.5 - s.size / 2) * s.cell;
  // The exit: green cells before the gate and the gate itself, a green bar on the east wall.
  world.addBody({
    name: 'exit-cells',
    kind: 'static',
    collides: false,
    pose: { p: trayToWorld(tray, (s.goalCol + 1 - s.size / 2) * s.cell, 0.0004, laneZ), q: trayQuat(tray) },
    shapes: [{ type: 'box', half: [s.cell - 0.003, 0.0004, s.cell / 2 - 0.003] }],
    color: GOAL_COLOR,
  });
  world.addBody({
    name: 'exit-gate',
    kind: 'static',
    collides: false,
    pose: { p: trayToWorld(tray, half + WALL_THICKNESS / 2, WALL_HEIGHT + 0.0008, laneZ), q: trayQuat(tray) },
    shapes: [{ type: 'box', half: [WALL_THICKNESS / 2 + 0.0005, 0.0008, s.cell / 2] }],
    color: GOAL_COLOR,
  });
  s.vehicles.forEach((v, i) => {
    const { w, h } = footprint(v);
    addPiece(world, tray, {
      name: vehicleBody(v.id),
      label: v.id,
      col: v.col,
      row: v.row,
      w,
      h,
      height: v.id === s.tall ? TALL_HEIGHT : v.length === 3 ? TRUCK_HEIGHT : CAR_HEIGHT,
      color: i === 0 ? TARGET_COLOR : VEHICLE_COLORS[(i - 1) % VEHICLE_COLORS.length],
    });
  });

  const problem = trafficProblem(s);
  const state = (): number[] =>
    s.vehicles.map((v) => {
      const { w, h } = footprint(v);
      const c = pieceCell(world, tray, vehicleBody(v.id), w, h);
      return c.col + c.row * s.size;
    });
  // Only progress() needs the distance table: a simulated world never builds it.
  const distances = lazy(() => {
    const toGoal = goalDistances(problem, { maxStates: 500_000 }).toGoalByKey;
    return { toGoal, start: toGoal.get(problem.key(problem.start)) ?? 1 };
  });

  return {
    tools: {
      drive(args) {
        const id = String(args.vehicle);
        const dir = String(args.direction) as TrayDirection;
        const cells = Number(args.cells);
        const v = s.vehicles.find((x) => x.id === id);
        if (!v || !TRAY_DIRECTIONS.includes(dir)) throw new SpaceActError('invalid-argument', `unknown vehicle ${id} or direction ${dir}`);
        const along = v.axis === 'ew' ? dir === 'east' || dir === 'west' : dir === 'north' || dir === 'south';
        if (!along) {
          throw new ViolationError({
            kind: 'rule',
            bodies: [vehicleBody(id)],
            message: `vehicle ${id} cannot move ${dir}: vehicles only drive along their length`,
          });
        }
        slidePiece(world, tray, vehicleBody(id), dir, cells);
        return `vehicle ${id} drove ${cells} cell${cells === 1 ? '' : 's'} ${dir}`;
      },
    },
    solved() {
      const c = pieceCell(world, tray, vehicleBody(a.id), 2, 1);
      return c.col === s.goalCol && c.row === a.row && c.offset < 0.003;
    },
    // The first view (view rule, AUTHORING step 4a): the lot, its N, the exit and every lettered
    // vehicle, less those the tall vehicle hides on purpose at L7 (hiddenBehindTall).
    viewParts: () => [
      {
        bodies: [...trayViewBodies(s.vehicles.map((v) => vehicleBody(v.id))), { name: 'exit-gate', minPixels: 300 }],
        letters: trayLetters(s.vehicles.map((v) => ({ body: vehicleBody(v.id), text: v.id }))),
        hidden: hiddenBehindTall(s).flatMap((id) => [vehicleBody(id), labelOf(vehicleBody(id))]),
        hiddenBecause: '+occ (L7): the tall vehicle hides the vehicles just north of it from the low first view',
        // The promise is where, not how many: the vehicles just north of the tall one, which
        // hiddenBehindTall lists (a vehicle's letter goes with it); every other vehicle must be seen.
        hiddenAtMost: hiddenBehindTall(s).length,
        // The painted cells in front of the exit gate (the gate itself is required).
        scenery: ['exit-cells'],
      },
    ],
    staticsAfter() {
      // Vehicles ride on the lot's floor (kinematic): nothing can settle or topple.
      return false;
    },
    progress() {
      const { toGoal, start } = distances();
      const d = toGoal.get(problem.key(state()));
      return d === undefined || d < 0 ? 0 : Math.max(0, 1 - d / start);
    },
    stateText() {
      const lines = s.vehicles.map((v) => {
        const { w, h } = footprint(v);
        const c = pieceCell(world, tray, vehicleBody(v.id), w, h);
        return `Vehicle ${v.id} (${v.length === 2 ? 'car' : 'truck'}, lying ${v.axis === 'ew' ? 'east–west' : 'north–south'}${v.id === s.tall ? ', tall' : ''}): north-west cell on column ${c.col + 1} from the west, row ${c.row + 1} from the north.`;
      });
      lines.push(`Exit: row ${a.row + 1}; A is out when its west end is on column ${s.goalCol + 1}.`);
      return lines.join('\n');
    },
  };
}
