/**
 * The A4 world and its tool: the table with the burr's outline, the clamped grey key stick, the
 * other sticks (kinematic: held where they are slid), the `+occ` screen, and `slide` executed as
 * one straight swept motion (`World.moveSwept`), so touching anything on the way is a collision
 * that rolls the call back. Family state is the sticks' poses alone: one snapshot rolls
 * everything back and one state hash covers it.
 */
import { ViolationError } from '../../../sim/violation.ts';
import type { World } from '../../../sim/world.ts';
import type { ShapeSpec } from '../../../sim/types.ts';
import type { FamilyEnv, Instance } from '../../types.ts';
import { addTable, boxShape, CELL, pieceShapes, WOOD } from '../../kits/polycube-pieces/pieces.ts';
import { round9 } from '../../../core/determinism.ts';
import { SLIDE_DIRECTIONS } from '../../kits/polycube-pieces/disassembly.ts';
import { HALF_LENGTH } from './burr.ts';
import { DIRECTION_NAMES } from './plan.ts';
import { stickOrigin, TABLE, WORK_HALF, WORK_TOP, type A4Scene, type A4Stick } from './scene.ts';

/** Half width of the outline's lines on the table. */
const OUTLINE_LINE = 0.0015;

/** The stick's offset from its assembled place, in whole cubes, read from its pose. */
export function offsetOf(world: World, stick: A4Stick): [number, number, number] {
  const p = world.getPose(stick.name).p;
  const home = stickOrigin(stick.cells, [0, 0, 0]);
  return [0, 1, 2].map((a) => Math.round((p[a] - home[a]) / CELL)) as [number, number, number];
}

/** Whether a stick sits exactly at its place in the burr (within a tenth of a millimetre). */
export function atHome(world: World, stick: A4Stick): boolean {
  const p = world.getPose(stick.name).p;
  const home = stickOrigin(stick.cells, [0, 0, 0]);
  return [0, 1, 2].every((a) => Math.abs(p[a] - home[a]) < 1e-4);
}

/** Adds the table, the burr's outline on it, the screen and the sticks. */
function buildStatics(world: World, s: A4Scene): void {
  addTable(world, TABLE);
  // The outline of the finished burr seen from above: a dark square, 6 cubes a side.
  const h = HALF_LENGTH * CELL;
  const y = 0.0002;
  const lines: ShapeSpec[] = [
    boxShape([h + OUTLINE_LINE, y, OUTLINE_LINE], [0, y, h + OUTLINE_LINE]),
    boxShape([h + OUTLINE_LINE, y, OUTLINE_LINE], [0, y, -h - OUTLINE_LINE]),
    boxShape([OUTLINE_LINE, y, h + OUTLINE_LINE], [h + OUTLINE_LINE, y, 0]),
    boxShape([OUTLINE_LINE, y, h + OUTLINE_LINE], [-h - OUTLINE_LINE, y, 0]),
  ];
  world.addBody({ name: 'outline', kind: 'static', collides: false, pose: { p: [0, 0, 0], q: [0, 0, 0, 1] }, shapes: lines, color: '#1d1d1d' });
  if (s.screen) {
    const c = [0, 1, 2].map((a) => round9((s.screen!.min[a] + s.screen!.max[a]) / 2));
    const half = [0, 1, 2].map((a) => round9((s.screen!.max[a] - s.screen!.min[a]) / 2));
    world.addBody({
      name: 'screen',
      kind: 'static',
      pose: { p: [c[0], c[1], c[2]], q: [0, 0, 0, 1] },
      shapes: [{ type: 'box', half: [half[0], half[1], half[2]] }],
      material: WOOD,
      color: '#6f8090',
    });
  }
  for (const t of s.sticks) {
    world.addBody({
      name: t.name,
      kind: t.key ? 'static' : 'kinematic',
      pose: { p: stickOrigin(t.cells, t.start), q: [0, 0, 0, 1] },
      shapes: pieceShapes(t.cells),
      material: WOOD,
      color: t.color,
      tags: ['stick'],
    });
  }
}

/** Builds the world and returns the family logic bound to it. */
export function build(instance: Instance<A4Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  buildStatics(world, s);
  const byName = new Map(s.sticks.map((t) => [t.name, t]));
  const movable = s.sticks.filter((t) => !t.key);
  const refused = (name: string): ViolationError => new ViolationError({ kind: 'rule', bodies: [name], message: `'${name}' cannot make that slide; nothing moved.` });

  return {
    tools: {
      slide(args) {
        const stick = byName.get(String(args.stick))!;
        const dir = DIRECTION_NAMES.indexOf(args.direction as (typeof DIRECTION_NAMES)[number]);
        const cubes = Number(args.cubes);
        const d = SLIDE_DIRECTIONS[dir];
        const off = offsetOf(world, stick);
        const to = [off[0] + d[0] * cubes, off[1] + d[1] * cubes, off[2] + d[2] * cubes];
        // Off the table (or out of reach above it) is the same refusal as a touch: one text for every cause.
        const inArea = stick.cells.every((c) => Math.abs(c[0] + to[0] + 0.5) <= WORK_HALF && Math.abs(c[2] + to[2] + 0.5) <= WORK_HALF && c[1] + to[1] < WORK_TOP);
        if (!inArea) throw refused(stick.name);
        try {
          world.moveSwept(stick.name, { p: stickOrigin(stick.cells, to), q: [0, 0, 0, 1] });
        } catch (err) {
          if (err instanceof ViolationError) throw new ViolationError({ ...err.violation, kind: 'rule', message: refused(stick.name).violation.message });
          throw err;
        }
        return `slid '${stick.name}' ${args.direction} by ${cubes} cube${cubes === 1 ? '' : 's'}`;
      },
    },
    viewParts: () => [
      {
        bodies: [
          { name: 'table', minPixels: 20000, mayBeCut: true },
          { name: 'outline', minPixels: 150 },
          ...(s.screen ? [{ name: 'screen', minPixels: 3000 }] : []),
          ...s.sticks.map((t) => ({ name: t.name, minPixels: 1000 })),
        ],
        hidden: s.sticks.filter((t) => t.hidden).map((t) => t.name),
        // The tier text promises one stick behind the screen.
        ...(s.screen ? { hiddenBecause: '+occ (L7): the grey screen hides a stick from the first view', hiddenAtMost: 1 } : {}),
      },
    ],
    solved() {
      return movable.every((t) => atHome(world, t));
    },
    progress() {
      return movable.filter((t) => atHome(world, t)).length / movable.length;
    },
    stateText() {
      const lines = [`Sticks of ${CELL * 100} cm cubes; offsets are [right, up, front] in cubes from each stick's place in the finished burr.`];
      for (const t of s.sticks) {
        const o = offsetOf(world, t);
        lines.push(`${t.name}${t.key ? ' (key, clamped)' : ''}: offset [${o.join(', ')}]; its cubes in the burr: ${t.cells.map((c) => `[${c.join(',')}]`).join(' ')}.`);
      }
      return lines.join('\n');
    },
  };
}
