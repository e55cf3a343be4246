/**
 * P3 generator: a pure function of (seed, tier). It draws a walled room (with a raised platform
 * and its ramp at L5+), marks cells, maps every position that can still be finished by
 * breadth-first search over pulls from the finished room, and starts at a position whose exact
 * push distance lies in the tier's band (re-drawing the room when none does). The forward solver
 * then proves the optimum in pushes and steps and counts the optimal step sequences; a room it
 * cannot solve, or whose optimum's step count is outside the tier's `steps`, is never released.
 */
import { Rng } from '../../../core/rng.ts';
import type { RulerSpec } from '../../../sim/types.ts';
import { generateFiltered, memoisedDraw, redrawRng } from '../../../solvers/redraw.ts';
import { sameSeedL7Study } from '../../levers.ts';
import { makeInstance } from '../../instance.ts';
import { DIRECTION_STEP, TRAY_DIRECTIONS } from '../../kits/grid-tray.ts';
import type { FamilyDescriptor, Instance, LeverInfo, Tier, ToolSpec } from '../../types.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import { crateDistances, parseLevel, walks } from './level.ts';
import { actionBudget, CELL, PLATFORM_HEIGHT, TALL_WALL_HEIGHT, TIER_SPEC, WALL_HEIGHT, type P3Scene } from './scene.ts';
import { firstCamera } from './sight.ts';
import { pullDistances, solveScene, type P3State } from './solver.ts';



interface Room {
  cols: number;
  rows: number;
  /** 'wall' | 'ground' | 'platform' | ramp rise code per cell. */
  cells: string[];
}

const RISE_CODE = ['n', 'e', 's', 'w'];

function connected(room: Room, heights: string[] | null): boolean {
  const map = toRows(room, (i) => (room.cells[i] === '#' ? '#' : ' '));
  // A throwaway pusher and crate make the map parseable; only the passages matter here.
  const free = room.cells.map((c, i) => (c === '#' ? -1 : i)).filter((i) => i >= 0);
  const probe = map.map((r) => r.split(''));
  const put = (i: number, ch: string): void => {
    probe[Math.floor(i / room.cols)][i % room.cols] = ch;
  };
  put(free[0], '@');
  put(free[1], '*');
  const level = parseLevel({ cols: room.cols, rows: room.rows, map: probe.map((r) => r.join('')), heights });
  const w = walks(level, free[0], () => false);
  return free.every((i) => w.dist[i] >= 0);
}

function toRows(room: Pick<Room, 'cols' | 'rows'>, ch: (i: number) => string): string[] {
  const out: string[] = [];
  for (let r = 0; r < room.rows; r++) {
    let s = '';
    for (let c = 0; c < room.cols; c++) s += ch(c + r * room.cols);
    out.push(s);
  }
  return out;
}

function heightsOf(room: Room): string[] | null {
  if (!room.cells.some((c) => c !== '#' && c !== '0')) return null;
  return toRows(room, (i) => (room.cells[i] === '#' ? '0' : room.cells[i]));
}

/** A random room of the tier's size: border walls, the platform and its ramp (L5+), random wall cells, everything connected. */
function drawRoom(rng: Rng, tier: Tier): Room | null {
  const spec = TIER_SPEC[tier];
  const cols = spec.w + 2;
  const rows = spec.h + 2;
  const cells: string[] = [];
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) cells.push(r === 0 || c === 0 || r === rows - 1 || c === cols - 1 ? '#' : '0');
  const room: Room = { cols, rows, cells };
  const idx = (c: number, r: number): number => c + r * cols;
  const inside = (c: number, r: number): boolean => c >= 1 && r >= 1 && c <= spec.w && r <= spec.h;
  const reserved = new Set<number>();
  if (spec.platform) {
    const [pw, ph] = rng.pick([[2, 2], [3, 2], [2, 3]] as Array<[number, number]>);
    const pc = rng.int(1, spec.w - pw + 1);
    const pr = rng.int(1, spec.h - ph + 1);
    for (let r = pr; r < pr + ph; r++) for (let c = pc; c < pc + pw; c++) cells[idx(c, r)] = '1';
    // The ramp: a cell beside the platform with a ground cell beyond it, rising toward the platform.
    const options: Array<{ ramp: number; low: number; rise: number }> = [];
    for (let r = pr; r < pr + ph; r++) {
      for (let c = pc; c < pc + pw; c++) {
        TRAY_DIRECTIONS.forEach((dir, d) => {
          const [dc, dr] = DIRECTION_STEP[dir];
          const rc = c + dc;
          const rr = r + dr;
          const lc = rc + dc;
          const lr = rr + dr;
          if (!inside(rc, rr) || !inside(lc, lr) || cells[idx(rc, rr)] !== '0' || cells[idx(lc, lr)] !== '0') return;
          options.push({ ramp: idx(rc, rr), low: idx(lc, lr), rise: (d + 2) % 4 });
        });
      }
    }
    if (!options.length) return null;
    const ramp = rng.pick(options);
    cells[ramp.ramp] = RISE_CODE[ramp.rise];
    reserved.add(ramp.ramp).add(ramp.low);
  }
  const wallCount = rng.int(spec.walls[0], spec.walls[1]);
  let placed = 0;
  for (let tries = 0; placed < wallCount && tries < 60; tries++) {
    const c = rng.int(1, spec.w);
    const r = rng.int(1, spec.h);
    const i = idx(c, r);
    if (cells[i] !== '0' || reserved.has(i)) continue;
    cells[i] = '#';
    if (!connected(room, heightsOf(room))) {
      cells[i] = '0';
      continue;
    }
    placed++;
  }
  return room;
}

function mapOf(room: Room, goals: Set<number>, crates: Set<number>, pusher: number): string[] {
  return toRows(room, (i) => {
    if (room.cells[i] === '#') return '#';
    const g = goals.has(i);
    if (crates.has(i)) return g ? '*' : '$';
    if (i === pusher) return g ? '+' : '@';
    return g ? '.' : ' ';
  });
}

/** The drawn room and start, with the proven optimum. */
export interface P3Draw {
  scene: P3Scene;
  /** Exact push distance of the start (from the pull search; equals the forward optimum). */
  pushes: number;
}

/**
 * Re-draws rooms (deterministically) until one has a start in the tier's push band whose
 * optimum's step count lies in the tier's `steps`. A pure function of (seed, tier, attempt);
 * results are kept for the process (`memo: false` recomputes, as the determinism test does).
 */
export const drawScene: (seed: number, tier: Tier, attempt?: number, opts?: { memo?: boolean }) => P3Draw = memoisedDraw((seed, tier, attempt) => drawSceneUncached(seed, tier as Tier, attempt));

function drawSceneUncached(seed: number, tier: Tier, attempt: number): P3Draw {
  const spec = TIER_SPEC[tier];
  if (spec.tall) {
    // L7 is the L5 room of the same seed with tall walls and a low first view.
    const base = drawScene(seed, 'L5', attempt);
    return { ...base, scene: { ...base.scene, wallHeight: TALL_WALL_HEIGHT } };
  }
  for (let draw = 0; draw < 400; draw++) {
    const rng = redrawRng('P3', tier, seed, attempt * 1000 + draw);
    const room = drawRoom(rng, tier);
    if (!room) continue;
    const heights = heightsOf(room);
    const open = room.cells.map((c, i) => (c === '0' || c === '1' ? i : -1)).filter((i) => i >= 0);
    const goals = new Set(rng.shuffle(open).slice(0, spec.crates));
    if (goals.size < spec.crates) continue;
    const onPlatform = (cs: Iterable<number>): number => [...cs].filter((i) => room.cells[i] === '1').length;
    // A parseable map of the finished room, for the pull search.
    const someFree = open.find((i) => !goals.has(i));
    if (someFree === undefined) continue;
    const finished = parseLevel({ cols: room.cols, rows: room.rows, map: mapOf(room, goals, goals, someFree), heights });
    const lone = crateDistances(finished);
    let table: Map<string, number>;
    try {
      table = pullDistances(finished, { maxStates: 400_000 });
    } catch {
      continue;
    }
    const candidates: Array<{ crates: number[]; region: number; d: number }> = [];
    for (const [key, d] of table) {
      if (d < spec.band[0] || d > spec.band[1]) continue;
      const [cs, p] = key.split('|');
      const crates = cs.split(',').map(Number);
      if (crates.some((c) => goals.has(c) || (room.cells[c] !== '0' && room.cells[c] !== '1') || lone[c] < 0)) continue;
      // At L5+ some crate must change level: the platform holds a different number of crates at the start and at the end.
      if (spec.platform && onPlatform(crates) === onPlatform(goals)) continue;
      candidates.push({ crates, region: Number(p), d });
    }
    if (!candidates.length) continue;
    const pick = rng.pick(candidates);
    // The pusher anywhere in its region, off the ramp.
    const w = walks(finished, pick.region, new Set(pick.crates));
    const spots = open.filter((i) => w.dist[i] >= 0 && !pick.crates.includes(i));
    if (!spots.length) continue;
    const pusher = rng.pick(spots);
    const start: P3State = { crates: pick.crates, pusher };
    const scene: P3Scene = {
      cols: room.cols,
      rows: room.rows,
      cell: CELL,
      map: mapOf(room, goals, new Set(start.crates), start.pusher),
      heights,
      platformHeight: PLATFORM_HEIGHT,
      wallHeight: WALL_HEIGHT,
      optimum: { pushes: 0, moves: 0, solutions: 0 },
    };
    const proof = solveScene(scene);
    if (!proof.solvable || proof.pushes !== pick.d) throw new Error(`P3 ${tier} seed ${seed}: the forward search (${proof.pushes} pushes) disagrees with the pull search (${pick.d})`);
    // A start whose optimum walks more steps than the tier allows is re-drawn (version 6): the
    // cap fixes the tier's budget, which no longer follows the seed (issue 36); so is one that
    // walks fewer than its floor, where the budget would leave a blind walker too many tries.
    if (proof.moves < spec.steps[0] || proof.moves > spec.steps[1]) continue;
    scene.optimum = { pushes: proof.pushes, moves: proof.moves, solutions: proof.solutions };
    return { scene, pushes: pick.d };
  }
  throw new Error(`P3 ${tier} seed ${seed}: no room with a start in the push band after 400 draws`);
}

const MOVE_TOOL: ToolSpec = {
  name: 'move',
  kind: 'discrete',
  description:
    'Walk the pusher one cell north, east, south or west (the letter N beside the room marks north). A crate in that cell is pushed one cell further the same way.',
  parameters: {
    type: 'object',
    properties: { direction: { enum: [...TRAY_DIRECTIONS] } },
    required: ['direction'],
    additionalProperties: false,
  },
};

function rulesText(s: P3Scene, budget: number): string {
  const crates = s.map.join('').split('').filter((c) => c === '$' || c === '*').length;
  const lines = [
    `A walled room of square cells, each ${(s.cell * 100).toFixed(0)} cm wide, holds ${crates === 1 ? 'one wooden crate' : `${crates} wooden crates`} and a blue pusher (an upright cylinder). ${crates === 1 ? 'One cell is' : `${crates} cells are`} marked green.`,
  ];
  if (s.heights) {
    lines.push(
      `Part of the room is a raised platform ${(s.platformHeight * 100).toFixed(0)} cm high, reached only by its ramp: the pusher and the crates go up or down the ramp only along its slope. Dark rails run along the platform's drops and along the ramp's sides; nothing crosses a rail.`,
    );
  }
  if (s.wallHeight > WALL_HEIGHT) lines.push('The walls are tall: from some viewpoints they hide parts of the room.');
  lines.push(
    `Goal: push ${crates === 1 ? 'the crate onto the green cell' : 'every crate onto a green cell (any crate on any green cell)'}.`,
    'move(direction) walks the pusher one cell north, east, south or west; the letter N drawn beside the room marks north. If a crate stands in that cell, the pusher pushes it one cell further in the same direction. It pushes one crate at a time and can never pull. A move into a wall or a rail, or one that would push a crate into a wall, a rail or another crate, is stopped and rolled back, and the rest of that turn is not run.',
    `Each move is one action. Budget: at most ${budget} moves in the whole episode; every move counts, also one that is refused and rolled back; looking around with the camera is free. The episode ends when every crate is on a green cell, or when the budget is spent.`,
  );
  return lines.join('\n');
}

function planText(s: P3Scene): string {
  const r = solveScene(s);
  return `A solution with the fewest pushes (${r.pushes}) and then the fewest moves (${r.moves}): ${r.steps.map((d) => TRAY_DIRECTIONS[d]).join(', ')}.`;
}

/** A ruler on the floor along the room's edge nearest the first camera. */
function nearEdgeRuler(s: P3Scene, azimuth: number): RulerSpec {
  const w = (s.cols * s.cell) / 2;
  const d = (s.rows * s.cell) / 2;
  const out = 0.02;
  const y = 0.0005;
  if (azimuth === 180) return { from: [w, y, -d - out], to: [-w, y, -d - out], tickDir: [0, 0, -1], major: 0.05 };
  if (azimuth === 90) return { from: [w + out, y, d], to: [w + out, y, -d], tickDir: [1, 0, 0], major: 0.05 };
  if (azimuth === 270) return { from: [-w - out, y, -d], to: [-w - out, y, d], tickDir: [-1, 0, 0], major: 0.05 };
  return { from: [-w, y, d + out], to: [w, y, d + out], tickDir: [0, 0, 1], major: 0.05 };
}

/** One draw (an attempt of the shortcut filters' re-draw loop). */
function draw(family: FamilyDescriptor, seed: number, tier: Tier, attempt: number): Instance<P3Scene> {
  const { scene } = drawScene(seed, tier, attempt);
  const budget = actionBudget(tier);
  const cam = firstCamera(scene);
  return makeInstance(family, tier, seed, {
    title: 'Crate pushing',
    rules: rulesText(scene, budget),
    tools: [MOVE_TOOL],
    budgets: { turns: 100, actionsPerTurn: 5, actions: budget },
    camera: { initial: cam, elevationRange: [10, 90] },
    rulers: [nearEdgeRuler(scene, cam.azimuth)],
    ground: { y: -0.0101 },
    dynamic: false,
    scoring: 'graded',
    scene,
    reveal: { plan: planText(scene) },
  });
}

/**
 * The lever P3 supports as a single-factor study over L5 (`P3-L5…`): its L7's, which is by
 * construction the same seed's L5 world with that lever on.
 */
export const P3_LEVERS: Readonly<Record<string, LeverInfo>> = { '+occ': { description: 'The L5 room of the same seed with 10 cm walls and a low first view (36°) from the first side where the walls hide a crate or a green cell wholly and the rest stays in sight.' } };

/**
 * The instance of (seed, tier), or of L5 with its lever: the study is L7's world of the same seed
 * under the study's id (tasks/levers.ts {@link sameSeedL7Study}).
 */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<P3Scene> {
  return sameSeedL7Study(family.id, P3_LEVERS, (s, t) => generateTier(family, s, t), seed, tier, lever);
}

/** The instance of (seed, tier). */
function generateTier(family: FamilyDescriptor, seed: number, tier: Tier): Instance<P3Scene> {
  return generateFiltered((attempt) => draw(family, seed, tier, attempt), SHORTCUT_FILTERS);
}
