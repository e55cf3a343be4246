/**
 * V1 episode: the table, walls and blocks, the pile settled (it must stand still), and the
 * `answer` tool that records the count; an answer off by one earns half the unsolved points.
 */
import { SpaceActError } from '../../../core/errors.ts';
import type { World } from '../../../sim/world.ts';
import type { FamilyEnv, Instance } from '../../types.ts';
import type { BlockKind } from './pile.ts';
import { NEAR_MISS_PROGRESS, TABLE_COLOR, WALL_COLOR, WOOD, type V1Scene } from './scene.ts';

/** Builds the table, walls and blocks and lets the pile settle; the `answer` tool records the count. */
export function build(instance: Instance<V1Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  world.addBody({
    name: 'table',
    kind: 'static',
    pose: s.table.pose,
    shapes: [{ type: 'box', half: s.table.half }],
    material: WOOD,
    color: TABLE_COLOR,
  });
  for (const w of s.walls) {
    world.addBody({ name: w.name, kind: 'static', pose: w.pose, shapes: [{ type: 'box', half: w.half }], material: WOOD, color: WALL_COLOR, tags: ['wall'] });
  }
  for (const b of s.blocks) {
    world.addBody({
      name: b.name,
      kind: 'dynamic',
      pose: b.pose,
      shapes: [{ type: 'box', half: b.half }],
      material: WOOD,
      color: b.color,
      tags: [b.kind === 'cube' ? 'cube' : 'decoy', b.kind],
    });
  }
  // The pile is stacked straight, so it must stand still: a settle that moves anything means
  // the generator made an unstable pile.
  const v = world.settle({ seconds: 0.5 });
  if (v) throw new SpaceActError('invalid-state', `${instance.id}: the pile does not stand still: ${v.message}`, { violation: v });
  world.meta.answer = null;
  const cubesInWorld = (): number => world.bodyNames().filter((n) => world.bodySpec(n).tags?.includes('cube')).length;

  return {
    tools: {
      answer(args) {
        const count = Number(args.count);
        if (!Number.isInteger(count) || count < 0 || count > 200) {
          throw new SpaceActError('invalid-argument', 'count must be a whole number from 0 to 200', { field: 'count' });
        }
        world.meta.answer = count;
        return `committed the count ${count}`;
      },
    },
    solved() {
      return typeof world.meta.answer === 'number' && world.meta.answer === cubesInWorld();
    },
    // The first view (view rule, AUTHORING step 4a): the table and the whole pile in frame (as one
    // part: blocks hidden behind or under others are the task), the L7 wall, and the rulers the
    // rules mention, less one the pile hides on purpose (its labels must not show).
    viewParts: (ctx) => {
      // With the L7 wall on the side the camera faces, the first ruler lies along the far side
      // (generate.ts), mostly behind the pile from the first view: the agent is told to read the
      // other one there, and whatever of the far one shows must still be legible.
      const rulerCount = ctx.scene().rulers?.length ?? 0;
      const rulers = Array.from({ length: rulerCount }, (_, i) => i).filter((i) => !(s.walls.length && i === 0));
      // The L7 wall hides the pile's lower layers from this side by design (its tier text says
      // so), so what must show of the pile there is its upper part: about half the L5 figure
      // (a low pile behind the wall shows 15,800–16,000 pixels of clear upper blocks).
      const pileMinPixels = s.walls.length ? 12000 : 20000;
      return [
        {
          bodies: [
            { name: 'table', minPixels: 15000 },
            { name: 'pile', group: s.blocks.map((b) => b.name), minPixels: pileMinPixels },
            ...s.walls.map((w) => ({ name: w.name, minPixels: 10000 })),
          ],
          rulers,
        },
      ];
    },
    // A wrong count earns half progress only as a near miss: off by one where the first view
    // alone is off by two or more. Credit growing with closeness would pay for guessing: a
    // tier's counts span only about a dozen values, so a blind mid-range guess would be close.
    progress() {
      const a = world.meta.answer;
      if (typeof a !== 'number') return 0;
      const truth = cubesInWorld();
      return Math.abs(a - truth) === 1 && truth - s.firstViewCount >= 2 ? NEAR_MISS_PROGRESS : 0;
    },
    stateText() {
      const lines = [`${s.cubeCount} cubes and ${s.blocks.length - s.cubeCount} other blocks. Bottom of each block above the table, and grid cell (column, row):`];
      for (const b of s.blocks) {
        const p = world.getPose(b.name).p;
        lines.push(
          `${b.name}: ${kindText(b.kind)} at (${(p[0] * 1000).toFixed(0)}, ${(p[1] * 1000).toFixed(0)}, ${(p[2] * 1000).toFixed(0)}) mm, bottom ${(b.base * 20).toFixed(0)} mm, cell ${b.cells.map((c) => `(${c[0]}, ${c[1]})`).join('+')}`,
        );
      }
      return lines.join('\n');
    },
  };
}

function kindText(k: BlockKind): string {
  return { cube: 'cube', tile: 'tile (decoy)', post: 'upright bar (decoy)', beam: 'lying bar (decoy)' }[k];
}
