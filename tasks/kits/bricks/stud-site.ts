/**
 * Building with studded bricks on one stud grid, as B1–B3 do: the `place` and `remove` tools'
 * handlers and the bookkeeping behind them (which bricks stand, how many of each type are left).
 * A brick is placed by world coordinates and a yaw; it lands on the highest part under its
 * footprint and snaps onto the studs when it is within `snap` of them along both grid directions
 * and within `yawTolerance` of one of them — else the placement is refused as a rule, with a
 * drawn-only ghost where it was asked for (for the rollback picture) and, when it was only off
 * the grid, the nearest position where the studs line up marked. A family says where its grid is
 * and how it speaks of what a brick rests on; its scene, commit and load test stay its own.
 */
import { SpaceActError } from '../../../core/errors.ts';
import { BRICK_DEFAULTS, type BrickSystem } from '../../../sim/bricks.ts';
import { yawQuat } from '../../../sim/math.ts';
import type { Quat, Vec3 } from '../../../sim/types.ts';
import { ViolationError } from '../../../sim/violation.ts';
import type { World } from '../../../sim/world.ts';
import type { ToolOutput, ToolSpec } from '../../types.ts';
import { brickType, heightOf, PITCH, PLATE, type BrickType } from './catalog.ts';

/** Where a family's stud grid is and how its place results speak. */
export interface StudSite {
  world: World;
  bricks: BrickSystem;
  /** How many bricks of each type the supply holds. */
  supply: ReadonlyMap<string, number>;
  /** The tool yaw (degrees) along which the grid's first axis runs. */
  gridYawDeg: number;
  /** World (x, z) to grid coordinates, in pitches. */
  toGrid(x: number, z: number): [number, number];
  /** Grid coordinates (u, v in pitches; layer in plates above the grid's top) to a world point. */
  toWorld(u: number, v: number, layer: number): Vec3;
  /** Height of the grid's top (layer 0) above the floor, m. */
  baseY: number;
  /** The rotation of a brick whose length points along tool yaw `deg`. */
  toolQuat(deg: number): Quat;
  /** What a placed brick rests on, in words (`the table and 'b2'`). */
  restsOn(name: string): string;
  /** Within this of the studs along both directions a placement snaps on, m. */
  snap: number;
  /** Within this of a grid direction a brick's length may be turned, degrees. */
  yawTolerance: number;
  /** A rule checked after the supply, before the position (B2's brick budget): throws a `ViolationError`. */
  beforePlace?(): void;
}

/** The place and remove handlers of a {@link StudSite} and what they keep track of. */
export interface StudSiteTools {
  /** Placed bricks by name, each with its type. */
  placed(): Record<string, string>;
  /** How many bricks of `type` stand. */
  usedOf(type: string): number;
  /** The supply left, in words (`2x4 ×1, 2x2 ×0`). */
  supplyLeft(): string;
  /** Top (plates above the grid's top) of the highest part sharing a cell with a footprint, or null. */
  supportTop(cell: [number, number], span: [number, number]): number | null;
  place(args: Record<string, unknown>): ToolOutput;
  remove(args: Record<string, unknown>): string;
}

/**
 * The handlers of `place(brick_type, x_m, z_m, yaw_deg)` and `remove(brick)` on `site`. Placed
 * bricks are named `b1`, `b2`, … in the order asked (a refused placement uses its number up too),
 * kept in `world.meta.placed` and `world.meta.nextId`, which this sets up.
 */
export function studSiteTools(site: StudSite): StudSiteTools {
  const { world, bricks, supply } = site;
  world.meta.placed = {};
  world.meta.nextId = 1;
  const placed = (): Record<string, string> => world.meta.placed as Record<string, string>;
  const usedOf = (type: string): number => Object.values(placed()).filter((t) => t === type).length;
  const supportTop = (cell: [number, number], span: [number, number]): number | null => {
    let top: number | null = null;
    for (const p of bricks.parts()) {
      const overlaps = cell[0] < p.cell[0] + p.footprint[0] && p.cell[0] < cell[0] + span[0] && cell[1] < p.cell[1] + p.footprint[1] && p.cell[1] < cell[1] + span[1];
      if (overlaps) top = Math.max(top ?? -Infinity, p.layer + p.height);
    }
    return top;
  };
  /** A drawn-only stand-in for a refused brick, where it was asked for, for the rollback picture. */
  const ghost = (name: string, t: BrickType, x: number, z: number, yaw: number, bottomY: number): void => {
    const h = heightOf(t) * PLATE;
    const play = BRICK_DEFAULTS.play;
    world.addBody({
      name,
      kind: 'static',
      collides: false,
      pose: { p: [x, bottomY + h / 2, z], q: site.toolQuat(yaw) },
      shapes: [{ type: 'box', half: [(t.length * PITCH) / 2 - play, h / 2, (t.width * PITCH) / 2 - play] }],
      color: t.color,
    });
  };
  return {
    placed,
    usedOf,
    supplyLeft: () => [...supply].map(([type, count]) => `${type} ×${count - usedOf(type)}`).join(', '),
    supportTop,
    place(args) {
      const t = brickType(String(args.brick_type));
      if (!supply.has(t.id)) throw new SpaceActError('invalid-argument', `brick_type: '${t.id}' is not in this supply`, { field: 'brick_type' });
      const x = Number(args.x_m);
      const z = Number(args.z_m);
      const yaw = Number(args.yaw_deg);
      const id = world.meta.nextId as number;
      const name = `b${id}`;
      world.meta.nextId = id + 1;
      if (usedOf(t.id) >= supply.get(t.id)!) {
        throw new ViolationError({ kind: 'rule', rule: 'supply', bodies: [], message: `No ${t.id} left: all of them are placed. Remove one to reuse it.` });
      }
      site.beforePlace?.();
      // The turn relative to the grid, folded to [0, 180): a brick looks the same turned by 180°.
      const rel = (((yaw - site.gridYawDeg) % 180) + 180) % 180;
      const tol = site.yawTolerance;
      const rot: 0 | 90 | null = rel <= tol || rel >= 180 - tol ? 0 : Math.abs(rel - 90) <= tol ? 90 : null;
      const near: 0 | 90 = rot ?? (rel < 45 || rel > 135 ? 0 : 90);
      const span: [number, number] = near === 0 ? [t.length, t.width] : [t.width, t.length];
      const [u, v] = site.toGrid(x, z);
      const cell: [number, number] = [Math.round(u - span[0] / 2), Math.round(v - span[1] / 2)];
      const off: [number, number] = [(u - (cell[0] + span[0] / 2)) * PITCH, (v - (cell[1] + span[1] / 2)) * PITCH];
      const top = supportTop(cell, span);
      if (top === null) {
        ghost(name, t, x, z, yaw, 0);
        // A placement rule, not a stability verdict: said as the rule it is.
        throw new ViolationError({ kind: 'rule', rule: 'lands on studs', bodies: [name], message: `'${name}' would land on the mat: nothing with studs is under it there.` });
      }
      const bottomY = site.baseY + top * PLATE;
      if (rot === null) {
        ghost(name, t, x, z, yaw, bottomY);
        throw new ViolationError({ kind: 'rule', rule: 'off the stud grid', bodies: [name], message: `'${name}' is turned too far from the directions of the studs under it (see place), so it cannot sit on them.` });
      }
      if (Math.abs(off[0]) > site.snap || Math.abs(off[1]) > site.snap) {
        ghost(name, t, x, z, yaw, bottomY);
        throw new ViolationError({
          kind: 'rule',
          rule: 'off the stud grid',
          bodies: [name],
          target: { point: site.toWorld(cell[0] + span[0] / 2, cell[1] + span[1] / 2, top) },
          message: `'${name}' is not on the stud grid: its studs are farther off the studs under it than place allows (the centre of the nearest position where they line up is marked in the picture).`,
        });
      }
      bricks.place({ name, size: [t.length, t.width], plate: t.plate, cell, rot, color: t.color });
      world.meta.placed = { ...placed(), [name]: t.id };
      const moved = Math.hypot(off[0], off[1]);
      // How far the snap moved it stays out of the text (a distance a prober could read): logs only.
      return { message: `Placed ${t.id} as '${name}' on ${site.restsOn(name)}, snapped onto the studs.`, data: { brick: name }, diagnostics: { snappedMm: Number((moved * 1000).toFixed(1)) } };
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
  };
}

/**
 * The `place(brick_type, x_m, z_m, yaw_deg)` tool as a model reads it: bricks of `supplyTypes`,
 * positions on a mat `mat` metres wide (x) and deep (z), and the snapping tolerances stated (the
 * same for every seed). {@link studSiteTools} is its handler.
 */
export function studPlaceTool(supplyTypes: readonly string[], mat: readonly [number, number], snap: number, yawTolerance: number): ToolSpec {
  return {
    name: 'place',
    kind: 'physical',
    description:
      'Take a brick of brick_type from the supply and lower it straight down. (x_m, z_m) is where the centre of its footprint should be, in metres in the world frame; yaw_deg is the direction of its length, in degrees from the +x direction turning toward +z (0: along x, 90: along z). ' +
      `It stops on the highest thing under it and snaps onto the stud grid of what it lands on: its studs must line up with the studs under it to within ${mm(snap)} along both directions of that grid, and its length must be within ${yawTolerance}° of one of them, or the placement is refused. It connects through its studs to everything directly under it.`,
    parameters: {
      type: 'object',
      properties: {
        brick_type: { enum: [...supplyTypes] },
        x_m: { type: 'number', minimum: 0, maximum: mat[0] },
        z_m: { type: 'number', minimum: 0, maximum: mat[1] },
        yaw_deg: { type: 'number', minimum: -180, maximum: 180 },
      },
      required: ['brick_type', 'x_m', 'z_m', 'yaw_deg'],
      additionalProperties: false,
    },
  };
}

/** The `remove(brick)` tool; `onTop` says what stops a lift (`attached on top of it`, `on top of it`). */
export function studRemoveTool(onTop: string): ToolSpec {
  return {
    name: 'remove',
    kind: 'physical',
    description: `Lift a placed brick (by the name the place result gave it, e.g. 'b3') straight up and return it to the supply. Only a brick with nothing ${onTop} can be lifted.`,
    parameters: {
      type: 'object',
      properties: { brick: { type: 'string', pattern: '^b[0-9]{1,4}$' } },
      required: ['brick'],
      additionalProperties: false,
    },
  };
}

/** A length in millimetres as the brick families' rules and read-outs write it (`12.8 mm`). */
export function mm(x: number): string {
  return `${Number((x * 1000).toFixed(1))} mm`;
}

/** A quaternion turning +x toward +z by `deg`: the yaw convention of the `place` tool. */
export function toolQuat(deg: number): Quat {
  return yawQuat(-deg);
}

/**
 * `StudSite.restsOn` for a site with one support body: what a placed brick rests on, in the order
 * the brick system lists its connections, the support spoken as `spoken` ("the baseplate") and
 * bricks by name ("the baseplate and 'b2'"). B3, B5 and B6 use it; B1 (two piers) and B2 (the
 * table named first) word theirs differently.
 */
export function restsOnSupport(bricks: BrickSystem, support: string, spoken: string): (name: string) => string {
  return (name) =>
    bricks
      .connections()
      .filter((c) => c.upper === name)
      .map((c) => (c.lower === support ? spoken : `'${c.lower}'`))
      .join(' and ');
}
