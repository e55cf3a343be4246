/**
 * Interlocking bricks on a stud grid.
 *
 * **Geometry.** A grid is a named world frame (origin + yaw about +Y) with square cells of
 * `pitch` (8 mm). Cell `[i, j]` spans `[i, i+1] × [j, j+1]` pitches along the grid's X and Z;
 * its stud sits at the cell centre. Heights count in *plates* (3.2 mm): a brick is 3 plates
 * (9.6 mm) high, a plate 1. A brick of `size [w, l]` at `cell [i, j]` with `rot 0` covers cells
 * `i … i+w−1` along X and `j … j+l−1` along Z; `rot 90` swaps the two. `layer` is the height of
 * its bottom face in plates above the grid origin. Every number the world reports is SI at the
 * modelled size (`scale` 1 = real bricks).
 *
 * **Physics.** Bricks are box colliders without stud colliders (cylinder studs cost ~10× and
 * destabilise stacks), each side shortened by a 0.1 mm play so neighbours never touch. The studs
 * are drawn: every brick, plate and baseplate carries them as drawn-only `visual` cylinders
 * (Ø 4.8 mm, 1.7 mm tall at scale 1; see `BodySpec.visual`), so every brick task shows them
 * without bodies of its own. Bricks
 * whose faces meet with shared studs are *connected* by a Rapier fixed joint (contacts between
 * the pair disabled while joined), so a connected structure moves as one. The strength of stud connections is
 * decided by the statics analysis in `sim/brick-statics.ts`: per-brick force and torque balance,
 * per-stud push unlimited, pull limited by the grip (0.98 N per stud), shear limited by friction
 * plus interlock. When the analysis says a load overloads connections, {@link BrickSystem.loadTest}
 * removes those joints and lets Rapier show what happens: a weak structure comes apart (the load
 * test fails by measured motion) while a well-connected one holds.
 *
 * **World settings.** Real-size bricks need {@link BRICK_WORLD_OPTIONS} (step 1/240 s, contact
 * natural frequency 120 Hz); with Rapier's defaults stacks of loose brick-size boxes topple.
 * Jointed structures use multibody joints along a spanning forest (exactly rigid: fixed impulse
 * joints let a 30-brick column sag 4 mm and deflect under small loads).
 *
 * **Baseplates and piers** are static boxes with studs on top ({@link BrickSystem.addBaseplate}).
 * **Loose blocks** are plain dynamic boxes without studs ({@link BrickSystem.addLooseBlock}).
 *
 * Placement is a swept vertical drop from above the footprint, so a brick cannot pass through
 * anything on its way down. Failed placements and removals throw {@link ViolationError} with the
 * brick left where it stopped; call them inside `world.attempt()` to roll back.
 */
import { SpaceActError } from '../core/errors.ts';
import { ViolationError } from './violation.ts';
import { solveStatics, type StaticsConnection, type StaticsLoad } from './brick-statics.ts';
import { gridPose, halfExtents, partPose, partsOverlapping, partsStackedOn, partsStackedUnder, sharedCells, studCentres, studShapes, type BrickInfo, type GridInfo } from './brick-grid.ts';
import { qrotate, transformPoint, vscale, yawQuat } from './math.ts';
import type { Pose, Vec3, Violation } from './types.ts';
import * as valid from './validate.ts';
import type { LoadTestResult, World, WorldOptions } from './world.ts';

/**
 * World options for real-size bricks: step 1/240 s, contact natural frequency 120 Hz, Rapier's
 * length unit left at 1 (the world's defaults, spelled out). Measured with loose brick-size boxes
 * (no joints): Rapier's own defaults (1/60 s, 30 Hz) let a 10-box column collapse (its top moved
 * 10 cm) and a 4-block harmonic overhang fall even at 95 %; these settings keep the column (it
 * only compresses 3.0 mm) and the overhang stands up to 99.5 % and falls from 100.5 % of the
 * analytic value. `lengthUnit` 0.01 (≈ the pitch, suggested in TECH-NOTES) changed neither the
 * column nor stacking stability, but made the overhang fall already at 99 %, so it is not used.
 */
export const BRICK_WORLD_OPTIONS: Readonly<WorldOptions> = Object.freeze({ timestep: 1 / 240, contactNaturalFrequency: 120 });

/**
 * The defaults of a {@link BrickSystem} at scale 1: real LEGO-like sizes and the stud-connection
 * constants of its statics analysis. Families and their offline statics models read them here
 * rather than copying the numbers.
 */
export const BRICK_DEFAULTS = Object.freeze({
  /** Stud pitch, m. */
  pitch: 0.008,
  /** Plate height, m; a brick is 3 plates (9.6 mm). */
  plateHeight: 0.0032,
  /** Gap left on each side of a brick so neighbours do not touch, m. */
  play: 0.0001,
  /** Stud radius, m (Ø 4.8 mm); also the pivot offset of the statics analysis. */
  studRadius: 0.0024,
  /** Height of a drawn stud above the top face, m. */
  studHeight: 0.0017,
  /** Effective density of a (hollow) brick, kg/m³: a 2×4 brick weighs 2.3 g. */
  density: 480,
  /** Friction between parts (ABS on ABS). */
  friction: 0.35,
  /** Pull-out force per stud, N. */
  gripPerStud: 0.98,
  /** Shear capacity per stud beyond friction, N. */
  shearPerStud: 5,
});

/** Options of {@link BrickSystem}. Lengths scale with `scale`; defaults are {@link BRICK_DEFAULTS}. */
export interface BrickSystemOptions {
  /** Size factor applied to every default length (default 1: real size). */
  scale?: number;
  /** Stud pitch, m (default 0.008 × scale). */
  pitch?: number;
  /** Plate height, m (default 0.0032 × scale); a brick is 3 plates. */
  plateHeight?: number;
  /** Gap left on each side of a brick so neighbours do not touch, m (default 0.0001 × scale). */
  play?: number;
  /** Stud radius, m (default 0.0024 × scale). */
  studRadius?: number;
  /** Height of the drawn studs, m (default 0.0017 × scale). */
  studHeight?: number;
  /** Effective density of a (hollow) brick, kg/m³ (default 480: a 2×4 brick weighs 2.3 g). */
  density?: number;
  /** Friction between parts (default 0.35, ABS on ABS). */
  friction?: number;
  /** Pull-out force per stud, N (default 0.98). */
  gripPerStud?: number;
  /** Shear capacity per stud beyond friction, N (default 5). */
  shearPerStud?: number;
  /** The default grid, created at construction (default `grid` at the world origin, yaw 0). */
  grid?: { name?: string; origin?: Vec3; yawDeg?: number };
}

/** A brick to place. */
export interface BrickPlacement {
  name: string;
  /** Studs along the brick's own X and Z, e.g. `[2, 4]`. */
  size: [number, number];
  /** A plate (1 plate high) instead of a brick (3 plates). */
  plate?: boolean;
  /** Grid cell of the footprint's lowest corner. */
  cell: [number, number];
  /** Orientation on the grid. */
  rot: 0 | 90;
  /** Height of the bottom face in plates; omitted: the brick drops onto whatever is below. */
  layer?: number;
  color?: string;
  /** Grid name (default: the system's default grid). */
  grid?: string;
}

/** A static part with studs on top. */
export interface BaseplateSpec {
  name: string;
  /** Cells along the grid's X and Z. */
  size: [number, number];
  cell: [number, number];
  /** Layer of the top surface (plates above the grid origin; default 0). */
  top?: number;
  /** Thickness in plates (default 1; a pier is taller). */
  height?: number;
  color?: string;
  grid?: string;
}


export type { BrickInfo } from './brick-grid.ts';

/** A stud connection: the upper part's bottom sits on the lower part's top over `studs`. */
export interface BrickConnection {
  id: string;
  lower: string;
  upper: string;
  /** Shared stud cells. */
  studs: Array<[number, number]>;
  /** Name of the Rapier joint. */
  joint: string;
}

/** A load for {@link BrickSystem.analyze}. */
export interface BrickLoad {
  body: string;
  /** World point. */
  point: Vec3;
  /** Newtons. */
  force: Vec3;
}

/** Result of {@link BrickSystem.analyze}. */
export interface BrickAnalysis {
  stable: boolean;
  /** Overloaded connections (slack in newtons), largest first. */
  failing: Array<{ id: string; lower: string; upper: string; overload: number }>;
  /** Bricks with no chain of connections to a fixed part. */
  unsupported: string[];
  /** Largest stud tension / grip per connection. */
  utilization: Record<string, number>;
  millis: number;
}

/** Result of {@link BrickSystem.loadTest}. */
export interface BrickLoadTestResult {
  held: boolean;
  /** The statics analysis under the load, before any joint was removed. */
  analysis: BrickAnalysis;
  /** Connections removed because the load overloaded them. */
  broken: BrickConnection[];
  /** The measured motion in Rapier. */
  physical: LoadTestResult;
  message: string;
}

interface Registry {
  grids: Record<string, GridInfo>;
  parts: Record<string, BrickInfo>;
  connections: Record<string, BrickConnection>;
  /** World joints this system created (removed and re-created on every rebuild). */
  joints: string[];
}

const PARTICIPANT = 'bricks';
const MAX_CELL = 1000;
const MAX_LAYER = 3000;

/** Bricks, baseplates and their stud connections in one world. */
export class BrickSystem {
  readonly world: World;
  readonly pitch: number;
  readonly plateHeight: number;
  readonly play: number;
  readonly studRadius: number;
  /** Height of the drawn studs, m. */
  readonly studHeight: number;
  readonly density: number;
  readonly friction: number;
  readonly gripPerStud: number;
  readonly shearPerStud: number;
  /** Name of the default grid. */
  readonly defaultGrid: string;
  private reg: Registry = { grids: {}, parts: {}, connections: {}, joints: [] };

  /** Attaches a brick system to `world` (one per world) and defines its default grid. */
  constructor(world: World, opts: BrickSystemOptions = {}) {
    const o = valid.plainObject(opts, 'opts');
    const scale = o.scale === undefined ? 1 : valid.finiteNumber(o.scale, 'opts.scale', { above: 0, max: 1000 });
    const len = (key: keyof BrickSystemOptions, def: number): number => (o[key] === undefined ? def * scale : valid.finiteNumber(o[key], `opts.${key}`, { above: 0, max: 10 }));
    this.world = world;
    const d = BRICK_DEFAULTS;
    this.pitch = len('pitch', d.pitch);
    this.plateHeight = len('plateHeight', d.plateHeight);
    this.play = len('play', d.play);
    this.studRadius = len('studRadius', d.studRadius);
    this.studHeight = len('studHeight', d.studHeight);
    if (this.play * 2 >= this.pitch) valid.invalid('opts.play', 'must be less than half the pitch', this.play);
    if (this.studRadius * 2 >= this.pitch) valid.invalid('opts.studRadius', 'must be less than half the pitch', this.studRadius);
    this.density = o.density === undefined ? d.density : valid.finiteNumber(o.density, 'opts.density', { above: 0, max: 1e5 });
    this.friction = o.friction === undefined ? d.friction : valid.finiteNumber(o.friction, 'opts.friction', { min: 0, max: 10 });
    this.gripPerStud = o.gripPerStud === undefined ? d.gripPerStud : valid.finiteNumber(o.gripPerStud, 'opts.gripPerStud', { min: 0, max: 1e4 });
    this.shearPerStud = o.shearPerStud === undefined ? d.shearPerStud : valid.finiteNumber(o.shearPerStud, 'opts.shearPerStud', { min: 0, max: 1e4 });
    const g = o.grid === undefined ? {} : valid.plainObject(o.grid, 'opts.grid');
    this.defaultGrid = g.name === undefined ? 'grid' : valid.nonEmptyString(g.name, 'opts.grid.name', 100);
    const origin = g.origin === undefined ? ([0, 0, 0] as Vec3) : valid.vec3(g.origin, 'opts.grid.origin');
    const yaw = g.yawDeg === undefined ? 0 : valid.angleDeg(g.yawDeg, 'opts.grid.yawDeg');
    // The default grid becomes a world frame: 'world' is the reserved world frame's name.
    if (this.defaultGrid === 'world') valid.invalid('opts.grid.name', "'world' is the reserved world frame", this.defaultGrid);
    world.registerParticipant(PARTICIPANT, {
      save: () => this.reg,
      load: (state) => {
        this.reg = structuredClone(state) as Registry;
      },
    });
    try {
      this.defineGrid(this.defaultGrid, origin, yaw);
    } catch (err) {
      // A refused grid leaves no system behind: nothing may change on bad input.
      world.unregisterParticipant(PARTICIPANT);
      throw err;
    }
  }

  // ---------------------------------------------------------------- grids

  /**
   * Defines (or moves, while it holds no parts) a grid: a world frame of that name at `origin`
   * turned by `yawDeg` about +Y. Tasks turn the working frame by giving a yaw.
   */
  defineGrid(name: string, origin: Vec3, yawDeg = 0): void {
    const n = valid.nonEmptyString(name, 'name', 100);
    const o = valid.vec3(origin, 'origin');
    const y = valid.angleDeg(yawDeg, 'yawDeg');
    if (Object.values(this.reg.parts).some((p) => p.grid === n)) throw new SpaceActError('invalid-state', `grid '${n}' already holds parts and cannot move`, { name: n });
    this.world.defineFrame(n, { p: o, q: yawQuat(y) });
    this.reg.grids[n] = { origin: o, yawDeg: y };
  }

  /** Names of the grids. */
  gridNames(): string[] {
    return Object.keys(this.reg.grids);
  }

  /** World pose of a point given in grid cells (fractional allowed) and plates. */
  gridPoint(grid: string, x: number, z: number, layer: number): Vec3 {
    const g = this.grid(grid, 'grid');
    const cells = valid.MAX_POSITION / this.pitch;
    const cx = valid.finiteNumber(x, 'x', { min: -cells, max: cells });
    const cz = valid.finiteNumber(z, 'z', { min: -cells, max: cells });
    const cl = valid.finiteNumber(layer, 'layer', { min: -valid.MAX_POSITION / this.plateHeight, max: valid.MAX_POSITION / this.plateHeight });
    return transformPoint(gridPose(g), [cx * this.pitch, cl * this.plateHeight, cz * this.pitch]);
  }

  // ---------------------------------------------------------------- parts

  /**
   * Adds a static part with studs on top (a baseplate, or a pier when `height` is large).
   * Throws `invalid-argument` if it would overlap a registered part.
   */
  addBaseplate(spec: BaseplateSpec): BrickInfo {
    const s = valid.plainObject(spec, 'spec');
    const name = valid.nonEmptyString(s.name, 'spec.name', 100);
    if (this.world.hasBody(name)) valid.invalid('spec.name', `a body named '${name}' already exists`, name);
    const grid = s.grid === undefined ? this.defaultGrid : this.gridName(s.grid, 'spec.grid');
    const size = this.size(s.size, 'spec.size', 256);
    const cell = this.cell(s.cell, 'spec.cell');
    const top = s.top === undefined ? 0 : valid.finiteNumber(s.top, 'spec.top', { min: -MAX_LAYER, max: MAX_LAYER, integer: true });
    const height = s.height === undefined ? 1 : valid.finiteNumber(s.height, 'spec.height', { min: 1, max: MAX_LAYER, integer: true });
    const color = s.color === undefined ? '#6b8e23' : valid.cssColor(s.color, 'spec.color');
    const info: BrickInfo = { name, grid, footprint: size, size, rot: 0, cell, layer: top - height, height, plate: false, fixed: true };
    const clash = partsOverlapping(Object.values(this.reg.parts), info);
    if (clash.length) valid.invalid('spec.cell', `the baseplate would overlap ${clash.map((c) => `'${c}'`).join(', ')}`, cell);
    this.world.addBody({
      name,
      kind: 'static',
      pose: partPose(this, this.reg.grids, info),
      shapes: [{ type: 'box', half: halfExtents(this, info) }],
      visual: studShapes(this, info),
      material: { density: this.density, friction: this.friction, restitution: 0 },
      color,
      tags: ['baseplate'],
    });
    this.reg.parts[name] = info;
    return { ...info };
  }

  /** Adds a plain dynamic box without studs (for overhang stacks); it is not in the registry. */
  addLooseBlock(spec: { name: string; half: Vec3; pose: Pose; color?: string; density?: number; friction?: number }): void {
    const s = valid.plainObject(spec, 'spec');
    this.world.addBody({
      name: s.name as string,
      kind: 'dynamic',
      pose: s.pose as Pose,
      shapes: [{ type: 'box', half: s.half as Vec3 }],
      material: { density: (s.density as number | undefined) ?? this.density, friction: (s.friction as number | undefined) ?? this.friction, restitution: 0 },
      ...(s.color === undefined ? {} : { color: s.color as string }),
      tags: ['loose'],
    });
  }

  /**
   * Places a brick by a swept vertical drop from above its footprint. With `layer` the brick
   * must reach that height unobstructed; without it, it stops on the first thing below, which
   * must be a stud surface on the grid. The brick then connects (fixed joints) to every part
   * under it that shares studs, and the structure must pass the statics analysis.
   *
   * Throws `SpaceActError` for bad input (nothing changes) and {@link ViolationError} for a
   * `collision` (something in the way or off-grid landing), `statics` (nothing with studs under
   * it, or the structure cannot hold itself). After a violation the brick is left where it
   * stopped; use `world.attempt()` to roll back.
   */
  place(spec: BrickPlacement): BrickInfo {
    const s = valid.plainObject(spec, 'spec');
    const name = valid.nonEmptyString(s.name, 'spec.name', 100);
    if (this.world.hasBody(name)) valid.invalid('spec.name', `a body named '${name}' already exists`, name);
    const grid = s.grid === undefined ? this.defaultGrid : this.gridName(s.grid, 'spec.grid');
    const size = this.size(s.size, 'spec.size', 32);
    const cell = this.cell(s.cell, 'spec.cell');
    const rot = s.rot === 0 || s.rot === 90 ? s.rot : valid.invalid('spec.rot', `expected 0 or 90, got ${String(s.rot)}`, s.rot);
    const plate = s.plate === undefined ? false : valid.booleanValue(s.plate, 'spec.plate');
    const layer = s.layer === undefined ? undefined : valid.finiteNumber(s.layer, 'spec.layer', { min: 0, max: MAX_LAYER, integer: true });
    const color = s.color === undefined ? '#c0392b' : valid.cssColor(s.color, 'spec.color');
    const footprint: [number, number] = rot === 0 ? [size[0], size[1]] : [size[1], size[0]];
    const height = plate ? 1 : 3;
    // Drops stop this far above their target so that only the final snap makes contact.
    const tol = 2 * this.world.contactTolerance;

    // Start above everything over the footprint, then drop.
    const probe: BrickInfo = { name, grid, footprint, size, rot, cell, layer: layer ?? 0, height, plate, fixed: false };
    const startLayer = Math.max((layer ?? 0) + height, this.highestOver(probe)) + 2 * height;
    this.world.addBody({
      name,
      kind: 'kinematic',
      pose: partPose(this, this.reg.grids, { ...probe, layer: startLayer }),
      shapes: [{ type: 'box', half: halfExtents(this, probe) }],
      visual: studShapes(this, probe),
      material: { density: this.density, friction: this.friction, restitution: 0 },
      color,
      tags: ['brick', `brick:${size[0]}x${size[1]}${plate ? ':plate' : ''}`],
    });
    const target = partPose(this, this.reg.grids, probe);
    const sweep = this.world.sweep(name, { p: [target.p[0], target.p[1] + tol, target.p[2]], q: target.q });
    let finalLayer = layer ?? 0;
    if (sweep.hit) {
      const v = sweep.violation!;
      let landed: number | null = null;
      if (layer === undefined && v.kind === 'collision') {
        const bottom = (this.world.fromWorld(grid, sweep.reached).p[1] - (height * this.plateHeight) / 2) / this.plateHeight;
        const snapped = Math.round(bottom);
        if (snapped >= 0 && Math.abs(bottom - snapped) * this.plateHeight <= 3 * tol) landed = snapped;
      }
      if (landed === null) {
        this.world.setPose(name, sweep.reached);
        const offGrid = layer === undefined && v.kind === 'collision';
        throw new ViolationError(offGrid ? { ...v, message: `'${name}' would land on ${sweep.bodies.map((b) => `'${b}'`).join(', ')} at a height that is not on the stud grid.` } : v);
      }
      finalLayer = landed;
    }
    const info: BrickInfo = { ...probe, layer: finalLayer };
    this.world.setPose(name, partPose(this, this.reg.grids, info));

    // Anything touching other than parts directly above or below is a collision.
    const touching = this.world.contactsOf(name);
    const stacked = new Set(partsStackedOn(Object.values(this.reg.parts), info).concat(partsStackedUnder(Object.values(this.reg.parts), info)));
    const stray = touching.filter((t) => !stacked.has(t));
    if (stray.length) {
      throw new ViolationError({ kind: 'collision', bodies: [name, ...stray], message: `'${name}' would overlap ${stray.map((b) => `'${b}'`).join(', ')} where it lands.` });
    }
    const below = partsStackedOn(Object.values(this.reg.parts), info);
    if (!below.length) {
      throw new ViolationError({ kind: 'statics', bodies: [name], message: `'${name}' would not be attached: nothing with studs is under it.` });
    }
    this.world.setKind(name, 'dynamic');
    this.reg.parts[name] = info;
    for (const lower of below) this.connect(this.reg.parts[lower], info);
    this.rebuildJoints();
    const analysis = this.analyze();
    if (!analysis.stable) throw new ViolationError(this.staticsViolation(analysis, name));
    return { ...info };
  }

  /**
   * Removes a brick by lifting it straight up. Bricks connected on top of it must be removed
   * first (a `rule` violation otherwise); the lift must be free (`collision`), and what remains
   * must pass the statics analysis (`statics`).
   */
  remove(name: string): void {
    const info = this.part(name, 'name');
    if (info.fixed) valid.invalid('name', `'${name}' is a baseplate and cannot be removed`, name);
    const above = Object.values(this.reg.connections).filter((c) => c.lower === name).map((c) => c.upper);
    if (above.length) {
      throw new ViolationError({ kind: 'rule', bodies: [name, ...above], message: `'${name}' cannot be lifted: ${above.map((b) => `'${b}'`).join(', ')} ${above.length > 1 ? 'are' : 'is'} attached on top of it.` });
    }
    for (const c of Object.values(this.reg.connections)) if (c.upper === name) delete this.reg.connections[c.id];
    this.rebuildJoints();
    this.world.setKind(name, 'kinematic');
    const pose = this.world.getPose(name);
    const topLayer = Math.max(info.layer + info.height, this.highestOver(info)) + 2 * info.height;
    const target: Pose = { p: [pose.p[0], partPose(this, this.reg.grids, { ...info, layer: topLayer }).p[1], pose.p[2]], q: pose.q };
    this.world.moveSwept(name, target, { exclude: this.world.contactsOf(name) });
    this.world.removeBody(name);
    delete this.reg.parts[name];
    const analysis = this.analyze();
    if (!analysis.stable) throw new ViolationError(this.staticsViolation(analysis, name));
  }

  /** Registered parts (bricks and baseplates), by name. */
  parts(): BrickInfo[] {
    return Object.values(this.reg.parts)
      .map((p) => structuredClone(p))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** A registered part. */
  partInfo(name: string): BrickInfo {
    return structuredClone(this.part(name, 'name'));
  }

  /** The topmost registered part covering a grid cell, or null. */
  partAt(cell: [number, number], grid?: string): string | null {
    const c = this.cell(cell, 'cell');
    const g = grid === undefined ? this.defaultGrid : this.gridName(grid, 'grid');
    const hits = Object.values(this.reg.parts).filter((p) => p.grid === g && c[0] >= p.cell[0] && c[0] < p.cell[0] + p.footprint[0] && c[1] >= p.cell[1] && c[1] < p.cell[1] + p.footprint[1]);
    hits.sort((a, b) => b.layer + b.height - (a.layer + a.height) || (a.name < b.name ? -1 : 1));
    return hits[0]?.name ?? null;
  }

  /** Current stud connections, by id (`lower|upper`). */
  connections(): BrickConnection[] {
    return Object.values(this.reg.connections)
      .map((c) => structuredClone(c))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** Stud centres on the top face of a part, in its body frame (the drawn studs stand on them). */
  studPoints(name: string): Vec3[] {
    return studCentres(this, this.part(name, 'name'));
  }

  /** World pose a part with this placement would have (for planners and renderers). */
  placementPose(spec: Pick<BrickPlacement, 'size' | 'cell' | 'rot' | 'plate' | 'grid'> & { layer: number }): Pose {
    const size = this.size(spec.size, 'spec.size', 32);
    const rot = spec.rot === 0 || spec.rot === 90 ? spec.rot : valid.invalid('spec.rot', `expected 0 or 90, got ${String(spec.rot)}`, spec.rot);
    const grid = spec.grid === undefined ? this.defaultGrid : this.gridName(spec.grid, 'spec.grid');
    return partPose(this, this.reg.grids, {
      name: '',
      grid,
      size,
      rot,
      footprint: rot === 0 ? size : [size[1], size[0]],
      cell: this.cell(spec.cell, 'spec.cell'),
      layer: valid.finiteNumber(spec.layer, 'spec.layer', { min: -MAX_LAYER, max: MAX_LAYER, integer: true }),
      height: spec.plate ? 1 : 3,
      plate: !!spec.plate,
      fixed: false,
    });
  }

  // ---------------------------------------------------------------- statics

  /** Statics analysis of every registered brick under gravity plus `loads` (LP with HiGHS). */
  analyze(loads: BrickLoad[] = []): BrickAnalysis {
    const ls = valid.arrayOf(loads, 'loads', 0, 1000).map((l, i) => {
      const o = valid.plainObject(l, `loads[${i}]`);
      if (!this.world.hasBody(o.body as string)) throw new SpaceActError('unknown-body', `loads[${i}].body: there is no body named ${JSON.stringify(String(o.body))}`, { name: String(o.body) });
      return { body: o.body as string, point: valid.vec3(o.point, `loads[${i}].point`), force: valid.vec3(o.force, `loads[${i}].force`, 1e5) };
    });
    return this.solve(ls);
  }

  /**
   * Load test of a brick structure: hangs `mass` (or applies `force`) at `point` on `body` for
   * `seconds` (default 1). The statics analysis decides which stud connections the load
   * overloads; the most overloaded one lets go, the analysis is repeated on what remains, and so
   * on. Those joints are removed and Rapier then shows whether the structure holds (measured
   * motion of every dynamic body, or `watch`). Advances time.
   */
  loadTest(opts: { body: string; point: Vec3; mass?: number; force?: Vec3; seconds?: number; watch?: string[]; linearTol?: number }): BrickLoadTestResult {
    const o = valid.plainObject(opts, 'opts');
    const body = o.body as string;
    if (!this.world.hasBody(body)) throw new SpaceActError('unknown-body', `opts.body: there is no body named ${JSON.stringify(String(body))}`, { name: String(body) });
    const point = valid.vec3(o.point, 'opts.point');
    if ((o.mass === undefined) === (o.force === undefined)) valid.invalid('opts.mass', 'give exactly one of mass and force', o.mass);
    const gravity = this.world.gravity;
    const force: Vec3 = o.mass !== undefined ? vscale(gravity, valid.finiteNumber(o.mass, 'opts.mass', { above: 0, max: 1e4 })) : valid.vec3(o.force, 'opts.force', 1e5);
    const seconds = o.seconds === undefined ? 1 : valid.finiteNumber(o.seconds, 'opts.seconds', { above: 0, max: 60 });
    const physicalOpts = {
      body,
      point,
      force,
      seconds,
      ...(o.watch === undefined ? {} : { watch: o.watch as string[] }),
      ...(o.linearTol === undefined ? {} : { linearTol: o.linearTol as number }),
    };
    // Everything the physical test will check is checked before any connection is let go.
    this.world.validateLoadTest(physicalOpts);
    const loads: StaticsLoad[] = [{ body, point, force }];
    const analysis = this.solve(loads);
    const broken: BrickConnection[] = [];
    let current = analysis;
    // Progressive failure: the most overloaded connection lets go first, then the load is
    // carried (or not) by what remains.
    while (current.failing.length) {
      const c = this.reg.connections[current.failing[0].id];
      delete this.reg.connections[c.id];
      broken.push(c);
      this.rebuildJoints();
      current = this.solve(loads);
    }
    const physical = this.world.loadTest(physicalOpts);
    const message = broken.length
      ? `${physical.held ? 'Held, although' : 'Failed:'} the load pulled apart ${broken.map((c) => `'${c.upper}' from '${c.lower}'`).join(', ')}. ${physical.message}`
      : physical.message;
    return { held: physical.held, analysis, broken, physical, message };
  }

  // ---------------------------------------------------------------- internals

  private solve(loads: StaticsLoad[]): BrickAnalysis {
    const byName = (a: { name: string }, b: { name: string }): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    const bricks = Object.values(this.reg.parts)
      .filter((p) => !p.fixed)
      .sort(byName)
      .map((p) => ({ name: p.name, mass: this.world.mass(p.name), com: this.world.centerOfMass(p.name) }));
    const conns: StaticsConnection[] = Object.values(this.reg.connections)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((c) => {
      const lower = this.reg.parts[c.lower];
      const g = gridPose(this.reg.grids[lower.grid]);
      const u = qrotate(g.q, [1, 0, 0]);
      const v = qrotate(g.q, [0, 0, 1]);
      const y = lower.layer + lower.height;
      return { id: c.id, lower: c.lower, upper: c.upper, studs: c.studs.map(([i, j]) => ({ at: transformPoint(g, [(i + 0.5) * this.pitch, y * this.plateHeight, (j + 0.5) * this.pitch]), u, v })) };
    });
    const r = solveStatics(bricks, conns, loads, {
      gravity: this.world.gravity,
      grip: this.gripPerStud,
      shearPerStud: this.shearPerStud,
      friction: this.friction,
      studRadius: this.studRadius,
      lengthScale: this.pitch,
    });
    return {
      stable: r.stable,
      failing: r.failing.map((f) => ({ ...f, lower: this.reg.connections[f.id].lower, upper: this.reg.connections[f.id].upper })),
      unsupported: r.unsupported,
      utilization: r.utilization,
      millis: r.millis,
    };
  }

  private staticsViolation(a: BrickAnalysis, subject: string): Violation {
    const bodies = [...new Set([subject, ...a.unsupported, ...a.failing.map((f) => f.upper)])].filter((b) => this.world.hasBody(b));
    const parts: string[] = [];
    if (a.failing.length) parts.push(`the studs between ${a.failing.slice(0, 4).map((f) => `'${f.upper}' and '${f.lower}'`).join(', ')} cannot hold`);
    if (a.unsupported.length) parts.push(`${a.unsupported.map((b) => `'${b}'`).join(', ')} would not be connected to anything fixed`);
    return { kind: 'statics', bodies, message: `Not stable: ${parts.join('; ')}.` };
  }

  private connect(lower: BrickInfo, upper: BrickInfo): void {
    const studs = sharedCells(lower, upper);
    const id = `${lower.name}|${upper.name}`;
    this.reg.connections[id] = { id, lower: lower.name, upper: upper.name, studs, joint: `stud:${id}` };
  }

  /**
   * Re-creates the joints of every connection. A spanning forest of the connection graph (grown
   * breadth-first from the fixed parts, then from the remaining bricks, in name order) uses
   * multibody joints, which are exactly rigid; connections that close a loop use impulse
   * joints. Rebuilt after every change of the connection graph.
   */
  private rebuildJoints(): void {
    const conns = Object.values(this.reg.connections).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const j of this.reg.joints) if (this.world.hasJoint(j)) this.world.removeJoint(j);
    this.reg.joints = conns.map((c) => c.joint);
    const byPart = new Map<string, BrickConnection[]>();
    for (const c of conns) for (const n of [c.lower, c.upper]) (byPart.get(n) ?? byPart.set(n, []).get(n)!).push(c);
    const parts = Object.values(this.reg.parts).sort((a, b) => Number(b.fixed) - Number(a.fixed) || (a.name < b.name ? -1 : 1));
    const seen = new Set(parts.filter((p) => p.fixed).map((p) => p.name));
    const tree = new Map<string, { parent: string; child: string }>();
    for (const root of parts) {
      if (!root.fixed && seen.has(root.name)) continue;
      seen.add(root.name);
      const queue = [root.name];
      while (queue.length) {
        const n = queue.shift()!;
        for (const c of byPart.get(n) ?? []) {
          const m = c.lower === n ? c.upper : c.lower;
          if (seen.has(m)) continue;
          seen.add(m);
          queue.push(m);
          tree.set(c.id, { parent: n, child: m });
        }
      }
    }
    for (const c of conns) {
      const t = tree.get(c.id);
      const lower = this.reg.parts[c.lower];
      const cx = c.studs.reduce((a, st) => a + st[0] + 0.5, 0) / c.studs.length;
      const cz = c.studs.reduce((a, st) => a + st[1] + 0.5, 0) / c.studs.length;
      this.world.addJoint({
        name: c.joint,
        type: 'fixed',
        bodyA: t ? t.parent : c.lower,
        bodyB: t ? t.child : c.upper,
        anchor: this.gridPoint(lower.grid, cx, cz, lower.layer + lower.height),
        contacts: false,
        multibody: !!t,
      });
    }
  }




  /** Highest top (plates, in `info`'s grid) of any body above the footprint's column. */
  private highestOver(info: BrickInfo): number {
    const g = this.reg.grids[info.grid];
    const corners = [
      [info.cell[0], info.cell[1]],
      [info.cell[0] + info.footprint[0], info.cell[1]],
      [info.cell[0], info.cell[1] + info.footprint[1]],
      [info.cell[0] + info.footprint[0], info.cell[1] + info.footprint[1]],
    ].map(([x, z]) => this.gridPoint(info.grid, x, z, 0));
    const minX = Math.min(...corners.map((c) => c[0]));
    const maxX = Math.max(...corners.map((c) => c[0]));
    const minZ = Math.min(...corners.map((c) => c[2]));
    const maxZ = Math.max(...corners.map((c) => c[2]));
    let top = -Infinity;
    for (const n of this.world.bodyNames()) {
      if (n === info.name) continue;
      const b = this.world.bodyAabb(n);
      if (b.max[0] < minX || b.min[0] > maxX || b.max[2] < minZ || b.min[2] > maxZ) continue;
      top = Math.max(top, b.max[1]);
    }
    return top === -Infinity ? 0 : Math.ceil((top - g.origin[1]) / this.plateHeight);
  }





  private grid(name: string, path: string): GridInfo {
    const g = typeof name === 'string' ? this.reg.grids[name] : undefined;
    if (!g) throw new SpaceActError('unknown-frame', `${path}: there is no grid named ${JSON.stringify(String(name))}`, { name: String(name), known: Object.keys(this.reg.grids) });
    return g;
  }

  private gridName(value: unknown, path: string): string {
    this.grid(value as string, path);
    return value as string;
  }

  private part(name: string, path: string): BrickInfo {
    const p = typeof name === 'string' ? this.reg.parts[name] : undefined;
    if (!p) throw new SpaceActError('unknown-body', `${path}: there is no brick or baseplate named ${JSON.stringify(String(name))}`, { name: String(name) });
    return p;
  }

  private size(value: unknown, path: string, max: number): [number, number] {
    const a = valid.arrayOf(value, path, 2, 2);
    return [valid.finiteNumber(a[0], `${path}[0]`, { min: 1, max, integer: true }), valid.finiteNumber(a[1], `${path}[1]`, { min: 1, max, integer: true })];
  }

  private cell(value: unknown, path: string): [number, number] {
    const a = valid.arrayOf(value, path, 2, 2);
    return [valid.finiteNumber(a[0], `${path}[0]`, { min: -MAX_CELL, max: MAX_CELL, integer: true }), valid.finiteNumber(a[1], `${path}[1]`, { min: -MAX_CELL, max: MAX_CELL, integer: true })];
  }
}
