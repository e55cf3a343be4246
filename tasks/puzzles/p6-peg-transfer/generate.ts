/**
 * P6 generator: a pure function of (seed, tier). Every tier scatters the disks over the pegs
 * in a legal arrangement whose shortest plan (by exact search) lies in the tier's range, and
 * puts the goal on a drawn peg. The goal is marked only by the green pad in the scene and the
 * arrangement only by the disks themselves, so the text alone says neither where the disks are
 * nor where they must go.
 */
import { Rng } from '../../../core/rng.ts';
import { makeInstance } from '../../instance.ts';
import { tierSettings } from '../../levers.ts';
import type { FamilyDescriptor, Instance, Tier, ToolSpec } from '../../types.ts';
import type { CameraSpec } from '../../../render/camera-spec.ts';
import { boxScreenArea, firstClearCamera, orbitCandidates, screenPoint, unseenPoints, type SightBox, type SightPoint } from '../../kits/sight-lines.ts';
import type { Vec3 } from '../../../sim/types.ts';
import { actionBudget, BOARD_HALF_LENGTH, BOARD_HALF_WIDTH, boardPoint, REFUSALS_ALLOWED, DISK_THICKNESS, diskRadius, facingSide, GROUND_Y, letterPlates, PEG_HEIGHT, PEG_RADIUS, pegXZ, PEG_NAMES, pegLetter, P6_LEVERS, TIER_TABLE, type P6Scene, type PegState } from './scene.ts';
import { distanceOf, distancesToGoal, solvePegTransfer, type PegRules } from './solver.ts';

function moveTool(adjacentOnly: boolean): ToolSpec {
  return {
    name: 'move',
    kind: 'discrete',
    description:
      'Lift the top disk off peg `from`, carry it over and lower it onto peg `to` (pegs named by the letters on the board).' +
      (adjacentOnly ? ' Only between neighbouring pegs: the middle peg and either end peg.' : ''),
    parameters: {
      type: 'object',
      properties: { from: { enum: PEG_NAMES }, to: { enum: PEG_NAMES } },
      required: ['from', 'to'],
      additionalProperties: false,
    },
  };
}

/** What the rules say about where the letters stand (they never say which letter is where once the order is drawn). */
function orderText(s: P6Scene, shuffledLetters: boolean): string {
  if (s.yawDeg === 0 && !shuffledLetters) return 'Seen from the first view they run A, B, C from left to right (B is the middle one).';
  const turned = s.yawDeg === 0 ? '' : 'The board is turned, so in the first view the pegs do not run left to right';
  const shuffled = shuffledLetters ? 'the letters do not necessarily follow the alphabet along the row' : '';
  const both = [turned, shuffled].filter(Boolean).join(', and ');
  return `${both.charAt(0).toUpperCase()}${both.slice(1)}: read the letters in the picture.`;
}

function rulesText(s: P6Scene, budget: number, shuffledLetters: boolean): string {
  const n = s.start.length;
  const lines = [
    `Three upright pegs stand in a row on a board; a letter on a stand in front of each names it A, B or C. ${orderText(s, shuffledLetters)} ${n} disks of different sizes and colours are threaded on them.`,
    `Goal: get all ${n} disks onto the goal peg, the one with the green pad at its foot.`,
    'move(from, to) lifts the top disk of one peg and lowers it onto another. A disk may never be put on a smaller disk.',
  ];
  if (s.adjacentOnly) lines.push('Variant rule: a disk may only move between neighbouring pegs, that is between the middle peg and either end peg; a move between the two end pegs directly is not allowed.');
  lines.push(
    `Budget: at most ${budget} moves in the whole episode; looking around with the camera is free. The episode ends when the budget is spent.`,
    'A move that breaks a rule (from a peg with no disk, onto the same peg, onto a smaller disk' + (s.adjacentOnly ? ', or between the two end pegs' : '') + ') is stopped and rolled back, and it ends the episode unsolved. An episode that ends unsolved is scored by how close the disks are to the goal. The episode ends as soon as every disk is on the goal peg.',
  );
  return lines.join('\n');
}

function planText(s: P6Scene): string {
  const { moves } = solvePegTransfer(s.start, s.target, { pegs: 3, adjacentOnly: s.adjacentOnly });
  const L = (peg: number): string => pegLetter(s, peg);
  return `The goal is peg ${L(s.target)} (the middle peg is ${L(1)}). A shortest plan (${moves.length} moves): ${moves.map((m) => `${L(m.from)}→${L(m.to)}`).join(', ')}.`;
}

/**
 * Which first camera to choose: version 6's (`first-view`), or version 5's, which the lever
 * studies' re-draw rule still judges a turn by so that every study keeps its turn.
 */
type CameraRules = 'first-view' | 'version-5';

/**
 * The first camera: from the front, 22° above, or — for a board turned near 90°, whose pegs
 * line up along the line of sight — the lowest of a few steeper views from which no peg's
 * disks and no other peg hide a peg's upper part, a disk's near rim or a letter stand (issue 32:
 * at 22° the front stack hid the pegs and small disks behind it). The azimuth stays 0, so the
 * board's turn on screen is the drawn one.
 *
 * Version 6 (`first-view`): a disk's near rim in sight did not mean enough of the disk was. At
 * P6-L7-s22 the board stands turned 85°, the small red disk lies on the far peg under a larger
 * one, and the middle peg's post ran up the front of it: 703 pixels drawn from 22°, where the
 * view rule asks 800. So every disk must also show {@link FIRST_VIEW_DISK_PIXELS} by
 * {@link smallDisk}. From the usual distance, views steeper than 38° can cut the near end of a
 * board turned along the line of sight off the picture's bottom. So the board's corners must be
 * in the picture, and 38°, 46° and 54° are tried again from 4 cm further off. P6-L7-s22 now looks
 * from 46°, 0.66 m.
 */
function firstCamera(s: P6Scene, rules: CameraRules = 'first-view'): CameraSpec {
  const base: CameraSpec = { azimuth: 0, elevation: 22, distance: 0.62, target: [0, 0.045, 0] };
  const stacks: number[][] = [[], [], []];
  for (let i = s.start.length - 1; i >= 0; i--) stacks[s.start[i]].push(i);
  const boxes: SightBox[] = [];
  const ownOf: number[][] = [[], [], []];
  const points: SightPoint[] = [];
  stacks.forEach((disks, peg) => {
    const [x, z] = pegXZ(s, peg);
    ownOf[peg].push(boxes.length);
    boxes.push({ center: [x, PEG_HEIGHT / 2, z], half: [PEG_RADIUS, PEG_HEIGHT / 2, PEG_RADIUS] });
    if (disks.length) {
      // A disk is a cylinder: the box between its inscribed and circumscribed squares.
      const r = 0.85 * diskRadius(disks[0]);
      const h = disks.length * DISK_THICKNESS;
      ownOf[peg].push(boxes.length);
      boxes.push({ center: [x, h / 2, z], half: [r, h / 2, r] });
    }
  });
  stacks.forEach((disks, peg) => {
    const [x, z] = pegXZ(s, peg);
    const own = ownOf[peg];
    for (const y of [PEG_HEIGHT, 0.8 * PEG_HEIGHT]) points.push({ point: [x, y, z + PEG_RADIUS], what: `peg ${peg} at ${y}`, own });
    disks.forEach((d, level) => points.push({ point: [x, (level + 1) * DISK_THICKNESS, z + 0.6 * diskRadius(d)], what: `disk ${d}`, own }));
  });
  for (const plate of letterPlates(s)) points.push({ point: [plate.at[0], GROUND_Y + 0.02, plate.at[1]], what: `stand ${plate.letter}` });
  const near = orbitCandidates(base, [], [8, 16, 24]);
  if (rules === 'version-5') return firstClearCamera(near, points, boxes).camera;
  // The board's eight corners (its top at 0, its bottom 2 cm down), which only the picture's
  // edges may cut off: nothing on the board stands in front of them.
  const corners: Vec3[] = [-1, 1].flatMap((i) =>
    [-1, 1].flatMap((j) =>
      [0, GROUND_Y].map((y): Vec3 => {
        const [x, z] = boardPoint(s.yawDeg, i * BOARD_HALF_LENGTH, j * BOARD_HALF_WIDTH);
        return [x, y, z];
      }),
    ),
  );
  // Out of the picture. Not the kit's `inPicture`, which keeps a twentieth of the picture's
  // height clear of each edge: from the front at 22° the board's near corners come within 0.02
  // of the edges, and from 38° a board turned along the line of sight within 0.01, both uncut.
  const boardCut = (camera: CameraSpec): SightPoint[] =>
    corners
      .filter((p) => {
        const at = screenPoint(camera, p);
        return !at || Math.abs(at[0]) > 0.5 || Math.abs(at[1]) > 0.5;
      })
      .map((p) => ({ point: p, what: 'board corner out of the picture' }));
  const further = [16, 24, 32].map((de) => ({ ...base, elevation: base.elevation + de, distance: base.distance + 0.04 }));
  const more = (camera: CameraSpec): SightPoint[] => [
    ...boardCut(camera),
    ...(smallDisk(s, camera, FIRST_VIEW_DISK_PIXELS) ? [{ point: [0, 0, 0] as Vec3, what: 'a disk shows too little' }] : []),
  ];
  return firstClearCamera([...near, ...further], points, boxes, 1, more).camera;
}

/** Turns a lever study may draw before it keeps the last. */
const STUDY_TURN_DRAWS = 20;

/**
 * Sight-line pixels (at 768 × 768) a disk must keep in a lever study's first view (as version 5
 * chose it) for the study to keep its turn: the view rule asks 800 of the render, and the
 * estimate (the disk's screen area times the share of sample points on its top and rim that no
 * peg or other stack hides) ran about 60 short of it: 724 and 648 estimated showed 787 and 709
 * (study seeds 16 and 18), 789 estimated showed over 800.
 */
const STUDY_DISK_MIN_PIXELS = 760;

/**
 * Sight-line pixels a disk must keep in the first view (version 6): the rule's 800 and a fifth
 * more. At L7's turned boards the estimate misses in both directions. It ran short where a
 * stack hides the disk (801 estimated, 834 drawn at s69; 904 and 1,022 at s33). It ran over where
 * only a peg's thin post crosses the disk, because the post falls between the sample points
 * (929 estimated, 810 drawn at s280 from 38°; 811 and 811 at s22 from 38°).
 */
const FIRST_VIEW_DISK_PIXELS = 950;

/**
 * Whether a disk shows too little from `camera` (a turned board's first view: the lever
 * studies' re-draw rule, and since version 6 the first camera's choice): turned near 90°, the
 * pegs line up along the line of sight and a stack in front, or the peg through it, hides much
 * of a small disk. Pure geometry (tasks/kits/sight-lines.ts).
 */
function smallDisk(s: P6Scene, camera: CameraSpec, minPixels: number): boolean {
  const stacks: number[][] = [[], [], []];
  for (let i = s.start.length - 1; i >= 0; i--) stacks[s.start[i]].push(i);
  const boxes: SightBox[] = [];
  const boxOf = new Map<number, number>();
  stacks.forEach((disks, peg) => {
    const [x, z] = pegXZ(s, peg);
    boxes.push({ center: [x, PEG_HEIGHT / 2, z], half: [0.85 * PEG_RADIUS, PEG_HEIGHT / 2, 0.85 * PEG_RADIUS] });
    disks.forEach((d, level) => {
      boxOf.set(d, boxes.length);
      boxes.push({ center: [x, DISK_THICKNESS * (level + 0.5), z], half: [0.8 * diskRadius(d), DISK_THICKNESS / 2, 0.8 * diskRadius(d)] });
    });
  });
  return stacks.some((disks, peg) => {
    const [x, z] = pegXZ(s, peg);
    return disks.some((d, level) => {
      const r = diskRadius(d);
      const top = DISK_THICKNESS * (level + 1);
      const points: SightPoint[] = [];
      for (let a = 0; a < 16; a++) {
        const [c, sn] = [Math.cos((a / 16) * 2 * Math.PI), Math.sin((a / 16) * 2 * Math.PI)];
        for (const k of [0.55, 0.8, 0.98]) points.push({ point: [x + k * r * c, top + 0.0002, z + k * r * sn], what: `disk ${d + 1}`, own: [boxOf.get(d)!] });
        for (const f of [0.25, 0.75]) points.push({ point: [x + 1.001 * r * c, DISK_THICKNESS * (level + f), z + 1.001 * r * sn], what: `disk ${d + 1}`, own: [boxOf.get(d)!] });
      }
      const shown = 1 - unseenPoints(camera, points, boxes).length / points.length;
      const area = boxScreenArea(camera, { center: [x, DISK_THICKNESS * (level + 0.5), z], half: [r, DISK_THICKNESS / 2, r] }) * (Math.PI / 4);
      return area * 768 * 768 * shown < minPixels;
    });
  });
}

/** The instance of (seed, tier, lever). A lever study (`P6-L5+rot-s100`) draws from L5's stream with the lever on. */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<P6Scene> {
  const rng = Rng.forInstance('P6', tier, seed);
  const T = tierSettings('P6', TIER_TABLE, tier, lever, P6_LEVERS);
  const rules: PegRules = { pegs: 3, adjacentOnly: T.adjacentOnly };
  const target = rng.int(0, 2);
  const dist = distancesToGoal(T.disks, target, rules);
  // A scattered legal start (every assignment of disks to pegs is one), re-drawn from the same
  // stream until its exact distance to the goal is in the tier's range.
  let start: PegState;
  let moves: number;
  do {
    start = Array.from({ length: T.disks }, () => rng.int(0, 2));
    moves = distanceOf(dist, start, 3);
  } while (moves < T.minMoves || moves > T.maxMoves);
  const dress = (): { scene: P6Scene; camera: CameraSpec } => {
    const yawDeg = T.rotated ? rng.pick([-1, 1]) * rng.int(50, 130) : 0;
    // Drawn last, so the starts, goals and turns of every seed stay what they were before the
    // letters were shuffled.
    const letters = T.shuffledLetters ? rng.shuffle(PEG_NAMES.slice()) : PEG_NAMES.slice();
    const dressed: P6Scene = { start, target, adjacentOnly: T.adjacentOnly, yawDeg, letters };
    return { scene: dressed, camera: firstCamera(dressed, 'version-5') };
  };
  let { scene, camera } = dress();
  // Lever studies only: a turn whose first view (as version 5 chose it) shows a disk too little
  // is drawn again (with the letters) from the same stream. L7 keeps its one draw, and its
  // instances.
  for (let k = 0; lever && k < STUDY_TURN_DRAWS && smallDisk(scene, camera, STUDY_DISK_MIN_PIXELS); k++) ({ scene, camera } = dress());
  // The first camera of the turn kept, chosen so that every disk shows enough (version 6).
  camera = firstCamera(scene);
  const yawDeg = scene.yawDeg;
  const budget = actionBudget(T);
  // The ruler runs along the board's long edge away from the first view (its back, or its front
  // once the board is turned past 90°: `facingSide`), ticks pointing away from the first view,
  // so the letter stands on the near side never cover its labels.
  const side = facingSide(yawDeg);
  const [rx0, rz0] = boardPoint(yawDeg, -0.18, -0.065 * side);
  const [rx1, rz1] = boardPoint(yawDeg, 0.18, -0.065 * side);
  const [tx, tz] = boardPoint(yawDeg, 0, -side);
  return makeInstance(family, tier, seed, {
    ...(lever ? { lever } : {}),
    title: `Peg transfer, ${T.disks} disks${T.adjacentOnly ? ', neighbouring pegs only' : ''}${T.rotated ? ', turned board' : ''}`,
    rules: rulesText(scene, budget, T.shuffledLetters),
    tools: [moveTool(T.adjacentOnly)],
    budgets: { turns: 100, actionsPerTurn: 5, actions: budget, refusals: REFUSALS_ALLOWED },
    camera: {
      initial: camera,
      elevationRange: [0, 90],
    },
    rulers: [{ from: [rx0, 0.0005, rz0], to: [rx1, 0.0005, rz1], tickDir: [tx, 0, tz] }],
    ground: { y: -0.02 },
    dynamic: false,
    scoring: 'graded',
    scene,
    reveal: { plan: planText(scene) },
  });
}
