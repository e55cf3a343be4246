/**
 * P6 generator: a pure function of (seed, tier). L1/L3 put one full stack on a random peg;
 * L5/L7 scatter the disks in a legal arrangement far (by exact search) from the goal.
 */
import { Rng } from '../../../core/rng.ts';
import { makeInstance } from '../../instance.ts';
import type { FamilyDescriptor, Instance, Tier, ToolSpec } from '../../types.ts';
import { PEG_NAMES, TIER_DISKS, type P6Scene, type PegState } from './scene.ts';
import { distanceOf, distancesToGoal, solvePegTransfer, type PegRules } from './solver.ts';

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

/** The instance of (seed, tier). */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier): Instance<P6Scene> {
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
  return makeInstance(family, tier, seed, {
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
