/**
 * B2 episode: builds the world of an instance — the measuring mat (`tasks/kits/measuring-mat.ts`:
 * mat, lines, origin target; its rulers are in the instance), the studded table on a
 * {@link BrickSystem} grid placed and turned as the scene says, the thin post beyond the edge
 * whose red ball marks the target, and the payload waiting on the mat — and binds the `place`,
 * `remove` and `commit` tools to it.
 *
 * `place` takes world metres and a yaw in degrees and snaps the brick onto the stud grid of what
 * is under it (within `SNAP_TOLERANCE` and `YAW_TOLERANCE_DEG`); everything that depends on the
 * scene — nothing under the brick, off the grid, turned off the grid, a collision, a structure
 * that cannot stand, the brick budget or a type used up — is a violation (rolled back, and it
 * costs an action of the episode's budget), never a free refusal, so that probing the site with
 * refused placements is not free. A refused brick is shown where it was asked for in the
 * rollback image.
 *
 * At commit the payload is hung on a cord from the highest brick over the target and
 * {@link BrickSystem.loadTest} decides (stud statics, then Rapier's motion); the load-test
 * picture shows it hanging there, or lying on the mat when it fell.
 *
 * Family state in `world.meta` (snapshotted with the world, so rollbacks undo it): `placed`
 * (brick name → type id, in placement order), `nextId` (the next brick number) and `result`
 * (the load test's outcome once committed).
 */
import { BRICK_WORLD_OPTIONS, BrickSystem, type BrickInfo } from '../../../sim/bricks.ts';
import type { Quat, Vec3 } from '../../../sim/types.ts';
import { ViolationError } from '../../../sim/violation.ts';
import type { World, WorldOptions } from '../../../sim/world.ts';
import type { FamilyEnv, Instance } from '../../types.ts';
import { PITCH, PLATE } from '../../kits/bricks/catalog.ts';
import { studSiteTools, mm, toolQuat } from '../../kits/bricks/stud-site.ts';
import { addMeasuringMat, matViewBodies } from '../../kits/measuring-mat.ts';
import { gridToWorld, SNAP_TOLERANCE, spanCells, tableTopY, toolYaw, worldToGrid, YAW_TOLERANCE_DEG, type B2Scene } from './scene.ts';

const TABLE_COLOR = '#95a5a6';
const COLORS = { weight: '#2c3e50', cord: '#922b21', ball: '#e74c3c', post: '#7b241c' };
/** Side of the payload's cube, m. */
const WEIGHT_SIZE = 0.014;
/** The payload's cord, once hung, is this long from the brick's top to the cube's top, m. */
const CORD_LENGTH = 0.028;
/** Radius of the red ball that marks the target, m. */
const BALL_RADIUS = 0.005;
/** Half width of the cord and of the marker post, m. */
const CORD_HALF = 0.0012;
const POST_HALF = 0.0015;
/** The payload waits on the mat this far in front of the post (+row side), m. */
const WAITING_OFFSET = 0.022;
/** Physical settle after each place or remove, s. */
const SETTLE_SECONDS = 0.1;

/** The outcome of the load test, kept in `world.meta.result`. */
export interface LoadResult {
  held: boolean;
  /** The brick the payload hung from, or null when nothing covered the target. */
  loadedOn: string | null;
  message: string;
  /** Largest motion of a brick during the test, mm (log diagnostics only; absent when nothing was loaded). */
  maxDisplacementMm?: number;
}

/** World settings: the brick system's (fine time step, contact stiffness for stud-sized parts). */
export function worldOptions(): WorldOptions {
  return { ...BRICK_WORLD_OPTIONS };
}



/** Builds the B2 world for `instance` and returns its tools and tests. */
export function build(instance: Instance<B2Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  const W = s.tableCols;
  const R = s.reach;
  const supply = new Map(s.supply.map((x) => [x.type, x.count]));
  const bricks = new BrickSystem(world, { grid: { name: 'grid', origin: gridToWorld(s, 0, 0, 0), yawDeg: -s.reachYawDeg } });
  const gridQ = toolQuat(s.reachYawDeg);
  const identity: Quat = [0, 0, 0, 1];

  addMeasuringMat(world, s.mat);
  bricks.addBaseplate({ name: 'table', size: [W, s.rows], cell: [0, 0], top: 0, height: s.tablePlates, color: TABLE_COLOR });

  // The target: a thin post from the mat up to the red ball at table-top height.
  const [tc, tr] = s.targetCell;
  const ball = gridToWorld(s, tc + 0.5, tr + 0.5, 0);
  const postTop = ball[1] - BALL_RADIUS;
  world.addBody({ name: 'target-ball', kind: 'static', collides: false, pose: { p: ball, q: identity }, shapes: [{ type: 'ball', radius: BALL_RADIUS }], color: COLORS.ball });
  world.addBody({
    name: 'target-post',
    kind: 'static',
    collides: false,
    pose: { p: [ball[0], postTop / 2, ball[2]], q: gridQ },
    shapes: [{ type: 'box', half: [POST_HALF, postTop / 2, POST_HALF] }],
    color: COLORS.post,
  });
  // The payload waits on the mat in front of the post until commit hangs it.
  const waiting = gridToWorld(s, tc + 0.5, tr + 0.5 + WAITING_OFFSET / PITCH, 0);
  world.addBody({
    name: 'payload',
    kind: 'static',
    collides: false,
    pose: { p: [waiting[0], WEIGHT_SIZE / 2, waiting[2]], q: gridQ },
    shapes: [{ type: 'box', half: [WEIGHT_SIZE / 2, WEIGHT_SIZE / 2, WEIGHT_SIZE / 2] }],
    color: COLORS.weight,
  });

  world.meta.result = null;
  const result = (): LoadResult | null => world.meta.result as LoadResult | null;

  const restsOn = (name: string): string => {
    const under = bricks.connections().filter((c) => c.upper === name).map((c) => c.lower);
    const table = under.includes('table') ? ['the table'] : [];
    return [...table, ...under.filter((n) => n !== 'table').map((n) => `'${n}'`)].join(' and ');
  };

  const site = studSiteTools({
    world,
    bricks,
    supply,
    gridYawDeg: s.reachYawDeg,
    toGrid: (x, z) => worldToGrid(s, x, z),
    toWorld: (u, v, layer) => gridToWorld(s, u, v, layer) as Vec3,
    baseY: tableTopY(s),
    toolQuat,
    restsOn,
    snap: SNAP_TOLERANCE,
    yawTolerance: YAW_TOLERANCE_DEG,
    beforePlace: () => {
      if (Object.keys(site.placed()).length >= s.maxBricks) {
        throw new ViolationError({ kind: 'rule', rule: 'brick budget', bodies: [], message: 'The brick budget is spent: as many bricks as it allows already stand. Remove one to place another.' });
      }
    },
  });
  const { placed, usedOf, supplyLeft } = site;

  /** Cells past the edge (toward the target, in the target's row) that a brick held by the table covers: the reach so far. */
  const reachSoFar = (): number => {
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
    const anchored = find('table');
    let best = 0;
    for (const p of bricks.parts()) {
      if (p.fixed || find(p.name) !== anchored) continue;
      if (tr < p.cell[1] || tr >= p.cell[1] + p.footprint[1]) continue;
      best = Math.max(best, Math.min(R, p.cell[0] + p.footprint[0] - W));
    }
    return best;
  };

  /** Where a placed part is, in the world frame and on the grid (for the state read-out). */
  const describePart = (p: BrickInfo): string => {
    const [x, , z] = gridToWorld(s, p.cell[0] + p.footprint[0] / 2, p.cell[1] + p.footprint[1] / 2, 0);
    return `centre x ${mm(x)}, z ${mm(z)}, yaw ${toolYaw(s, p.rot)}°; grid cols ${p.cell[0]}–${p.cell[0] + p.footprint[0] - 1}, rows ${p.cell[1]}–${p.cell[1] + p.footprint[1] - 1}, bottom ${mm(p.layer * PLATE)} above the table top`;
  };

  return {
    tools: {
      place: site.place,
      remove: site.remove,
      commit() {
        const top = bricks.partAt(s.targetCell);
        let r: LoadResult;
        if (!top || bricks.partInfo(top).fixed) {
          r = { held: false, loadedOn: null, message: 'No brick is over the target: the payload fell.' };
        } else {
          const info = bricks.partInfo(top);
          const point = bricks.gridPoint('grid', tc + 0.5, tr + 0.5, info.layer + info.height);
          const test = bricks.loadTest({ body: top, point, mass: s.payloadKg, seconds: s.holdSeconds });
          r = {
            held: test.held,
            loadedOn: top,
            // Names only; how far things moved is in the log's diagnostics (issue 36).
            message: test.held ? `The cantilever held: the payload hung from '${top}' and nothing moved.` : `The cantilever failed under the payload hung from '${top}'. ${test.message}`,
            maxDisplacementMm: Number((test.physical.maxDisplacement * 1000).toFixed(1)),
          };
          if (test.held) {
            // The picture of the test: the marker gives way to the payload on its cord under the tip.
            const brickTop = point[1];
            world.removeBody('target-post');
            world.removeBody('target-ball');
            world.addBody({
              name: 'payload-cord',
              kind: 'static',
              collides: false,
              pose: { p: [ball[0], brickTop - CORD_LENGTH / 2, ball[2]], q: gridQ },
              shapes: [{ type: 'box', half: [CORD_HALF, CORD_LENGTH / 2, CORD_HALF] }],
              color: COLORS.cord,
            });
            world.setPose('payload', { p: [ball[0], brickTop - CORD_LENGTH - WEIGHT_SIZE / 2, ball[2]], q: gridQ });
          }
        }
        world.meta.result = { ...r };
        return { message: r.message, data: { held: r.held }, diagnostics: { payloadKg: s.payloadKg, maxDisplacementMm: r.maxDisplacementMm ?? null } };
      },
    },
    staticsAfter() {
      // The brick system has already solved the stud statics of the new structure; a short
      // physical settle confirms it at a fifth of the default's cost.
      return { seconds: SETTLE_SECONDS };
    },
    solved() {
      return result()?.held === true;
    },
    // The first view (view rule, AUTHORING step 4a): the mat the placements are read off, its
    // origin target, the table, the target marker and the payload; every ruler readable.
    viewParts: () => {
      const mat = matViewBodies();
      return [
        {
          bodies: [
            ...mat.bodies,
            { name: 'table', minPixels: 2000 },
            { name: 'target', group: ['target-ball', 'target-post'], minPixels: 300 },
            { name: 'payload', minPixels: 150 },
          ],
          scenery: mat.scenery,
        },
      ];
    },
    progress() {
      if (result()?.held) return 1;
      // Fraction of the reach to the target covered by bricks held by the table; below 1 until the payload has held.
      return 0.9 * (reachSoFar() / R);
    },
    stateText() {
      const corner = (u: number, v: number): string => {
        const p = gridToWorld(s, u, v, 0);
        return `(${mm(p[0])}, ${mm(p[2])})`;
      };
      const lines = [
        `Site: stud grid, pitch ${mm(PITCH)}, its +col direction (toward the edge) at yaw ${s.reachYawDeg}° (from +x toward +z); table cols 0–${W - 1} × rows 0–${s.rows - 1}, corners ${corner(0, 0)}, ${corner(W, 0)}, ${corner(W, s.rows)}, ${corner(0, s.rows)}; the edge is the line from ${corner(W, 0)} to ${corner(W, s.rows)}; table top ${mm(tableTopY(s))} above the mat; the site spans ${spanCells(s)} cells.`,
        `Target: cell (col ${tc}, row ${tr}), ${R} cells past the edge, point x ${mm(ball[0])}, z ${mm(ball[2])}; payload ${s.payloadKg} kg for ${s.holdSeconds} s. A brick along the reach has yaw ${toolYaw(s, 0)}°; across it ${toolYaw(s, 90)}°. Brick budget ${s.maxBricks}.`,
      ];
      const names = Object.keys(placed());
      if (!names.length) lines.push('No bricks placed.');
      for (const n of names) lines.push(`${n}: ${placed()[n]}, ${describePart(bricks.partInfo(n))}; on ${restsOn(n) || 'nothing (loose)'}.`);
      lines.push(`Supply left: ${supplyLeft()}.`);
      const r = result();
      if (r) lines.push(`Load test: ${r.held ? 'held' : 'failed'}.`);
      return lines.join('\n');
    },
    observationText() {
      return `Supply left: ${supplyLeft()}.`;
    },
  };
}
