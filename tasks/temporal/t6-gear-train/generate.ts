/**
 * T6 generator: a pure function of (family, tier, seed). It draws the asked train (tooth counts
 * with the input's smaller than the output's, pegs laid out by a walk at continuous angles so
 * that consecutive pegs are exactly as far apart as the two gears' pitch radii), then what the
 * tier adds: a route of the other parity for the same pair (the wrong direction), gears that fit
 * the same pegs with another input/output pair (a wrong ratio), and at L7 a second right route
 * while one peg of the first stands off its spot. Spare pegs and gears fill the tier's counts.
 * A draw that fails a filter (`filters.ts`) is drawn again with the next attempt's stream. The
 * text is the same for every seed of a tier but for the action budget.
 */
import { roundTo } from '../../../core/determinism.ts';
import type { Rng } from '../../../core/rng.ts';
import type { RulerSpec } from '../../../sim/types.ts';
import { generateFiltered, redrawRng } from '../../../solvers/redraw.ts';
import { makeInstance } from '../../instance.ts';
import type { FamilyDescriptor, Instance, Tier, ToolSpec } from '../../types.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import { BOARD_X, BOARD_Z, BUDGET_FACTOR, clear, MIN_PEG_GAP, MIN_SEPARATION_DEG, PIN_RADIUS, pitchRadius, T6_LEVERS, TEETH, TIERS, trainRatio, type T6Peg, type T6Scene, type TierSettings } from './scene.ts';
import { tierSettings } from '../../levers.ts';
import { solvingTrains } from './trains.ts';
import { firstCamera } from './view.ts';

/** Letters the tools accept for pegs: I, O and the letters of `t` (the settings of a tier or lever study). */
export function pegNames(t: TierSettings): string[] {
  return ['I', 'O', ...t.pegLetters];
}

function tools(t: TierSettings): ToolSpec[] {
  const pegs = pegNames(t);
  return [
    {
      name: 'place_gear',
      kind: 'physical',
      description: 'Take a free gear with this many teeth from the tray and put it on the named peg (lifted over everything and lowered onto the peg, turned so that its pins fall between the pins of a gear it comes to mesh with). On the input peg I it turns with the crank; on the output peg O, with the pointer. Takes no world time.',
      parameters: {
        type: 'object',
        properties: { teeth: { type: 'integer', minimum: 6, maximum: 60 }, peg: { enum: pegs } },
        required: ['teeth', 'peg'],
        additionalProperties: false,
      },
    },
    {
      name: 'remove_gear',
      kind: 'physical',
      description: 'Lift the gear off the named peg and put it back in its tray slot. Takes no world time.',
      parameters: { type: 'object', properties: { peg: { enum: pegs } }, required: ['peg'], additionalProperties: false },
    },
    {
      name: 'turn_input',
      kind: 'timed',
      description: 'Set the dial on the output so that its zero line is under the pointer, then turn the input crank one full turn counter-clockwise (seen from above); the gears turn as their pins push each other. Takes a little over a second of world time.',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
    },
  ];
}

function rulesText(t: TierSettings, budget: number): string {
  const off = t.offPeg;
  return [
    'A pegboard carries a green input crank on peg I, a black pointer over a white dial on peg O, and other pegs named by the letters painted beside them. Loose pin gears (every pin is a tooth) lie in the tray in front. Gears on two pegs mesh when the pegs are exactly as far apart as the gears\' pitch radii added together; the pitch radius is 2.5 mm per tooth, and the pins sit on the pitch circle. Gears that do not mesh must not touch.',
    'Goal: build a gear train from the input peg to the output peg such that one counter-clockwise turn of the input turns the pointer from the dial\'s zero line onto the red mark, going the way the dial\'s arrow shows and less than one full turn. The episode ends as soon as a turn of the input ends with the pointer there.',
    `Tools: place_gear(teeth, peg) and remove_gear(peg) move gears and take no world time; turn_input() turns the input crank one full turn and takes world time. A move that would make a gear touch another is refused and undone. ${off ? 'The pegs are where the picture shows them, but nothing says every peg stands exactly where a train needs it: what the gears do when the input turns is the test.' : ''}`.trim(),
    'Each picture is a strip of five frames of the same view taken 0.25 s of world time apart, oldest on the left; the last frame shows the world now. Rulers with 1 cm ticks and 10 cm labels run along the board\'s front and left edges. Camera moves are free.',
    `Budget: ${budget} actions in all — every placement, removal and turn counts, refused ones too.`,
  ].join('\n');
}

/** A point on a circle of radius `r` around (x, z) at angle `a` (radians, counter-clockwise from above: +x toward −z). */
function around(x: number, z: number, r: number, a: number): [number, number] {
  return [x + r * Math.cos(a), z - r * Math.sin(a)];
}

/** The intersections of two circles (centre, radius), or none. */
function intersections(a: [number, number], ra: number, b: [number, number], rb: number): [number, number][] {
  const dx = b[0] - a[0];
  const dz = b[1] - a[1];
  const d = Math.hypot(dx, dz);
  if (d > ra + rb || d < Math.abs(ra - rb) || d === 0) return [];
  const along = (ra * ra - rb * rb + d * d) / (2 * d);
  const h = Math.sqrt(Math.max(0, ra * ra - along * along));
  const mx = a[0] + (along * dx) / d;
  const mz = a[1] + (along * dz) / d;
  return [
    [mx - (h * dz) / d, mz + (h * dx) / d],
    [mx + (h * dz) / d, mz - (h * dx) / d],
  ];
}

function round(p: [number, number]): [number, number] {
  return [roundTo(p[0], 4), roundTo(p[1], 4)];
}

/** Whether a gear of `teeth` on a peg at `p` stays on the board (with a small overhang allowed). */
function onBoard(p: [number, number], teeth: number): boolean {
  const r = pitchRadius(teeth) + PIN_RADIUS - 0.02;
  return p[0] - r >= BOARD_X[0] && p[0] + r <= BOARD_X[1] && p[1] - r >= BOARD_Z[0] && p[1] + r <= BOARD_Z[1] && pegInside(p);
}

/** Whether a peg stands clear of the rulers' labels along the front and left edges. */
function pegInside(p: [number, number]): boolean {
  return p[0] >= BOARD_X[0] + PEG_MARGIN[0] && p[0] <= BOARD_X[1] - 0.03 && p[1] >= BOARD_Z[0] + 0.03 && p[1] <= BOARD_Z[1] - PEG_MARGIN[1];
}

/** How far pegs stay from the left and the front edge (where the rulers' labels are), m. */
const PEG_MARGIN: [number, number] = [0.075, 0.07];

/** A route: its pegs' positions and the teeth on each. */
interface Route {
  at: [number, number][];
  teeth: number[];
}

/** Whether the gears of a route stay clear of each other but for consecutive ones, and on the board. */
function routeOk(r: Route): boolean {
  for (let i = 0; i < r.at.length; i++) {
    if (!onBoard(r.at[i], r.teeth[i])) return false;
    for (let j = i + 2; j < r.at.length; j++) {
      const d = Math.hypot(r.at[i][0] - r.at[j][0], r.at[i][1] - r.at[j][1]);
      if (!clear(d, r.teeth[i], r.teeth[j])) return false;
    }
  }
  return true;
}

/** A walk from `from` through middle gears `middle` to the gear `last` on peg `to` (the last middle peg found by intersecting two circles). */
function connect(rng: Rng, from: [number, number], zFrom: number, middle: number[], to: [number, number], zTo: number): Route | null {
  for (let tries = 0; tries < 60; tries++) {
    const at: [number, number][] = [from];
    const teeth = [zFrom];
    let ok = true;
    for (let i = 0; i < middle.length - 1; i++) {
      const prev = at[at.length - 1];
      const a = rng.range(-Math.PI, Math.PI);
      at.push(round(around(prev[0], prev[1], pitchRadius(teeth[teeth.length - 1]) + pitchRadius(middle[i]), a)));
      teeth.push(middle[i]);
    }
    const zl = middle[middle.length - 1];
    const prev = at[at.length - 1];
    const hits = intersections(prev, pitchRadius(teeth[teeth.length - 1]) + pitchRadius(zl), to, pitchRadius(zl) + pitchRadius(zTo));
    if (!hits.length) ok = false;
    if (!ok) continue;
    at.push(round(rng.pick(hits)));
    teeth.push(zl);
    at.push(to);
    teeth.push(zTo);
    const r = { at, teeth };
    if (routeOk(r)) return r;
  }
  return null;
}

/** The main route: a walk from the input peg at angles around +x. */
function mainRoute(rng: Rng, teeth: number[]): Route | null {
  for (let tries = 0; tries < 60; tries++) {
    const at: [number, number][] = [round([rng.range(-0.28, -0.16), rng.range(-0.12, 0.06)])];
    for (let i = 1; i < teeth.length; i++) {
      const prev = at[i - 1];
      at.push(round(around(prev[0], prev[1], pitchRadius(teeth[i - 1]) + pitchRadius(teeth[i]), rng.range(-1.1, 1.1))));
    }
    const r = { at, teeth };
    if (routeOk(r)) return r;
  }
  return null;
}

function farFromAll(p: [number, number], pegs: [number, number][]): boolean {
  return pegs.every((q) => Math.hypot(p[0] - q[0], p[1] - q[1]) >= MIN_PEG_GAP);
}

/** One draw of the generator; `attempt` picks a fresh seeded stream (see solvers/redraw.ts). */
function draw(family: FamilyDescriptor, seed: number, tier: Tier, lever: string | undefined, attempt: number): Instance<T6Scene> {
  const t = tierSettings('T6', TIERS, tier, lever, T6_LEVERS);
  const rng = redrawRng('T6', tier, seed, attempt);
  let scene: T6Scene | null = null;
  for (let tries = 0; tries < 40 && !scene; tries++) scene = drawScene(rng, t);
  // A draw that found no layout fails the `solvable` filter and is drawn again.
  scene ??= { pegs: pegNames(t).map((name, k) => ({ name, x: -0.3 + 0.08 * k, z: 0 })), tray: Array.from({ length: t.trayGears }, () => 12), target: { num: 1, den: 2 }, offPeg: null };
  const ref = solvingTrains(scene).reduce<number>((m, tr) => Math.min(m, tr.teeth.length), 99);
  const budget = Math.ceil(BUDGET_FACTOR * ((ref === 99 ? t.train[1] : ref) + 1));
  const rulers: RulerSpec[] = [
    { from: [BOARD_X[0], 0.0008, BOARD_Z[1] - 0.012], to: [BOARD_X[1], 0.0008, BOARD_Z[1] - 0.012], tickDir: [0, 0, -1], minor: 0.01, major: 0.1 },
    { from: [BOARD_X[0] + 0.012, 0.0008, BOARD_Z[1]], to: [BOARD_X[0] + 0.012, 0.0008, BOARD_Z[0]], tickDir: [1, 0, 0], minor: 0.01, major: 0.1 },
  ];
  const view = firstCamera();
  return makeInstance(family, tier, seed, {
    ...(lever ? { lever } : {}),
    title: 'Gear train',
    rules: rulesText(t, budget),
    tools: tools(t),
    budgets: { turns: 30, actionsPerTurn: 5, actions: budget },
    camera: { initial: view.camera, elevationRange: [5, 90], frameSize: view.frame, strobeLayout: 'row' },
    rulers,
    ground: { y: -0.02 },
    dynamic: true,
    scoring: 'graded',
    scene,
    reveal: {
      plan: 'Count the pins of the tray\'s gears; measure the distances between pegs with the rulers (two gears mesh when the pegs are 2.5 mm × their teeth added apart); read the asked rotation off the dial (the mark\'s angle from the zero line, the way the arrow goes); find a chain of pegs from I to O and gears on them such that consecutive gears mesh, the output turns z_input / z_output of a turn, counter-clockwise with an odd number of gears and clockwise with an even number; place them and turn the input.',
    },
  });
}

/** Adds to `tray` the gears of `teeth` it does not hold yet (a route drawn on other pegs may use the same gears as another). */
function addGears(tray: number[], teeth: number[]): void {
  const spare = [...tray];
  for (const z of teeth) {
    const k = spare.indexOf(z);
    if (k >= 0) spare.splice(k, 1);
    else tray.push(z);
  }
}

/** One attempt at a layout; null when the walk did not fit. */
function drawScene(rng: Rng, t: TierSettings): T6Scene | null {
  const n = rng.int(t.train[0], t.train[1]);
  // The input's gear smaller than the output's: less than one turn of the output.
  const teeth = Array.from({ length: n }, () => rng.pick(TEETH));
  if (teeth[0] >= teeth[n - 1]) return null;
  const main = mainRoute(rng, teeth);
  if (!main) return null;
  const I = main.at[0];
  const O = main.at[n - 1];
  const middle: [number, number][] = main.at.slice(1, n - 1);
  const tray = [...teeth];
  let offPeg: number | null = null;
  if (t.parityDecoy) {
    // The same input and output gears through one more middle gear: the other direction.
    const mids = Array.from({ length: n - 1 }, () => rng.pick(TEETH));
    const r = connect(rng, I, teeth[0], mids, O, teeth[n - 1]);
    if (!r) return null;
    const pts = r.at.slice(1, -1);
    if (!pts.every((p) => farFromAll(p, [I, O, ...middle]))) return null;
    middle.push(...pts);
    addGears(tray, mids);
  }
  if (t.offPeg) {
    // A second right route (as long, through other pegs and middle gears), and one peg of the first pushed off its spot.
    const mids = Array.from({ length: n - 2 }, () => rng.pick(TEETH));
    const r = connect(rng, I, teeth[0], mids, O, teeth[n - 1]);
    if (!r) return null;
    const pts = r.at.slice(1, -1);
    if (!pts.every((p) => farFromAll(p, [I, O, ...middle]))) return null;
    offPeg = rng.int(0, n - 3);
    const p = middle[offPeg];
    const prev = main.at[offPeg];
    const d = Math.hypot(p[0] - prev[0], p[1] - prev[1]);
    const push = 2 * PIN_RADIUS + rng.range(0.003, 0.0045);
    middle[offPeg] = round([p[0] + ((p[0] - prev[0]) / d) * push, p[1] + ((p[1] - prev[1]) / d) * push]);
    middle.push(...pts);
    addGears(tray, mids);
  }
  if (t.ratioDecoy) {
    // The same pegs with every gear shifted by ±δ in turn: the same distances, another ratio.
    // The shift is picked so that the wrong ratio ends well off the mark.
    const want = (360 * teeth[0]) / teeth[n - 1];
    const shifted = rng
      .shuffle([-6, -4, -2, 2, 4, 6])
      .map((delta) => teeth.map((z, i) => z + (i % 2 === 0 ? delta : -delta)))
      .find((sh) => sh.every((z) => TEETH.includes(z)) && Math.abs((360 * sh[0]) / sh[n - 1] - want) >= MIN_SEPARATION_DEG + 10);
    if (!shifted) return null;
    addGears(tray, shifted);
  }
  if (tray.length > t.trayGears) return null;
  while (tray.length < t.trayGears) tray.push(rng.pick(TEETH));
  const letters = t.pegLetters.split('');
  if (middle.length > letters.length) return null;
  // Spare pegs at random spots, apart from the others.
  for (let tries = 0; middle.length < letters.length && tries < 200; tries++) {
    const p = round([rng.range(BOARD_X[0] + PEG_MARGIN[0], BOARD_X[1] - 0.04), rng.range(BOARD_Z[0] + 0.04, BOARD_Z[1] - PEG_MARGIN[1])]);
    if (farFromAll(p, [I, O, ...middle])) middle.push(p);
  }
  if (middle.length < letters.length) return null;
  const names = rng.shuffle(letters);
  const pegs: T6Peg[] = [
    { name: 'I', x: I[0], z: I[1] },
    { name: 'O', x: O[0], z: O[1] },
    ...middle.map((p, k) => ({ name: names[k], x: p[0], z: p[1] })),
  ];
  pegs.sort((a, b) => (a.name === 'I' ? -1 : b.name === 'I' ? 1 : a.name === 'O' ? -1 : b.name === 'O' ? 1 : a.name.localeCompare(b.name)));
  return { pegs, tray: rng.shuffle(tray), target: trainRatio(teeth), offPeg: offPeg === null ? null : names[offPeg] };
}

/**
 * The instance of (seed, tier, lever): drawn until every shortcut filter passes. A lever study
 * (`T6-L5+change-s100`) draws from the L5 stream with the lever's settings.
 */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<T6Scene> {
  return generateFiltered((attempt) => draw(family, seed, tier, lever, attempt), SHORTCUT_FILTERS);
}
