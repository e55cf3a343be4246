/**
 * The scene of an overhang task, shared by the loose-block families (B4's, first): a table whose
 * edge lies somewhere along a black-and-white ruler, a red marker post on the floor past the edge
 * with its ball below the table top (so a column can reach over it), and a supply of coloured
 * loose blocks of one cross-section lying on the table behind the stacking line. This module holds
 * what the generator needs (the scene's shape, fixed sizes, supply naming, the ruler, the first
 * camera, the floor) and the world's bodies; `stack-tools.ts` holds the tools that act on them.
 *
 * World frame: x runs along the stacking line toward the table's edge and past it (the ruler's
 * 0 mark is x = 0), y is up with the table top at y = 0, z toward the first camera. The table
 * reaches from x = {@link TABLE_BACK} to the edge; the stacking line is z = {@link STACK_Z}.
 *
 * Body names: `floor` (hidden), `table`, `table-legs`, `marker-post`, `marker-ball`, and
 * `block-<colour>` for each block of the supply (see {@link blockBody}).
 */
import { roundTo } from '../../../core/determinism.ts';
import { SpaceActError } from '../../../core/errors.ts';
import type { Rng } from '../../../core/rng.ts';
import type { Pose, RulerSpec } from '../../../sim/types.ts';
import type { World } from '../../../sim/world.ts';
import type { Instance, ViewDeclaration } from '../../types.ts';

/** One loose block of the supply. */
export interface SupplyBlock {
  /** Its colour, which is also its name in the tools ('red' is the body 'block-red'). */
  color: BlockColor;
  /** Length along x, m. */
  length: number;
}

/**
 * What the kit needs of a family's scene (plain JSON). A family's scene extends it with what
 * its own goal needs (B4: how many blocks the reference uses).
 */
export interface TableEdgeScene {
  /** x of the table's edge, m (the table runs from x = `TABLE_BACK` to here). */
  edgeX: number;
  /** x of the red marker post standing on the floor past the edge, m. */
  markerX: number;
  /** The supply: each block lies on the table behind the stacking line, in rows from front to back. */
  blocks: SupplyBlock[];
}

/** The block colours, in supply order, and how they are drawn. */
export const BLOCK_COLORS = { red: '#c0392b', blue: '#2e6fb7', yellow: '#e5b812', green: '#27ae60', purple: '#8e44ad', orange: '#e67e22' } as const;
/** A block's colour name. */
export type BlockColor = keyof typeof BLOCK_COLORS;

/** Block height (y), m: every block has this cross-section, so mass goes with length. */
export const BLOCK_HEIGHT = 0.02;
/** Block depth (z), m. */
export const BLOCK_DEPTH = 0.04;
/** Wood-like density, kg/m³. */
export const BLOCK_DENSITY = 600;
/** The table's back end, m (x). */
export const TABLE_BACK = -0.03;
/** The table slab's thickness, m. */
export const TABLE_THICKNESS = 0.03;
/** The floor's height, m: far enough below the table that the post under a column is clearly lower. */
export const FLOOR_Y = -0.22;
/** z of the stacking line (the blocks' centres when stacked), m. */
export const STACK_Z = 0;
/** x of every supply block's back end, m. */
export const SUPPLY_BACK_X = 0.01;
/** z of the first supply row, m. */
export const SUPPLY_Z0 = -0.07;
/** The spacing of the supply rows (going back, −z), m. */
export const SUPPLY_PITCH = 0.055;
/** Marker post radius, m. */
export const MARKER_RADIUS = 0.0025;
/** Marker ball radius, m. */
export const MARKER_BALL = 0.007;
/** Height of the marker ball's top below the table top, m: blocks pass over it. */
export const MARKER_TOP = -0.012;
/** Height a carried block clears everything by, m. */
export const CARRY_CLEARANCE = 0.02;
/** Gap left under a block lowered onto the stack before it settles, m. */
export const DROP_GAP = 0.0003;
/** The table's front side in z, m. */
export const TABLE_FRONT_Z = 0.08;
/** The ruler's line: along x, level with the table top, just in front of the stacking line. */
export const RULER_Z = 0.045;
/**
 * The largest x a placement may ask for, m, and the farthest the ruler runs: a family draws its
 * markers at least 3 cm short of it (the ruler ends at the first 5 cm mark 3 cm past the marker).
 */
export const RULER_END = 0.75;
/** The drawn floor (`Instance.ground`): at the floor's height, a warm grey. */
export const TABLE_EDGE_GROUND = { y: FLOOR_Y, color: '#b9b2a5' } as const;

/** The body name of a block. */
export function blockBody(color: BlockColor): string {
  return `block-${color}`;
}

/**
 * A supply of blocks with `lengths` (in row order, front to back), named by the colours in
 * their fixed order and rounded to 0.1 mm (at most one block per colour). The colours never depend on the draw, so the rules
 * text reads the same for every seed; a family that wants which colour is long to vary
 * shuffles the lengths before calling this.
 */
export function namedSupply(lengths: readonly number[]): SupplyBlock[] {
  const colors = Object.keys(BLOCK_COLORS) as BlockColor[];
  if (lengths.length > colors.length) throw new SpaceActError('invalid-argument', `a supply holds at most ${colors.length} blocks (one per colour), not ${lengths.length}`, { field: 'lengths' });
  return lengths.map((length, k) => ({ color: colors[k], length: roundTo(length, 4) }));
}

/**
 * The lengths of a mixed supply of `count` blocks (at least four), drawn in this order: two long
 * ones (`long`, and 90–100 % of it), two middling (55–75 %) and the rest short (30–45 %), so
 * that which blocks a column should take, and in what order, has to be read off the ruler.
 */
export function mixedSupplyLengths(rng: Rng, long: number, count: number): number[] {
  if (count < 4) throw new SpaceActError('invalid-argument', `a mixed supply holds at least 4 blocks, not ${count}`, { field: 'count' });
  const lengths = [long, long * rng.range(0.9, 1), long * rng.range(0.55, 0.75), long * rng.range(0.55, 0.75)];
  for (let i = 4; i < count; i++) lengths.push(long * rng.range(0.3, 0.45));
  return lengths;
}

/** Where a supply block lies before it is used (and goes back to when removed). */
export function supplyPose(s: TableEdgeScene, index: number): Pose {
  const b = s.blocks[index];
  return { p: [SUPPLY_BACK_X + b.length / 2, BLOCK_HEIGHT / 2, SUPPLY_Z0 - SUPPLY_PITCH * index], q: [0, 0, 0, 1] };
}

/** The centre height of the stack's level `k` (0 = on the table). */
export function levelY(k: number): number {
  return BLOCK_HEIGHT * (k + 0.5);
}

/** The table's far (back) side in z, m: behind the last supply row. */
export function tableBackZ(s: TableEdgeScene): number {
  return SUPPLY_Z0 - SUPPLY_PITCH * (s.blocks.length - 1) - 0.045;
}

/** The ruler's far end, m (x): the first 5 cm mark at least 3 cm past the marker. */
export function rulerEnd(s: TableEdgeScene): number {
  return Math.min(RULER_END, Math.ceil((s.markerX + 0.03) / 0.05 - 1e-9) * 0.05);
}

/**
 * The one ruler (`Instance.rulers`): along the stacking line, level with the table top, from
 * x = 0 (its 0 mark) to {@link rulerEnd}; a tick every centimetre, a label every 5 cm. It ends
 * just past the marker so that where it stops says nothing the picture does not.
 */
export function tableEdgeRulers(s: TableEdgeScene): RulerSpec[] {
  return [{ from: [0, 0.0015, RULER_Z], to: [roundTo(rulerEnd(s), 4), 0.0015, RULER_Z], tickDir: [0, 0, 1], minor: 0.01, major: 0.05, color: '#111111' }];
}

/**
 * The first camera (`Instance.camera`): everything from the table's back end to past the
 * ruler's end, the supply behind the line, seen from the front and above; `turn` (degrees,
 * 0 = straight in front) turns the first view to one side (a `+rot` lever), and the camera
 * backs off so that the slanted ruler still fits. Plain arithmetic with rounded results, so
 * the generator stays pure.
 */
export function tableEdgeCamera(s: TableEdgeScene, turn: number): Instance['camera'] {
  const right = rulerEnd(s) + 0.05;
  // The table's back corner comes out farther left in perspective than its front edge.
  const left = TABLE_BACK - 0.07;
  const width = right - left;
  const target: [number, number, number] = [roundTo((left + right) / 2, 4), -0.03, -0.07];
  return { initial: { azimuth: turn, elevation: 30, distance: roundTo(width * (turn ? 1.95 : 1.6), 3), target }, elevationRange: [-20, 90] };
}

const IDENTITY: Pose['q'] = [0, 0, 0, 1];
/** The blocks' and the table's material: friction that holds a block on a block, no bounce. */
const WOOD = { density: BLOCK_DENSITY, friction: 0.6, restitution: 0 };

/**
 * Adds the scene's bodies to `world`, in a fixed order (the state hash depends on it): the
 * hidden floor, the table (its top at y = 0, ending at the edge) and its legs, the marker post
 * and ball (drawn only: blocks pass over them, and a block that falls must not rest on them),
 * and each supply block as a dynamic body where it lies.
 */
export function addTableEdge(world: World, s: TableEdgeScene): void {
  const backZ = tableBackZ(s);
  const tableHalf: [number, number, number] = [(s.edgeX - TABLE_BACK) / 2, TABLE_THICKNESS / 2, (TABLE_FRONT_Z - backZ) / 2];
  const tableCentre: [number, number, number] = [(s.edgeX + TABLE_BACK) / 2, -TABLE_THICKNESS / 2, (TABLE_FRONT_Z + backZ) / 2];
  world.addBody({ name: 'floor', kind: 'static', pose: { p: [0.3, FLOOR_Y - 0.01, 0], q: IDENTITY }, shapes: [{ type: 'box', half: [1.2, 0.01, 1.2] }], material: WOOD, visible: false });
  world.addBody({ name: 'table', kind: 'static', pose: { p: tableCentre, q: IDENTITY }, shapes: [{ type: 'box', half: tableHalf }], material: WOOD, color: '#a67c52' });
  // Four legs, set in from the corners; drawn and solid, but nothing reaches them.
  const legHalf = (FLOOR_Y + TABLE_THICKNESS) / -2;
  const legs = [
    [TABLE_BACK + 0.03, TABLE_FRONT_Z - 0.03],
    [TABLE_BACK + 0.03, backZ + 0.03],
    [s.edgeX - 0.04, TABLE_FRONT_Z - 0.03],
    [s.edgeX - 0.04, backZ + 0.03],
  ];
  world.addBody({
    name: 'table-legs',
    kind: 'static',
    pose: { p: [0, -TABLE_THICKNESS - legHalf, 0], q: IDENTITY },
    shapes: legs.map(([x, z]) => ({ type: 'box' as const, half: [0.012, legHalf, 0.012] as [number, number, number], pose: { p: [x, 0, z] as [number, number, number], q: IDENTITY } })),
    color: '#7d5a3a',
  });
  const postHalf = (MARKER_TOP - MARKER_BALL - FLOOR_Y) / 2;
  world.addBody({ name: 'marker-post', kind: 'static', collides: false, pose: { p: [s.markerX, FLOOR_Y + postHalf, STACK_Z], q: IDENTITY }, shapes: [{ type: 'cylinder', radius: MARKER_RADIUS, halfHeight: postHalf }], color: '#c0392b' });
  world.addBody({ name: 'marker-ball', kind: 'static', collides: false, pose: { p: [s.markerX, MARKER_TOP - MARKER_BALL, STACK_Z], q: IDENTITY }, shapes: [{ type: 'ball', radius: MARKER_BALL }], color: '#e74c3c' });
  s.blocks.forEach((b, i) => {
    world.addBody({
      name: blockBody(b.color),
      kind: 'dynamic',
      pose: supplyPose(s, i),
      shapes: [{ type: 'box', half: [b.length / 2, BLOCK_HEIGHT / 2, BLOCK_DEPTH / 2] }],
      material: WOOD,
      color: BLOCK_COLORS[b.color],
    });
  });
}

/**
 * The first view's declaration (`FamilyEnv.viewParts`): the table and its edge, the marker
 * (post and ball as one part), every block large enough to read its length against the ruler;
 * the legs are scenery. The ruler is read by default.
 */
export function tableEdgeViewParts(s: TableEdgeScene): ViewDeclaration[] {
  return [
    {
      bodies: [
        { name: 'table', minPixels: 20000 },
        { name: 'marker', group: ['marker-post', 'marker-ball'], minPixels: 150 },
        ...s.blocks.map((b) => ({ name: blockBody(b.color), minPixels: 800 })),
      ],
      scenery: ['table-legs'],
    },
  ];
}
