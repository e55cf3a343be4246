/**
 * P6 episode: the board, the pegs and the disks as bodies, and the `move` tool acting on them
 * (lift, carry and lower the top disk with swept motion; a disk on a smaller one is refused as a
 * rule violation after the physical move). The discrete record of which disk is on which peg
 * lives in `world.meta.pegs`, so one snapshot rolls everything back.
 */
import { SpaceActError } from '../../../core/errors.ts';
import { round9 } from '../../../core/determinism.ts';
import type { BodySpec, Pose, ShapeSpec } from '../../../sim/types.ts';
import { ViolationError } from '../../../sim/violation.ts';
import type { World } from '../../../sim/world.ts';
import type { FamilyEnv, Instance } from '../../types.ts';
import { yawQuat } from '../../../sim/math.ts';
import { glyphShapes, inkPose, platePose, plateShape } from '../../kits/part-sight/letters.ts';
import { BOARD_HALF_LENGTH, BOARD_HALF_WIDTH, DISK_COLOR_NAMES, letterPlates, DISK_COLORS, DISK_THICKNESS, diskRadius, DROP_GAP, HOLE_RADIUS, PEG_HEIGHT, PEG_NAMES, PEG_RADIUS, pegLetter, pegOfLetter, pegXZ, type P6Scene, type PegState } from './scene.ts';
import { applyMove, distanceOf, distancesToGoal, moveProblem, topDisk, type PegRules } from './solver.ts';

/**
 * A disk with a hole, as a ring of boxes. Boxes, not convex-hull sectors: in Rapier a stack of
 * many-sided hulls creeps and rocks at rest (measured: a 16-gon prism slides 0.8 mm in 0.5 s on
 * a flat board), which would turn every move into a statics violation; box rings stand still.
 */
function ring(inner: number, outer: number, halfHeight: number, segments = 10): ShapeSpec[] {
  const mid = (inner + outer) / 2;
  const halfLength = round9(outer * Math.tan(Math.PI / segments));
  const shapes: ShapeSpec[] = [];
  for (let k = 0; k < segments; k++) {
    const a = (k / segments) * 2 * Math.PI;
    shapes.push({
      type: 'box',
      half: [round9((outer - inner) / 2), halfHeight, halfLength],
      pose: { p: [round9(mid * Math.cos(a)), 0, round9(mid * Math.sin(a))], q: [0, round9(Math.sin(-a / 2)), 0, round9(Math.cos(-a / 2))] },
    });
  }
  return shapes;
}

/** Builds the board, pegs and disks, and the `move` tool acting on them. */
export function build(instance: Instance<P6Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  const n = s.start.length;
  const rules: PegRules = { pegs: 3, adjacentOnly: s.adjacentOnly };
  const wood = { density: 700, friction: 0.6, restitution: 0 };
  const turn = yawQuat(s.yawDeg);
  world.addBody({
    name: 'board',
    kind: 'static',
    pose: { p: [0, -0.01, 0], q: turn },
    shapes: [{ type: 'box', half: [BOARD_HALF_LENGTH, 0.01, BOARD_HALF_WIDTH] }],
    material: wood,
    color: '#b08d5b',
  });
  for (let peg = 0; peg < 3; peg++) {
    world.addBody({
      name: `peg-${pegLetter(s, peg)}`,
      kind: 'static',
      pose: { p: [pegXZ(s, peg)[0], PEG_HEIGHT / 2, pegXZ(s, peg)[1]], q: [0, 0, 0, 1] },
      shapes: [{ type: 'cylinder', radius: PEG_RADIUS, halfHeight: PEG_HEIGHT / 2 }],
      material: wood,
      color: '#7f6a4d',
    });
  }
  // Each peg's letter on a small sloped stand in front of the board, facing the first camera.
  for (const plate of letterPlates(s)) {
    world.addBody({ name: `stand-${plate.letter}`, kind: 'static', pose: platePose(plate), shapes: [plateShape()], material: wood, color: '#f4f1e8' });
    world.addBody({ name: `letter-${plate.letter}`, kind: 'static', collides: false, pose: inkPose(plate), shapes: glyphShapes(plate.letter), color: '#1f2328' });
  }
  world.addBody({
    name: 'goal-pad',
    kind: 'static',
    collides: false,
    pose: { p: [pegXZ(s, s.target)[0], 0.0006, pegXZ(s, s.target)[1]], q: [0, 0, 0, 1] },
    shapes: [{ type: 'cylinder', radius: diskRadius(n) + 0.006, halfHeight: 0.0005 }],
    color: '#2ecc71',
  });
  const stacks: number[][] = [[], [], []];
  for (let i = n - 1; i >= 0; i--) stacks[s.start[i]].push(i);
  for (let peg = 0; peg < 3; peg++) {
    stacks[peg].forEach((disk, level) => {
      const spec: BodySpec = {
        name: `disk-${disk + 1}`,
        kind: 'dynamic',
        pose: { p: [pegXZ(s, peg)[0], DISK_THICKNESS * (level + 0.5), pegXZ(s, peg)[1]], q: [0, 0, 0, 1] },
        shapes: ring(HOLE_RADIUS, diskRadius(disk), DISK_THICKNESS / 2),
        material: wood,
        color: DISK_COLORS[disk % DISK_COLORS.length],
        tags: ['disk'],
      };
      world.addBody(spec);
    });
  }
  world.meta.pegs = s.start.slice();
  const state = (): PegState => (world.meta.pegs as number[]).slice();
  const dist = distancesToGoal(n, s.target, rules);
  const startDistance = distanceOf(dist, s.start, 3);
  const diskName = (i: number): string => `disk-${i + 1}`;
  const over = (peg: number, y: number): Pose => ({ p: [pegXZ(s, peg)[0], y, pegXZ(s, peg)[1]], q: [0, 0, 0, 1] });

  return {
    tools: {
      move(args) {
        const from = pegOfLetter(s, String(args.from));
        const to = pegOfLetter(s, String(args.to));
        if (from < 0 || to < 0) throw new SpaceActError('invalid-argument', 'from and to must be A, B or C');
        const st = state();
        const problem = moveProblem(st, { from, to }, rules);
        const disk = topDisk(st, from);
        const L = (p: number): string => pegLetter(s, p);
        const pegBody = (p: number): string => `peg-${L(p)}`;
        const refusal = `move ${L(from)}→${L(to)} refused`;
        if (disk < 0) {
          throw new ViolationError({ kind: 'rule', rule: 'empty peg', bodies: [pegBody(from)], target: { body: pegBody(to) }, message: `${refusal}: peg ${L(from)} has no disk to lift.` });
        }
        if (from === to) {
          throw new ViolationError({ kind: 'rule', rule: 'same peg', bodies: [diskName(disk), pegBody(from)], message: `${refusal}: from and to are the same peg.` });
        }
        if (problem?.startsWith('only')) {
          throw new ViolationError({
            kind: 'rule',
            rule: 'neighbouring pegs only',
            bodies: [diskName(disk), pegBody(from)],
            target: { body: pegBody(to) },
            message: `${refusal}: under the variant rule a disk moves only between neighbouring pegs (the middle peg and either end peg), and ${L(from)} and ${L(to)} are not neighbours.`,
          });
        }
        const name = diskName(disk);
        const clearY = PEG_HEIGHT + 0.008 + DISK_THICKNESS / 2;
        const below = st.filter((p, i) => p === to && i !== disk).length;
        const restY = DISK_THICKNESS * (below + 0.5) + DROP_GAP;
        world.setKind(name, 'kinematic');
        world.moveSwept(name, over(from, clearY));
        world.moveSwept(name, over(to, clearY));
        world.moveSwept(name, over(to, restY));
        if (problem) {
          const under = topDisk(st, to);
          const [tx, tz] = pegXZ(s, to);
          throw new ViolationError({
            kind: 'rule',
            rule: 'no disk on a smaller disk',
            bodies: [name, diskName(under)],
            target: { body: diskName(under), point: [tx, DISK_THICKNESS * below, tz] },
            point: [tx, DISK_THICKNESS * below, tz],
            message: `${refusal}: a disk may not rest on a smaller disk.`,
          });
        }
        world.setKind(name, 'dynamic');
        world.setVelocity(name, [0, 0, 0], [0, 0, 0]);
        world.meta.pegs = applyMove(st, { from, to });
        return `moved the top disk of peg ${L(from)} onto peg ${L(to)}`;
      },
    },
    solved() {
      const st = state();
      if (!st.every((p) => p === s.target)) return false;
      // The discrete record must agree with the bodies: every disk threaded on the goal peg.
      return st.every((_, i) => {
        const p = world.getPose(diskName(i)).p;
        const [gx, gz] = pegXZ(s, s.target);
        return Math.hypot(p[0] - gx, p[2] - gz) < HOLE_RADIUS - PEG_RADIUS + 1e-3;
      });
    },
    // The first view (view rule, AUTHORING step 4a): the board, the three pegs with their letter
    // stands, the goal pad and every disk (a smaller disk always lies above a larger one, so each
    // shows at least its rim). The rules ask for no length, so no ruler must be read: the board's
    // scale is a help whose far labels a tall stack may stand in front of.
    viewParts: () => [
      {
        bodies: [
          { name: 'board', minPixels: 20000 },
          ...PEG_NAMES.flatMap((l) => [
            { name: `peg-${l}`, minPixels: 1000 },
            { name: `stand-${l}`, minPixels: 3000 },
            { name: `letter-${l}`, minPixels: 600 },
          ]),
          { name: 'goal-pad', minPixels: 1000 },
          ...Array.from({ length: n }, (_, i) => ({ name: `disk-${i + 1}`, minPixels: 800 })),
        ],
        letters: PEG_NAMES.map((l) => ({ body: `letter-${l}`, text: l, role: 'piece' as const, piece: `peg-${l}` })),
        rulers: [],
      },
    ],
    staticsAfter() {
      // A lowered disk drops 0.5 mm, which takes 0.01 s; 0.05 s of settling (the judge compares
      // the last 0.025 s) still shows any disk that would keep moving. Settling is nearly all of
      // a move's cost (the stacked rings' contacts): 0.2 s took 197 ms a move at L5, 0.05 s
      // takes 45 ms (version 5; issue 35).
      return { seconds: 0.05 };
    },
    progress() {
      const d = distanceOf(dist, state(), 3);
      return startDistance > 0 ? Math.max(0, 1 - d / startDistance) : 1;
    },
    stateText() {
      const st = state();
      const lines = [0, 1, 2].map((peg) => {
        const disks = st.map((p, i) => (p === peg ? i : -1)).filter((i) => i >= 0).reverse();
        const names = disks.length ? disks.map((i) => `${DISK_COLOR_NAMES[i % DISK_COLOR_NAMES.length]} (⌀ ${(diskRadius(i) * 2000).toFixed(0)} mm)`).join(', ') : 'empty';
        return `Peg ${pegLetter(s, peg)}${peg === 1 ? ' (middle)' : ''}${peg === s.target ? ' (goal)' : ''}, bottom to top: ${names}.`;
      });
      return lines.join('\n');
    },
  };
}

