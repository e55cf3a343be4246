import { SpaceActError } from '../../../core/errors.ts';
import { ViolationError } from '../../../sim/violation.ts';
import type { BodySpec, Pose, ShapeSpec } from '../../../sim/types.ts';
import type { World } from '../../../sim/world.ts';
import { makeInstance } from '../../instance.ts';
import { Rng } from '../../../core/rng.ts';
import type { FamilyEnv, Instance, TaskFamily, Tier, ToolSpec } from '../../types.ts';
import { applyMove, distanceOf, distancesToGoal, moveProblem, solvePegTransfer, topDisk, type PegRules, type PegState } from './solver.ts';
import { round9 } from '../../../core/determinism.ts';

/** Parameters a P6 world is built from. */
export interface P6Scene {
  /** Peg index per disk, smallest disk first. */
  start: PegState;
  /** Peg every disk must end on. */
  target: number;
  adjacentOnly: boolean;
}

const PEG_NAMES = ['A', 'B', 'C'];
const PEG_SPACING = 0.12;
const PEG_RADIUS = 0.005;
const PEG_HEIGHT = 0.11;
const HOLE_RADIUS = 0.008;
const DISK_THICKNESS = 0.012;
/** Vertical gap left under a lowered disk; it settles this far when released. */
const DROP_GAP = 0.0005;
// No green: the goal pad is green.
const DISK_COLORS = ['#e74c3c', '#f39c12', '#f1c40f', '#8e44ad', '#2980b9', '#7f8c8d'];

function diskRadius(i: number): number {
  return 0.016 + 0.006 * i;
}

function pegX(peg: number): number {
  return (peg - 1) * PEG_SPACING;
}

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

const TIER_DISKS: Record<Tier, number> = { L1: 3, L3: 4, L5: 5, L7: 5 };

function moveTool(adjacentOnly: boolean): ToolSpec {
  return {
    name: 'move',
    kind: 'discrete',
    description:
      'Lift the top disk off peg `from`, carry it over and lower it onto peg `to`.' +
      (adjacentOnly ? ' Only neighbouring pegs: A↔B or B↔C.' : ''),
    parameters: {
      type: 'object',
      properties: { from: { enum: PEG_NAMES }, to: { enum: PEG_NAMES } },
      required: ['from', 'to'],
      additionalProperties: false,
    },
  };
}

function rulesText(s: P6Scene): string {
  const n = s.start.length;
  const lines = [
    `Three upright pegs stand in a row on a board; seen from the first view they are A, B and C from left to right. ${n} disks of different sizes are threaded on them.`,
    `Goal: get all ${n} disks onto peg ${PEG_NAMES[s.target]}, the peg with the green pad at its foot.`,
    'move(from, to) lifts the top disk of one peg and lowers it onto another. A disk may never be put on a smaller disk.',
  ];
  if (s.adjacentOnly) lines.push('Variant rule: a disk may only move between neighbouring pegs (A and B, or B and C); A to C directly is not allowed.');
  lines.push('An illegal move is stopped and rolled back, and the rest of that turn is not run. The episode ends as soon as every disk is on the goal peg.');
  return lines.join('\n');
}

function planText(s: P6Scene): string {
  const { moves } = solvePegTransfer(s.start, s.target, { pegs: 3, adjacentOnly: s.adjacentOnly });
  return `A shortest plan (${moves.length} moves): ${moves.map((m) => `${PEG_NAMES[m.from]}→${PEG_NAMES[m.to]}`).join(', ')}.`;
}

function generate(seed: number, tier: Tier): Instance<P6Scene> {
  const rng = Rng.forInstance('P6', tier, seed);
  const n = TIER_DISKS[tier];
  const adjacentOnly = tier === 'L7';
  const rules: PegRules = { pegs: 3, adjacentOnly };
  let start: PegState;
  let target: number;
  if (tier === 'L1' || tier === 'L3') {
    const from = rng.int(0, 2);
    target = (from + rng.int(1, 2)) % 3;
    start = new Array(n).fill(from);
  } else {
    // A scattered legal start, re-drawn (deterministically) until it is far from the goal.
    target = rng.int(0, 2);
    const dist = distancesToGoal(n, target, rules);
    const minMoves = adjacentOnly ? 60 : 15;
    do {
      start = Array.from({ length: n }, () => rng.int(0, 2));
    } while (distanceOf(dist, start, 3) < minMoves);
  }
  const scene: P6Scene = { start, target, adjacentOnly };
  return makeInstance(p6PegTransfer, tier, seed, {
    title: `Peg transfer, ${n} disks${adjacentOnly ? ', neighbouring pegs only' : ''}`,
    rules: rulesText(scene),
    tools: [moveTool(adjacentOnly)],
    camera: {
      initial: { azimuth: 0, elevation: 22, distance: 0.62, target: [0, 0.045, 0] },
      elevationRange: [0, 90],
    },
    rulers: [{ from: [-0.18, 0.0005, 0.065], to: [0.18, 0.0005, 0.065], tickDir: [0, 0, 1] }],
    ground: { y: -0.02 },
    dynamic: false,
    scoring: 'graded',
    scene,
    reveal: { plan: planText(scene) },
  });
}

/** Builds the board, pegs and disks, and the `move` tool acting on them. */
function build(instance: Instance<P6Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  const n = s.start.length;
  const rules: PegRules = { pegs: 3, adjacentOnly: s.adjacentOnly };
  const wood = { density: 700, friction: 0.6, restitution: 0 };
  world.addBody({
    name: 'board',
    kind: 'static',
    pose: { p: [0, -0.01, 0], q: [0, 0, 0, 1] },
    shapes: [{ type: 'box', half: [0.2, 0.01, 0.07] }],
    material: wood,
    color: '#b08d5b',
  });
  for (let peg = 0; peg < 3; peg++) {
    world.addBody({
      name: `peg-${PEG_NAMES[peg]}`,
      kind: 'static',
      pose: { p: [pegX(peg), PEG_HEIGHT / 2, 0], q: [0, 0, 0, 1] },
      shapes: [{ type: 'cylinder', radius: PEG_RADIUS, halfHeight: PEG_HEIGHT / 2 }],
      material: wood,
      color: '#7f6a4d',
    });
  }
  world.addBody({
    name: 'goal-pad',
    kind: 'static',
    collides: false,
    pose: { p: [pegX(s.target), 0.0006, 0], q: [0, 0, 0, 1] },
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
        pose: { p: [pegX(peg), DISK_THICKNESS * (level + 0.5), 0], q: [0, 0, 0, 1] },
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
  const pose = (x: number, y: number): Pose => ({ p: [x, y, 0], q: [0, 0, 0, 1] });

  return {
    tools: {
      move(args) {
        const from = PEG_NAMES.indexOf(String(args.from));
        const to = PEG_NAMES.indexOf(String(args.to));
        if (from < 0 || to < 0) throw new SpaceActError('invalid-argument', 'from and to must be A, B or C');
        const st = state();
        const problem = moveProblem(st, { from, to }, rules);
        const disk = topDisk(st, from);
        if (problem && (disk < 0 || from === to || problem.startsWith('only'))) {
          throw new ViolationError({
            kind: 'rule',
            bodies: disk >= 0 ? [diskName(disk), `peg-${PEG_NAMES[from]}`] : [`peg-${PEG_NAMES[from]}`],
            message: `move ${PEG_NAMES[from]}→${PEG_NAMES[to]} refused: ${problem}`,
          });
        }
        const name = diskName(disk);
        const clearY = PEG_HEIGHT + 0.008 + DISK_THICKNESS / 2;
        const below = st.filter((p, i) => p === to && i !== disk).length;
        const restY = DISK_THICKNESS * (below + 0.5) + DROP_GAP;
        world.setKind(name, 'kinematic');
        world.moveSwept(name, pose(pegX(from), clearY));
        world.moveSwept(name, pose(pegX(to), clearY));
        world.moveSwept(name, pose(pegX(to), restY));
        if (problem) {
          const under = topDisk(st, to);
          throw new ViolationError({
            kind: 'rule',
            bodies: [name, diskName(under)],
            point: [pegX(to), DISK_THICKNESS * below, 0],
            message: `move ${PEG_NAMES[from]}→${PEG_NAMES[to]} refused: disk ${disk + 1} may not rest on the smaller disk ${under + 1}`,
          });
        }
        world.setKind(name, 'dynamic');
        world.setVelocity(name, [0, 0, 0], [0, 0, 0]);
        world.meta.pegs = applyMove(st, { from, to });
        return `moved the top disk of ${PEG_NAMES[from]} onto ${PEG_NAMES[to]}`;
      },
    },
    solved() {
      const st = state();
      if (!st.every((p) => p === s.target)) return false;
      // The discrete record must agree with the bodies: every disk threaded on the goal peg.
      return st.every((_, i) => {
        const p = world.getPose(diskName(i)).p;
        return Math.hypot(p[0] - pegX(s.target), p[2]) < HOLE_RADIUS - PEG_RADIUS + 1e-3;
      });
    },
    staticsAfter() {
      // A lowered disk drops 0.5 mm and is still within 0.03 s; 0.2 s of settling shows any
      // disk that would keep moving, at 40 % of the cost of the default half second.
      return { seconds: 0.2 };
    },
    progress() {
      const d = distanceOf(dist, state(), 3);
      return startDistance > 0 ? Math.max(0, 1 - d / startDistance) : 1;
    },
    stateText() {
      const st = state();
      const lines = [0, 1, 2].map((peg) => {
        const disks = st.map((p, i) => (p === peg ? i : -1)).filter((i) => i >= 0).reverse();
        const names = disks.length ? disks.map((i) => `disk ${i + 1} (⌀ ${(diskRadius(i) * 2000).toFixed(0)} mm)`).join(', ') : 'empty';
        return `Peg ${PEG_NAMES[peg]}${peg === s.target ? ' (goal)' : ''}, bottom to top: ${names}.`;
      });
      return lines.join('\n');
    },
  };
}

function reference(instance: Instance<P6Scene>) {
  const s = instance.scene;
  const sol = solvePegTransfer(s.start, s.target, { pegs: 3, adjacentOnly: s.adjacentOnly });
  return {
    calls: sol.moves.map((m) => ({ tool: 'move', args: { from: PEG_NAMES[m.from], to: PEG_NAMES[m.to] } })),
    optimal: true,
    unique: sol.shortestPlans === 1,
    method: `breadth-first search over all ${sol.statesSearched} reachable states; shortest = ${sol.optimalLength} moves (${sol.shortestPlans} shortest plan${sol.shortestPlans === 1 ? '' : 's'})`,
  };
}

/** P6 peg transfer: a Tower-of-Hanoi family executed with real disks on real pegs. */
export const p6PegTransfer: TaskFamily<P6Scene> = {
  id: 'P6',
  version: 1,
  category: 'P',
  title: 'Peg transfer',
  summary:
    'Move a stack of disks between three pegs, never putting a disk on a smaller one. Tests multi-step planning executed physically; the optimum is proven by exhaustive search.',
  tiers: {
    L1: { levers: [], description: '3 disks, one full stack to move.' },
    L3: { levers: [], description: '4 disks, one full stack to move.' },
    L5: { levers: [], description: '5 disks scattered over the pegs in a legal arrangement, at least 15 moves from the goal.' },
    L7: { levers: ['+rule'], description: 'L5 with a variant rule: only moves between neighbouring pegs; at least 60 moves from the goal.' },
  },
  generate,
  build,
  reference,
};
