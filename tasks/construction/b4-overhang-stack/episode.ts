/**
 * B4 episode: the table, its legs and the floor, the red marker post past the edge, and the
 * supply of loose blocks (dynamic bodies) lying behind the stacking line; the `place` and
 * `remove` tools acting on them.
 *
 * `place` carries a block by swept motion (lift, carry, lower, as a hand would) and then asks
 * the loose-block kit's exact statics check whether the column stands with the rule's margin;
 * a refusal leaves the block where it was asked for in the rollback picture and names only the
 * block and the rule (never how far it is from standing). After every accepted action the
 * world's settle check (Rapier, the default window) confirms that nothing moves.
 *
 * Family state in `world.meta`: `stack` (block colours, bottom to top), snapshotted with the
 * world so a rollback undoes it.
 */
import { SpaceActError } from '../../../core/errors.ts';
import type { Pose } from '../../../sim/types.ts';
import { ViolationError } from '../../../sim/violation.ts';
import type { World } from '../../../sim/world.ts';
import type { FamilyEnv, Instance } from '../../types.ts';
import { columnFailure, columnReach, type ColumnBlock } from '../../kits/loose-blocks/column.ts';
import {
  BLOCK_COLORS,
  BLOCK_DENSITY,
  BLOCK_DEPTH,
  BLOCK_HEIGHT,
  blockBody,
  CARRY_CLEARANCE,
  DROP_GAP,
  FLOOR_Y,
  levelY,
  MARKER_BALL,
  MARKER_RADIUS,
  MARKER_TOP,
  RULE_MARGIN,
  STACK_Z,
  supplyPose,
  TABLE_BACK,
  TABLE_FRONT_Z,
  TABLE_THICKNESS,
  tableBackZ,
  type B4Scene,
  type BlockColor,
} from './scene.ts';

const IDENTITY: Pose['q'] = [0, 0, 0, 1];
const WOOD = { density: BLOCK_DENSITY, friction: 0.6, restitution: 0 };

/** Builds the B4 world for `instance` and returns its tools and tests. */
export function build(instance: Instance<B4Scene>, world: World): FamilyEnv {
  const s = instance.scene;
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

  world.meta.stack = [];
  /** The stack, bottom to top: each block and the centre it was placed at. */
  const placed = (): Array<{ color: BlockColor; x: number }> => world.meta.stack as Array<{ color: BlockColor; x: number }>;
  const stack = (): BlockColor[] => placed().map((p) => p.color);
  const indexOf = (c: BlockColor): number => s.blocks.findIndex((b) => b.color === c);
  const lengthOf = (c: BlockColor): number => s.blocks[indexOf(c)].length;
  /**
   * The column as placed: the exact check judges the centres the tool was given (the settle
   * check holds every block within 2 mm of them), so a settle's micrometres cannot change a
   * verdict at the margin.
   */
  const column = (): ColumnBlock[] => placed().map((p) => ({ x: p.x, length: lengthOf(p.color) }));
  const clearY = (): number => levelY(stack().length) + BLOCK_HEIGHT + CARRY_CLEARANCE;

  /** Carries a block by swept motion: up, across at a height that clears everything, down. */
  const carry = (name: string, to: Pose): void => {
    const from = world.getPose(name).p;
    const y = Math.max(clearY(), to.p[1] + CARRY_CLEARANCE);
    world.setKind(name, 'kinematic');
    world.moveSwept(name, { p: [from[0], y, from[2]], q: IDENTITY });
    world.moveSwept(name, { p: [to.p[0], y, to.p[2]], q: IDENTITY });
    world.moveSwept(name, to);
  };
  const release = (name: string): void => {
    world.setKind(name, 'dynamic');
    world.setVelocity(name, [0, 0, 0], [0, 0, 0]);
  };

  return {
    tools: {
      place(args) {
        const color = String(args.block) as BlockColor;
        if (indexOf(color) < 0) throw new SpaceActError('invalid-argument', `block: '${color}' is not one of ${s.blocks.map((b) => b.color).join(', ')}`, { field: 'block' });
        if (stack().includes(color)) throw new SpaceActError('invalid-argument', `block: '${color}' is already in the stack (remove takes the top block back)`, { field: 'block' });
        const x = Number(args.x_m);
        if (!Number.isFinite(x)) throw new SpaceActError('invalid-argument', 'x_m must be a number', { field: 'x_m' });
        const name = blockBody(color);
        const level = stack().length;
        carry(name, { p: [x, levelY(level) + DROP_GAP, STACK_Z], q: IDENTITY });
        const col = [...column(), { x, length: lengthOf(color) }];
        const failure = columnFailure(col, s.edgeX, RULE_MARGIN);
        if (failure) {
          const onNothing = failure.kind === 'unsupported' && failure.level === level;
          const message = onNothing ? `'${name}' would rest on nothing there; the placement was undone.` : `The stack would not stand with '${name}' there; the placement was undone.`;
          throw new ViolationError({ kind: 'statics', rule: onNothing ? 'rests on the stack or the table' : 'stack stands', bodies: [name], message });
        }
        release(name);
        world.meta.stack = [...placed(), { color, x }];
        return { message: `Placed '${name}' on top of the stack (${level + 1} block${level ? 's' : ''}).`, data: { stack: stack().length } };
      },
      remove() {
        const st = stack();
        if (!st.length) throw new ViolationError({ kind: 'rule', rule: 'empty stack', bodies: [], message: 'There is no block in the stack to remove.' });
        const color = st[st.length - 1];
        const name = blockBody(color);
        world.meta.stack = placed().slice(0, -1);
        const home = supplyPose(s, indexOf(color));
        carry(name, { p: [home.p[0], home.p[1] + DROP_GAP, home.p[2]], q: home.q });
        release(name);
        return `Took '${name}' off the stack and put it back where it lay.`;
      },
    },
    solved() {
      const col = column();
      return col.length > 0 && columnReach(col) >= s.markerX && columnFailure(col, s.edgeX, RULE_MARGIN) === null;
    },
    // The first view: the table and its edge, the marker, every block, the ruler readable.
    viewParts: () => [
      {
        bodies: [
          { name: 'table', minPixels: 20000 },
          { name: 'marker', group: ['marker-post', 'marker-ball'], minPixels: 150 },
          ...s.blocks.map((b) => ({ name: blockBody(b.color), minPixels: 800 })),
        ],
        scenery: ['table-legs'],
      },
    ],
    progress() {
      const col = column();
      if (!col.length) return 0;
      const past = (columnReach(col) - s.edgeX) / (s.markerX - s.edgeX);
      return Math.max(0, Math.min(0.95, past));
    },
    stateText() {
      const mm = (v: number): string => `${Number((v * 1000).toFixed(1))} mm`;
      const lines = [
        `Table edge at x ${mm(s.edgeX)}; marker post at x ${mm(s.markerX)}; the rule's margin ${mm(RULE_MARGIN)}.`,
        `Blocks: ${s.blocks.map((b) => `${b.color} ${mm(b.length)}`).join(', ')}.`,
        stack().length ? `Stack, bottom to top: ${column().map((b, k) => `${stack()[k]} centred at x ${mm(b.x)}`).join('; ')}.` : 'The stack is empty.',
      ];
      return lines.join('\n');
    },
  };
}
