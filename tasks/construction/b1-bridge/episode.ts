/**
 * B1 episode: builds the world of an instance (floor, two studded piers, the hanging weight that
 * marks the load cell, the grid's axis arrows) on a {@link BrickSystem}, and binds the `place`,
 * `remove` and `commit` tools to it.
 *
 * Studs are drawn, not simulated: the brick system models stud grip in its statics analysis
 * and gives every pier and brick its studs as drawn-only shapes (`BodySpec.visual`).
 *
 * Family state in `world.meta` (snapshotted with the world, so rollbacks undo it):
 * `placed` (brick name → type id, in placement order), `nextId` (the next brick number) and
 * `result` (the load test's outcome once committed). Everything else comes from the brick
 * system's registry and the body poses.
 */
import { BRICK_WORLD_OPTIONS, BrickSystem } from '../../../sim/bricks.ts';
import { SpaceActError } from '../../../core/errors.ts';
import { ViolationError } from '../../../sim/violation.ts';
import { yawQuat } from '../../../sim/math.ts';
import type { Pose, ShapeSpec } from '../../../sim/types.ts';
import type { World, WorldOptions } from '../../../sim/world.ts';
import type { FamilyEnv, Instance } from '../../types.ts';
import { brickType, PITCH, PLATE } from '../../kits/bricks/catalog.ts';
import { gridToWorld, spanCells, type B1Scene } from './scene.ts';

const PIER_COLOR = '#95a5a6';
const WEIGHT_SIZE = 0.014;
/** The weight hangs this far below the pier tops before the test, m. */
const WEIGHT_DROP = 0.026;
const ARROW_CELLS = 3;
const COLORS = { col: '#d62728', row: '#1f77b4', weight: '#2c3e50', cord: '#4d5656' };

/** The outcome of the load test, kept in `world.meta.result`. */
export interface LoadResult {
  held: boolean;
  /** The brick the load hung from, or null when nothing covered the load cell. */
  loadedOn: string | null;
  message: string;
}

function cols(a: number, n: number): string {
  return n === 1 ? `${a}` : `${a}–${a + n - 1}`;
}

/** An arrow along local +X from the origin: a bar and a pyramid head. */
function arrowShapes(length: number): ShapeSpec[] {
  const r = 0.0006;
  const head = 0.0018;
  return [
    { type: 'box', half: [length / 2, r, r], pose: { p: [length / 2, 0, 0], q: [0, 0, 0, 1] } },
    {
      type: 'hull',
      points: [
        [length, head, head],
        [length, head, -head],
        [length, -head, head],
        [length, -head, -head],
        [length + 0.005, 0, 0],
      ],
    },
  ];
}

/** World settings: the brick system's (fine time step, contact stiffness for stud-sized parts). */
export function worldOptions(): WorldOptions {
  return { ...BRICK_WORLD_OPTIONS };
}

/** Builds the B1 world for `instance` and returns its tools and tests. */
export function build(instance: Instance<B1Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  const W = s.pierCols;
  const G = s.gap;
  const supply = new Map(s.supply.map((x) => [x.type, x.count]));
  const bricks = new BrickSystem(world, { grid: { name: 'grid', origin: gridToWorld(s, 0, 0, 0), yawDeg: s.yawDeg } });
  const q = yawQuat(s.yawDeg);
  const pose = (x: number, z: number, layer: number): Pose => ({ p: gridToWorld(s, x, z, layer), q });

  world.addBody({
    name: 'floor',
    kind: 'static',
    pose: { p: [0, -0.005, 0], q: [0, 0, 0, 1] },
    shapes: [{ type: 'box', half: [0.5, 0.005, 0.5] }],
    material: { density: 1000, friction: 0.6, restitution: 0 },
    visible: false,
  });

  for (const [name, col] of [['pier-west', 0], ['pier-east', W + G]] as const) {
    bricks.addBaseplate({ name, size: [W, s.rows], cell: [col, 0], top: 0, height: s.pierPlates, color: PIER_COLOR });
  }

  // The weight under the load cell, on a cord up to the pier tops: it marks where the load hangs.
  const [lc, lr] = s.loadCell;
  const cordLength = WEIGHT_DROP - WEIGHT_SIZE / 2;
  world.addBody({
    name: 'load-weight',
    kind: 'static',
    collides: false,
    pose: { p: gridToWorld(s, lc + 0.5, lr + 0.5, -WEIGHT_DROP / PLATE), q },
    shapes: [{ type: 'box', half: [WEIGHT_SIZE / 2, WEIGHT_SIZE / 2, WEIGHT_SIZE / 2] }],
    color: COLORS.weight,
  });
  world.addBody({
    name: 'load-cord',
    kind: 'static',
    collides: false,
    pose: { p: gridToWorld(s, lc + 0.5, lr + 0.5, -cordLength / 2 / PLATE), q },
    shapes: [{ type: 'box', half: [0.0004, cordLength / 2, 0.0004] }],
    color: COLORS.cord,
  });

  // Axis arrows from just outside the west pier's cell (0, 0) corner: red along +col, blue along +row.
  const arrowLength = ARROW_CELLS * PITCH;
  world.addBody({ name: 'axis-col', kind: 'static', collides: false, pose: pose(-0.5, -0.5, 0.3), shapes: arrowShapes(arrowLength), color: COLORS.col });
  world.addBody({ name: 'axis-row', kind: 'static', collides: false, pose: { p: gridToWorld(s, -0.5, -0.5, 0.3), q: yawQuat(s.yawDeg - 90) }, shapes: arrowShapes(arrowLength), color: COLORS.row });

  world.meta.placed = {};
  world.meta.nextId = 1;
  world.meta.result = null;
  const placed = (): Record<string, string> => world.meta.placed as Record<string, string>;
  const result = (): LoadResult | null => world.meta.result as LoadResult | null;
  const usedOf = (type: string): number => Object.values(placed()).filter((t) => t === type).length;

  const connectionText = (name: string): string => {
    const under = bricks.connections().filter((c) => c.upper === name);
    return under.map((c) => `${c.studs.length} stud${c.studs.length === 1 ? '' : 's'} on '${c.lower}'`).join(', ');
  };

  const describePart = (name: string): string => {
    const p = bricks.partInfo(name);
    return `col${p.footprint[0] > 1 ? 's' : ''} ${cols(p.cell[0], p.footprint[0])}, row${p.footprint[1] > 1 ? 's' : ''} ${cols(p.cell[1], p.footprint[1])}, bottom at layer ${p.layer}`;
  };

  const supplyLeft = (): string =>
    s.supply
      .map((x) => `${x.type} ×${s.budgeted ? x.count - usedOf(x.type) : 'any'}`)
      .join(', ');

  /** Gap columns covered by bricks, and whether one connected structure holds both piers. */
  const spanState = (): { covered: number; tied: boolean } => {
    const parent = new Map<string, string>();
    const find = (n: string): string => {
      let r = n;
      while (parent.has(r) && parent.get(r) !== r) r = parent.get(r)!;
      return r;
    };
    for (const c of bricks.connections()) {
      const a = find(c.lower);
      const b = find(c.upper);
      if (a !== b) parent.set(a, b);
    }
    const grounded = new Set([find('pier-west'), find('pier-east')]);
    const cells = new Set<number>();
    for (const p of bricks.parts()) {
      if (p.fixed || !grounded.has(find(p.name))) continue;
      for (let c = p.cell[0]; c < p.cell[0] + p.footprint[0]; c++) if (c >= W && c < W + G) cells.add(c);
    }
    return { covered: cells.size, tied: find('pier-west') === find('pier-east') };
  };

  return {
    tools: {
      place(args) {
        const type = brickType(String(args.brick_type));
        const col = Number(args.col);
        const row = Number(args.row);
        const rot = Number(args.rot_deg) === 90 ? 90 : 0;
        const layer = args.layer === undefined ? undefined : Number(args.layer);
        if (!supply.has(type.id)) throw new SpaceActError('invalid-argument', `brick_type: '${type.id}' is not in this supply`, { field: 'brick_type' });
        const standing = Object.keys(placed()).length;
        if (s.budgeted && usedOf(type.id) >= supply.get(type.id)!) {
          throw new ViolationError({ kind: 'rule', bodies: [], message: `No ${type.id} left: all ${supply.get(type.id)} of them are placed. Remove one to reuse it.` });
        }
        if (standing >= s.maxBricks) {
          throw new ViolationError({ kind: 'rule', bodies: [], message: `At most ${s.maxBricks} bricks may stand at once. Remove one first.` });
        }
        const id = world.meta.nextId as number;
        const name = `b${id}`;
        world.meta.nextId = id + 1;
        bricks.place({
          name,
          size: [type.length, type.width],
          plate: type.plate,
          cell: [col, row],
          rot: rot as 0 | 90,
          ...(layer === undefined ? {} : { layer }),
          color: type.color,
        });
        world.meta.placed = { ...placed(), [name]: type.id };
        return { message: `Placed ${type.id} as '${name}': ${describePart(name)}; held by ${connectionText(name)}.`, data: { brick: name } };
      },
      remove(args) {
        const name = String(args.brick);
        if (!Object.hasOwn(placed(), name)) {
          const names = Object.keys(placed());
          throw new SpaceActError('invalid-argument', `brick: there is no placed brick '${name}'${names.length ? ` (placed: ${names.join(', ')})` : ' (none is placed)'}`, { field: 'brick' });
        }
        const type = placed()[name];
        bricks.remove(name);
        const next = { ...placed() };
        delete next[name];
        world.meta.placed = next;
        return `Removed '${name}' (${type}); it is back in the supply.`;
      },
      commit() {
        const top = bricks.partAt(s.loadCell);
        let r: LoadResult;
        if (!top || bricks.partInfo(top).fixed) {
          r = { held: false, loadedOn: null, message: `No brick covers the load cell (col ${lc}, row ${lr}): the ${s.loadKg} kg load fell into the gap.` };
        } else {
          const info = bricks.partInfo(top);
          const point = bricks.gridPoint('grid', lc + 0.5, lr + 0.5, info.layer + info.height);
          const test = bricks.loadTest({ body: top, point, mass: s.loadKg, seconds: s.holdSeconds });
          r = {
            held: test.held,
            loadedOn: top,
            message: test.held
              ? `The bridge held: the ${s.loadKg} kg load hung from '${top}' for ${s.holdSeconds} s and nothing moved more than 2 mm.`
              : `The bridge failed under the ${s.loadKg} kg load hung from '${top}'. ${test.message}`,
          };
        }
        if (!r.held) {
          // The weight falls to the floor.
          world.removeBody('load-cord');
          world.setPose('load-weight', { p: [gridToWorld(s, lc + 0.5, lr + 0.5, 0)[0], WEIGHT_SIZE / 2, gridToWorld(s, lc + 0.5, lr + 0.5, 0)[2]], q });
        }
        world.meta.result = { ...r };
        return { message: r.message, data: { held: r.held } };
      },
    },
    solved() {
      return result()?.held === true;
    },
    progress() {
      if (result()?.held) return 1;
      const { covered, tied } = spanState();
      // Below 1 until the load has held: spanning and tying the gap is most of the way.
      return 0.6 * (covered / G) + (tied ? 0.3 : 0);
    },
    stateText() {
      const lines = [
        `Grid: ${spanCells(s)} cols × ${s.rows} rows, pitch ${PITCH * 1000} mm${s.yawDeg ? `, turned ${s.yawDeg}° about the vertical (counter-clockwise seen from above) relative to the first view` : ''}. West pier cols 0–${W - 1}, gap cols ${W}–${W + G - 1} (${G} cells, ${G * PITCH * 1000} mm), east pier cols ${W + G}–${2 * W + G - 1}; rows 0–${s.rows - 1}; pier tops at layer 0.`,
        `Load: ${s.loadKg} kg at cell (col ${lc}, row ${lr}) for ${s.holdSeconds} s.`,
      ];
      const names = Object.keys(placed());
      if (!names.length) lines.push('No bricks placed.');
      for (const n of names) lines.push(`${n}: ${placed()[n]}, ${describePart(n)}; on ${connectionText(n) || 'nothing (loose)'}.`);
      lines.push(`Supply left: ${supplyLeft()}.`);
      const r = result();
      if (r) lines.push(`Load test: ${r.held ? 'held' : 'failed'}.`);
      return lines.join('\n');
    },
    observationText() {
      const n = Object.keys(placed()).length;
      return `Supply left: ${supplyLeft()}. Bricks standing: ${n} (at most ${s.maxBricks}).`;
    },
  };
}

