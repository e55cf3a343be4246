/**
 * T6 episode: the pegboard with its pegs and painted letters, the input crank on peg I and the
 * output pointer on peg O (each a body on a revolute joint to the board), the dial under the
 * pointer with its zero line, arrow and red mark, and the tray of loose pin gears; the
 * `place_gear`, `remove_gear` and `turn_input` tools.
 *
 * Gears are real bodies: their pins are ball colliders (`pinGearShapes`), a placed gear turns on a
 * revolute joint to the board (or is fixed to the crank on I, to the pointer on O); placements are
 * swept, so pins that would clash refuse the move. Rapier has no gear joint, so `turn_input`
 * enforces the coupling at every step: the gears whose pins reach each other (`drives`) turn at
 * −z_a / z_b of each other about their own axles through one full turn of the crank, and the
 * pointer's joint angle is recorded; the success test reads that record. Nothing a call returns
 * says where anything went.
 */
import { roundTo } from '../../../core/determinism.ts';
import type { Pose, ShapeSpec, Vec3 } from '../../../sim/types.ts';
import { ViolationError } from '../../../sim/violation.ts';
import type { World } from '../../../sim/world.ts';
import { glyphShapes } from '../../kits/glyphs.ts';
import type { FamilyEnv, Instance } from '../../types.ts';
import { pinGearShapes } from './gear-shapes.ts';
import { BOARD_X, BOARD_Z, CARRY_Y, CLEARANCE, drives, GEAR_Y, MARK_HALF_DEG, peg, PIN_RADIUS, pitchRadius, targetDeg, TRAY_COLUMNS, TRAY_ORIGIN, TRAY_PITCH, TRAY_ROWS, traySlot, TURN_SPEED, type T6Scene } from './scene.ts';

const CRANK = 'crank';
const POINTER = 'pointer';
const DIAL_PARTS = ['dial', 'dial-arrow', 'dial-mark'];
/**
 * Height of a peg's painted letter, m: 2.6 cm, so the smallest letter of the wide L7 board still
 * spans 14 pixels (2 cm letters spanned 11 to 13 there; issue 32, version 2).
 */
const PEG_LETTER_HEIGHT = 0.026;
/** Height of the dial's face above the board, m (over the gears' pins). */
const DIAL_Y = GEAR_Y + 0.012;
/** Radius of the dial, m (inside the smallest output gear's pins). */
const DIAL_R = 0.03;
/** Input and output joint names. */
const AXLE_I = 'axle-I';
const AXLE_O = 'axle-O';
/**
 * A little viscous friction in every free axle (a joint motor towards zero speed with a small
 * damping): without it a frictionless idler rattles freely in the play between pins and can wedge
 * a pin against another along the line of centres. (A motor with zero damping and stiffness locks
 * the joint in Rapier, so the damping must not be zero.)
 */
const AXLE_FRICTION = { velocity: 0, damping: 0.01 };
/** Time the train is left to settle after the crank stops, s. */
const SETTLE_S = 0.3;

/** Name of the gear body in tray slot `k` (1-based in the name). */
export function gearName(k: number): string {
  return `gear-${k + 1}`;
}

/** A rotation about +y by `a` radians. */
function yaw(a: number): Pose['q'] {
  return [0, Math.sin(a / 2), 0, Math.cos(a / 2)];
}

/** The rotation about +y of a pose turned only about +y, radians. */
function yawOf(q: Pose['q']): number {
  return 2 * Math.atan2(q[1], q[3]);
}

/** `x` wrapped into (−period/2, period/2]. */
function wrap(x: number, period: number): number {
  return x - period * Math.round(x / period);
}

/** A gear (or the pointer) the input drives, and its speed per unit of the input's (signed). */
export interface Coupled {
  name: string;
  ratio: number;
}

/** Where a gear on the peg it is placed on meets its neighbour: the yaw that puts its pins between the neighbour's. */
export function meshingYaw(zNew: number, at: [number, number], zOld: number, oldAt: [number, number], oldYaw: number): number {
  // Direction from the old gear to the new one, as an angle about +y (+x toward −z).
  const alpha = Math.atan2(-(at[1] - oldAt[1]), at[0] - oldAt[0]);
  const e = wrap(oldYaw - alpha, (2 * Math.PI) / zOld);
  // Rolling contact: an offset e along the old gear is −e·r_old/r_new along the new one, and a gap (half a pitch) faces the old pin.
  return alpha + Math.PI - (e * zOld) / zNew + Math.PI / zNew;
}

/** Builds the T6 world for `instance` and returns its tools and tests. */
export function build(instance: Instance<T6Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  const id: Pose['q'] = [0, 0, 0, 1];
  const I = peg(s, 'I');
  const O = peg(s, 'O');
  const bx = (BOARD_X[0] + BOARD_X[1]) / 2;
  const bz = (BOARD_Z[0] + BOARD_Z[1]) / 2;
  world.addBody({
    name: 'board',
    kind: 'static',
    pose: { p: [bx, -0.01, bz], q: id },
    shapes: [{ type: 'box', half: [(BOARD_X[1] - BOARD_X[0]) / 2, 0.01, (BOARD_Z[1] - BOARD_Z[0]) / 2] }],
    color: '#d9c9a8',
  });
  const trayX: [number, number] = [TRAY_ORIGIN[0] - TRAY_PITCH / 2, TRAY_ORIGIN[0] + (TRAY_COLUMNS - 0.5) * TRAY_PITCH];
  const trayZ: [number, number] = [TRAY_ORIGIN[1] - TRAY_PITCH / 2, TRAY_ORIGIN[1] + (TRAY_ROWS - 0.5) * TRAY_PITCH];
  world.addBody({
    name: 'tray',
    kind: 'static',
    pose: { p: [(trayX[0] + trayX[1]) / 2, -0.01, (trayZ[0] + trayZ[1]) / 2], q: id },
    shapes: [{ type: 'box', half: [(trayX[1] - trayX[0]) / 2, 0.01, (trayZ[1] - trayZ[0]) / 2] }],
    color: '#7b8a8b',
  });
  // Pegs (drawn only: a gear turns on its joint, not on the peg) and their painted letters, right
  // of each peg and behind it as the first view sees it (in front, a peg near the board's edge had
  // its letter under the distance ruler's labels) — but in front for I and O, whose crank and dial
  // would cover a letter behind them.
  for (const p of s.pegs) {
    const side = p.name === 'I' || p.name === 'O' ? 1 : -1;
    const tall = p.name === 'I' || p.name === 'O' ? GEAR_Y + 0.02 : GEAR_Y + 0.008;
    world.addBody({ name: `peg-${p.name}`, kind: 'static', collides: false, pose: { p: [p.x, tall / 2, p.z], q: id }, shapes: [{ type: 'cylinder', radius: 0.005, halfHeight: tall / 2 }], color: '#34495e' });
    world.addBody({ name: `letter-${p.name}`, kind: 'static', collides: false, pose: { p: [p.x + 0.019, 0.0006, p.z + side * 0.019], q: id }, shapes: glyphShapes(p.name, PEG_LETTER_HEIGHT, 0.001), color: '#1b2631' });
  }
  // The input crank: a hub on I with a handle, held by its joint's motor (a brake when not turning).
  world.addBody({
    name: CRANK,
    kind: 'dynamic',
    pose: { p: [I.x, GEAR_Y + 0.02, I.z], q: id },
    // A heavy hub: the motor turns the crank and the crank the gear fixed to it, and a fixed
    // joint between a light hub and a gear thousands of times its inertia is too soft to drive it.
    shapes: [{ type: 'cylinder', radius: 0.02, halfHeight: 0.004 }],
    visual: [
      { type: 'box', half: [0.02, 0.003, 0.004], pose: { p: [0.02, 0.004, 0], q: id } },
      { type: 'cylinder', radius: 0.005, halfHeight: 0.008, pose: { p: [0.04, 0.01, 0], q: id } },
    ],
    material: { density: 8000, friction: 0, restitution: 0 },
    color: '#27ae60',
  });
  world.addJoint({ name: AXLE_I, type: 'revolute', bodyA: 'board', bodyB: CRANK, anchor: [I.x, GEAR_Y, I.z], axis: [0, 1, 0], contacts: false, motor: { velocity: 0, damping: 1000 } });
  // The output pointer over the dial.
  world.addBody({
    name: POINTER,
    kind: 'dynamic',
    pose: { p: [O.x, DIAL_Y + 0.004, O.z], q: id },
    shapes: [{ type: 'cylinder', radius: 0.006, halfHeight: 0.002 }],
    visual: [{ type: 'box', half: [DIAL_R * 0.45, 0.0015, 0.0022], pose: { p: [DIAL_R * 0.45, 0, 0], q: id } }],
    material: { density: 2000, friction: 0, restitution: 0 },
    color: '#111111',
  });
  world.addJoint({ name: AXLE_O, type: 'revolute', bodyA: 'board', bodyB: POINTER, anchor: [O.x, GEAR_Y, O.z], axis: [0, 1, 0], contacts: false, motor: AXLE_FRICTION });
  // The dial (turned with its zero line under the pointer before each turn), its arrow and the mark.
  const target = targetDeg(s);
  world.addBody({ name: 'dial', kind: 'kinematic', collides: false, pose: { p: [O.x, DIAL_Y, O.z], q: id }, shapes: [{ type: 'cylinder', radius: DIAL_R, halfHeight: 0.0008 }], color: '#fdfefe' });
  world.addBody({ name: 'dial-arrow', kind: 'kinematic', collides: false, pose: { p: [O.x, DIAL_Y, O.z], q: id }, shapes: arrowShapes(target), color: '#1f3a93' });
  world.addBody({ name: 'dial-mark', kind: 'kinematic', collides: false, pose: { p: [O.x, DIAL_Y, O.z], q: id }, shapes: [markShape(target)], color: '#e74c3c' });
  // The loose gears in their tray slots.
  s.tray.forEach((z, k) => {
    const [x, zz] = traySlot(k);
    const g = pinGearShapes(z);
    world.addBody({ name: gearName(k), kind: 'kinematic', pose: { p: [x, GEAR_Y, zz], q: id }, shapes: g.pins, visual: g.visual, material: { density: 1500, friction: 0, restitution: 0 }, color: '#2e86c1' });
  });
  world.meta.onPeg = {} as Record<string, string>;
  world.meta.lastTurnDeg = null;

  const onPeg = (): Record<string, string> => world.meta.onPeg as Record<string, string>;
  const gearOn = (pegName: string): string | null => Object.entries(onPeg()).find(([, p]) => p === pegName)?.[0] ?? null;
  const teethOf = (gear: string): number => s.tray[Number(gear.slice(5)) - 1];
  const refuse = (message: string, bodies: string[] = []): never => {
    throw new ViolationError({ kind: 'rule', bodies, message });
  };

  // The gears the input drives, each with its speed per unit of the input's: a walk from the gear
  // on I over pairs of placed gears whose pins reach each other (`drives`); a loop that would
  // need two speeds for one gear locks the train (null).
  const coupling = (): Coupled[] | null => {
    const placed = Object.entries(onPeg()).map(([g, p]) => ({ g, p: peg(s, p), z: teethOf(g) }));
    const start = placed.find((x) => x.p.name === 'I');
    if (!start) return [];
    const k = new Map<string, number>([[start.g, 1]]);
    const queue = [start];
    while (queue.length) {
      const a = queue.shift() as (typeof placed)[number];
      for (const b of placed) {
        if (b === a || !drives(Math.hypot(a.p.x - b.p.x, a.p.z - b.p.z), a.z, b.z)) continue;
        const kb = (-(k.get(a.g) as number) * a.z) / b.z;
        const known = k.get(b.g);
        if (known === undefined) {
          k.set(b.g, kb);
          queue.push(b);
        } else if (Math.abs(known - kb) > 1e-9) return null;
      }
    }
    const out: Coupled[] = [...k.entries()].map(([name, ratio]) => ({ name, ratio }));
    const onO = placed.find((x) => x.p.name === 'O');
    if (onO && k.has(onO.g)) out.push({ name: POINTER, ratio: k.get(onO.g) as number });
    return out;
  };

  const setDial = (): void => {
    const a = yawOf(world.getPose(POINTER).q);
    for (const b of DIAL_PARTS) world.setPose(b, { p: [O.x, DIAL_Y, O.z], q: yaw(a) });
  };

  return {
    tools: {
      place_gear(args) {
        const teeth = Number(args.teeth);
        const pegName = String(args.peg);
        const p = peg(s, pegName);
        if (gearOn(pegName)) refuse(`Peg ${pegName} already carries a gear; the call was refused.`, [`peg-${pegName}`]);
        const k = s.tray.findIndex((z, i) => z === teeth && !onPeg()[gearName(i)]);
        if (k < 0) refuse('No free gear with that many teeth is in the tray; the call was refused.', ['tray']);
        const gear = gearName(k);
        const at: [number, number] = [p.x, p.z];
        // Turn it so its pins fall between those of the placed gear it comes nearest to meshing with.
        let turn = 0;
        let best = Infinity;
        for (const [other, otherPeg] of Object.entries(onPeg())) {
          const q = peg(s, otherPeg);
          const d = Math.hypot(q.x - p.x, q.z - p.z);
          const zo = teethOf(other);
          const gap = Math.abs(d - pitchRadius(teeth) - pitchRadius(zo));
          if (d < pitchRadius(teeth) + pitchRadius(zo) + 2 * PIN_RADIUS + CLEARANCE && gap < best) {
            best = gap;
            turn = meshingYaw(teeth, at, zo, [q.x, q.z], yawOf(world.getPose(other).q));
          }
        }
        world.meta.lastTurnDeg = null;
        const from = world.getPose(gear).p;
        world.moveSwept(gear, { p: [from[0], CARRY_Y, from[2]], q: yaw(turn) });
        world.moveSwept(gear, { p: [p.x, CARRY_Y, p.z], q: yaw(turn) });
        world.moveSwept(gear, { p: [p.x, GEAR_Y, p.z], q: yaw(turn) });
        world.setKind(gear, 'dynamic');
        const anchor: Vec3 = [p.x, GEAR_Y, p.z];
        if (pegName === 'I') world.addJoint({ name: `mount-${gear}`, type: 'fixed', bodyA: CRANK, bodyB: gear, anchor, contacts: false });
        else if (pegName === 'O') world.addJoint({ name: `mount-${gear}`, type: 'fixed', bodyA: POINTER, bodyB: gear, anchor, contacts: false });
        else world.addJoint({ name: `mount-${gear}`, type: 'revolute', bodyA: 'board', bodyB: gear, anchor, axis: [0, 1, 0], contacts: false, motor: AXLE_FRICTION });
        world.meta.onPeg = { ...onPeg(), [gear]: pegName };
        return `A gear is on peg ${pegName}.`;
      },
      remove_gear(args) {
        const pegName = String(args.peg);
        const gear = gearOn(pegName);
        if (!gear) refuse(`Peg ${pegName} carries no gear; the call was refused.`, [`peg-${pegName}`]);
        const g = gear as string;
        world.removeJoint(`mount-${g}`);
        world.setKind(g, 'kinematic');
        const now = world.getPose(g);
        const [x, z] = traySlot(Number(g.slice(5)) - 1);
        world.meta.lastTurnDeg = null;
        world.moveSwept(g, { p: [now.p[0], CARRY_Y, now.p[2]], q: now.q });
        world.moveSwept(g, { p: [x, CARRY_Y, z], q: now.q });
        world.moveSwept(g, { p: [x, GEAR_Y, z], q: now.q });
        const rest = { ...onPeg() };
        delete rest[g];
        world.meta.onPeg = rest;
        return `The gear from peg ${pegName} is back in the tray.`;
      },
      turn_input() {
        setDial();
        const r = turnInput(world, coupling());
        world.meta.lastTurnDeg = roundTo(r.output, 3);
        return 'The input crank was turned.';
      },
    },
    staticsAfter() {
      return false;
    },
    solved() {
      const last = world.meta.lastTurnDeg;
      return typeof last === 'number' && Math.abs(last - target) <= MARK_HALF_DEG;
    },
    viewParts: () => [
      {
        bodies: [
          { name: 'board', minPixels: 40000 },
          { name: 'tray', minPixels: 20000 },
          { name: CRANK, minPixels: 60 },
          { name: POINTER, minPixels: 30 },
          { name: 'dial', minPixels: 300 },
          { name: 'dial-arrow', minPixels: 40 },
          { name: 'dial-mark', minPixels: 30 },
          ...s.pegs.map((p) => ({ name: `peg-${p.name}`, minPixels: 15 })),
          ...s.pegs.map((p) => ({ name: `letter-${p.name}`, minPixels: 20 })),
          ...s.tray.map((_, k) => ({ name: gearName(k), minPixels: 1500 })),
        ],
        letters: s.pegs.map((p) => ({ body: `letter-${p.name}`, text: p.name, role: 'piece' as const, piece: `peg-${p.name}` })),
      },
    ],
    progress() {
      const last = world.meta.lastTurnDeg;
      if (typeof last !== 'number') return 0;
      return Math.max(0, 0.9 * (1 - Math.abs(last - target) / 360));
    },
    stateText() {
      const last = world.meta.lastTurnDeg;
      return [
        `Pegs: ${s.pegs.map((p) => `${p.name} (${roundTo(p.x, 4)}, ${roundTo(p.z, 4)})`).join(', ')} m (x right, z toward the camera).`,
        `Tray teeth by slot: ${s.tray.join(', ')}. Asked output rotation ${s.target.num}/${s.target.den} turn (${roundTo(target, 2)}°, + counter-clockwise from above).`,
        `On pegs: ${Object.entries(onPeg()).map(([g, p]) => `${teethOf(g)} teeth on ${p}`).join(', ') || 'nothing'}; last turn moved the output ${typeof last === 'number' ? `${last}°` : '—'}.`,
      ].join('\n');
    },
  };
}

/**
 * One turn of the input, with the coupling enforced at every step: the crank turns
 * counter-clockwise at up to {@link TURN_SPEED} (slowing over its last degrees) through 360°, and
 * every gear it drives (and the pointer) is turned about its own axle by its ratio times the
 * crank's angle, as kinematic bodies for the turn (so that round pins that roll through the mesh at
 * the exact ratio never fight the coupling), then handed back to their joints. A locked loop of
 * gears (`coupled` null) does not turn. Returns the degrees the input and the output turned,
 * measured from the joints' positions.
 */
export function turnInput(world: World, coupled: Coupled[] | null): { input: number; output: number; jammed: boolean } {
  const dt = world.timestep;
  if (coupled === null) return { input: 0, output: 0, jammed: true };
  const driven = [{ name: CRANK, ratio: 1 }, ...coupled];
  const start = driven.map((c) => ({ ...c, pose: world.getPose(c.name), kind: world.bodyKind(c.name) }));
  for (const c of start) world.setKind(c.name, 'kinematic');
  let accIn = 0;
  let accOut = 0;
  let lastOut = world.jointPosition(AXLE_O);
  const step = (): void => {
    for (const c of start) {
      const a = yawOf(c.pose.q) + (c.ratio * accIn * Math.PI) / 180;
      world.setPose(c.name, { p: c.pose.p, q: yaw(a) });
    }
    world.advance(dt);
    const b = world.jointPosition(AXLE_O);
    accOut += wrap(b - lastOut, 360);
    lastOut = b;
  };
  while (accIn < 360 - 1e-9) {
    const rest = 360 - accIn;
    const v = Math.max(40, Math.min(TURN_SPEED, rest * 6));
    accIn = Math.min(360, accIn + v * dt);
    step();
  }
  const settle = Math.round(SETTLE_S / dt);
  for (let i = 0; i < settle; i++) step();
  for (const c of start) {
    world.setKind(c.name, c.kind);
    world.setVelocity(c.name, [0, 0, 0], [0, 0, 0]);
  }
  return { input: accIn, output: accOut, jammed: false };
}

/** The dial's arrow: a zero line, an arc from it to the mark the way the output must turn, and a head. */
function arrowShapes(target: number): ShapeSpec[] {
  const shapes: ShapeSpec[] = [{ type: 'box', half: [DIAL_R * 0.5, 0.0009, 0.0008], pose: { p: [DIAL_R * 0.5, 0.0004, 0], q: [0, 0, 0, 1] } }];
  const r = DIAL_R * 0.62;
  const sign = Math.sign(target);
  const sweep = Math.abs(target) - MARK_HALF_DEG - 6;
  const steps = Math.max(2, Math.ceil(sweep / 8));
  for (let k = 0; k < steps; k++) {
    const a = ((sign * (6 + (sweep * (k + 0.5)) / steps)) * Math.PI) / 180;
    const seg = (((sweep / steps) * Math.PI) / 180) * r * 0.55;
    shapes.push({ type: 'box', half: [0.0009, 0.0009, seg], pose: { p: [roundTo(r * Math.cos(a), 9), 0.0004, roundTo(-r * Math.sin(a), 9)], q: yawRounded(a) } });
  }
  // The head: a small triangle at the arc's end pointing along the turn.
  const end = ((sign * (6 + sweep)) * Math.PI) / 180;
  const tip = ((sign * (6 + sweep + 7)) * Math.PI) / 180;
  const pt = (ang: number, rad: number): Vec3 => [roundTo(rad * Math.cos(ang), 9), 0.0004, roundTo(-rad * Math.sin(ang), 9)];
  shapes.push({ type: 'hull', points: [pt(end, r - 0.004), pt(end, r + 0.004), pt(tip, r), pt(end, r - 0.004).map((v, i) => (i === 1 ? 0.0013 : v)) as Vec3] });
  return shapes;
}

/** The red mark: a wedge of the dial MARK_HALF_DEG either side of the asked rotation. */
function markShape(target: number): ShapeSpec {
  const pts: Vec3[] = [];
  for (const k of [-1, -0.5, 0, 0.5, 1]) {
    const a = ((target + k * MARK_HALF_DEG) * Math.PI) / 180;
    pts.push([roundTo(DIAL_R * 0.98 * Math.cos(a), 9), 0.0005, roundTo(-DIAL_R * 0.98 * Math.sin(a), 9)]);
    pts.push([roundTo(DIAL_R * 0.98 * Math.cos(a), 9), 0.0013, roundTo(-DIAL_R * 0.98 * Math.sin(a), 9)]);
  }
  const a = (target * Math.PI) / 180;
  pts.push([roundTo(DIAL_R * 0.3 * Math.cos(a), 9), 0.0005, roundTo(-DIAL_R * 0.3 * Math.sin(a), 9)]);
  pts.push([roundTo(DIAL_R * 0.3 * Math.cos(a), 9), 0.0013, roundTo(-DIAL_R * 0.3 * Math.sin(a), 9)]);
  return { type: 'hull', points: pts };
}

function yawRounded(a: number): Pose['q'] {
  return [0, roundTo(Math.sin(a / 2), 9), 0, roundTo(Math.cos(a / 2), 9)];
}
