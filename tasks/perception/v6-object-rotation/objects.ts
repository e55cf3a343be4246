import { qmul, transformPoint, yawQuat } from '../../../sim/math.ts';
import type { Pose, Quat, Vec3 } from '../../../sim/types.ts';
import { Rng } from '../../../core/rng.ts';
import { round9, roundTo } from '../../../core/determinism.ts';

/** One solid part of an object, in the object's frame (turntable top at y = 0, front towards +Z). */
export type ObjectPart =
  | { type: 'box'; half: Vec3; pose: Pose; color: string }
  | { type: 'cylinder'; radius: number; halfHeight: number; pose: Pose; color: string };

/** A furniture-like assembly of boxes and cylinders that stands on the turntable. */
export interface TurntableObject {
  /** Index in the candidate pool (the object's own seed). */
  id: number;
  /** What it is built as, e.g. `chair`, `desk`. */
  kind: ObjectKind;
  parts: ObjectPart[];
  /** Top of the highest part above the turntable, metres. */
  height: number;
  /** Largest horizontal distance of any part from the turntable axis, metres. */
  radius: number;
}

/** The kinds of object the generator builds (stools and bare tables are often symmetric and screened out). */
export const OBJECT_KINDS = [
  'chair',
  'office-chair',
  'table',
  'round-table',
  'desk',
  'bookshelf',
  'floor-lamp',
  'sofa',
  'bed',
  'dresser',
  'stool',
] as const;
/** One of {@link OBJECT_KINDS}. */
export type ObjectKind = (typeof OBJECT_KINDS)[number];

const WOODS = ['#8b5a2b', '#a0522d', '#c19a6b', '#6f4e37', '#deb887', '#5c4033', '#b5835a'];
const FABRICS = ['#2e86ab', '#c0392b', '#27ae60', '#f39c12', '#34495e', '#16a085', '#d35400', '#2c3e50', '#e6b422', '#6c8ebf', '#8e5a3c'];
const METALS = ['#9aa0a6', '#4a4f55', '#2f3337', '#c8ccd0'];
const LIGHTS = ['#f4f1e8', '#f5deb3', '#fdf6e3', '#e8e2d0'];
const ACCENTS = ['#e74c3c', '#f1c40f', '#1abc9c', '#3498db', '#e67e22', '#2ecc71', '#95a5a6', '#ffffff', '#111111'];

function tiltX(deg: number): Quat {
  const a = (deg * Math.PI) / 360;
  return [Math.sin(a), 0, 0, Math.cos(a)];
}

/** Collects parts with short helpers; every number is rounded as it goes in. */
class PartList {
  readonly parts: ObjectPart[] = [];

  /** A box given by its centre and half extents, optionally yawed (degrees, about +Y) and then tilted about its own X axis. */
  box(c: Vec3, half: Vec3, color: string, yawDeg = 0, tiltDeg = 0): void {
    const q = qmul(yawQuat(yawDeg), tiltDeg ? tiltX(tiltDeg) : [0, 0, 0, 1]);
    this.parts.push({ type: 'box', half: half.map((x) => roundTo(x, 6)) as Vec3, pose: { p: c.map((x) => roundTo(x, 6)) as Vec3, q: q.map(round9) as Quat }, color });
  }

  /** An axis-aligned box between two corners. */
  span(lo: Vec3, hi: Vec3, color: string): void {
    this.box([(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2], [(hi[0] - lo[0]) / 2, (hi[1] - lo[1]) / 2, (hi[2] - lo[2]) / 2], color);
  }

  /** An upright cylinder from `y0` to `y1` at (x, z). */
  post(x: number, z: number, y0: number, y1: number, radius: number, color: string): void {
    this.parts.push({
      type: 'cylinder',
      radius: roundTo(radius, 6),
      halfHeight: roundTo((y1 - y0) / 2, 6),
      pose: { p: [roundTo(x, 6), roundTo((y0 + y1) / 2, 6), roundTo(z, 6)], q: [0, 0, 0, 1] },
      color,
    });
  }

  /** A leg from the floor to `top`, round or square. */
  leg(x: number, z: number, top: number, size: number, round: boolean, color: string): void {
    if (round) this.post(x, z, 0, top, size, color);
    else this.span([x - size, 0, z - size], [x + size, top, z + size], color);
  }
}

/** Small things that stand on a surface at height `y` around (x, z): what makes a plain table one-sided. */
function tableItem(out: PartList, rng: Rng, x: number, y: number, z: number): void {
  switch (rng.int(0, 3)) {
    case 0: {
      // A table lamp: round foot, stem, shade.
      const shade = rng.pick(LIGHTS);
      out.post(x, z, y, y + 0.02, 0.07, rng.pick(METALS));
      out.post(x, z, y + 0.02, y + 0.3, 0.01, rng.pick(METALS));
      out.post(x, z, y + 0.22, y + 0.38, rng.range(0.09, 0.12), shade);
      break;
    }
    case 1: {
      // A stack of books.
      let top = y;
      for (let i = 0, n = rng.int(2, 4); i < n; i++) {
        const t = rng.range(0.025, 0.05);
        out.box([x + rng.range(-0.015, 0.015), top + t / 2, z + rng.range(-0.015, 0.015)], [rng.range(0.1, 0.14), t / 2, rng.range(0.07, 0.1)], rng.pick([...FABRICS, ...ACCENTS]), rng.int(-15, 15));
        top += t;
      }
      break;
    }
    case 2:
      // A vase.
      out.post(x, z, y, y + rng.range(0.2, 0.35), rng.range(0.05, 0.08), rng.pick([...FABRICS, ...ACCENTS]));
      break;
    default: {
      // A box-shaped radio or clock.
      const h = rng.range(0.1, 0.18);
      out.box([x, y + h / 2, z], [rng.range(0.1, 0.16), h / 2, rng.range(0.05, 0.08)], rng.pick(ACCENTS), rng.int(-30, 30));
    }
  }
}

/** A bench beside a table: its middle at (x, z), running along a direction yawed `yawDeg` from +X. */
function bench(out: PartList, rng: Rng, x: number, z: number, length: number, yawDeg: number): void {
  const color = rng.pick([...WOODS, ...FABRICS]);
  const a = (yawDeg * Math.PI) / 180;
  const h = rng.range(0.42, 0.47);
  out.box([x, h - 0.025, z], [length / 2, 0.025, rng.range(0.15, 0.2)], color, yawDeg);
  for (const end of [-1, 1]) {
    const d = end * (length / 2 - 0.04);
    out.box([x + d * Math.cos(a), (h - 0.05) / 2, z - d * Math.sin(a)], [0.02, (h - 0.05) / 2, 0.14], color, yawDeg);
  }
}

function chair(out: PartList, rng: Rng): void {
  const w = rng.range(0.42, 0.56);
  const d = rng.range(0.4, 0.52);
  const seatY = rng.range(0.42, 0.48);
  const seatT = rng.range(0.035, 0.06);
  const wood = rng.pick(WOODS);
  const seatColor = rng.next() < 0.5 ? wood : rng.pick(FABRICS);
  const legSize = rng.range(0.018, 0.028);
  const round = rng.next() < 0.5;
  const inset = legSize + 0.01;
  for (const sx of [-1, 1]) for (const sz of [-1, 1]) out.leg(sx * (w / 2 - inset), sz * (d / 2 - inset), seatY - seatT, legSize, round, wood);
  out.span([-w / 2, seatY - seatT, -d / 2], [w / 2, seatY, d / 2], seatColor);
  const backH = rng.range(0.35, 0.5);
  const backColor = rng.next() < 0.6 ? seatColor : rng.pick(FABRICS);
  if (rng.next() < 0.5) {
    // A solid back, leaning back by a few degrees about its bottom edge.
    const tilt = rng.range(4, 14);
    const t = 0.03;
    const a = (tilt * Math.PI) / 180;
    out.box([0, seatY + (backH / 2) * Math.cos(a), -d / 2 + t / 2 - (backH / 2) * Math.sin(a)], [w / 2, backH / 2, t / 2], backColor, 0, -tilt);
  } else {
    // Two back posts, a top rail and upright slats.
    for (const sx of [-1, 1]) out.span([sx * (w / 2 - inset) - legSize, seatY, -d / 2], [sx * (w / 2 - inset) + legSize, seatY + backH, -d / 2 + 2 * legSize], wood);
    out.span([-w / 2 + inset, seatY + backH - 0.07, -d / 2], [w / 2 - inset, seatY + backH, -d / 2 + 0.025], wood);
    const slats = rng.int(2, 4);
    for (let i = 0; i < slats; i++) {
      const x = -w / 2 + inset + ((i + 1) * (w - 2 * inset)) / (slats + 1);
      out.span([x - 0.015, seatY, -d / 2 + 0.005], [x + 0.015, seatY + backH - 0.07, -d / 2 + 0.02], backColor);
    }
  }
  if (rng.next() < 0.45) {
    // Arm rests on front posts.
    const armY = seatY + rng.range(0.18, 0.24);
    for (const sx of [-1, 1]) {
      const x = sx * (w / 2 - 0.02);
      out.span([x - 0.02, seatY, d / 2 - 0.07], [x + 0.02, armY, d / 2 - 0.03], wood);
      out.span([x - 0.03, armY, -d / 2], [x + 0.03, armY + 0.03, d / 2 - 0.02], wood);
    }
  }
  if (rng.next() < 0.35) {
    // A cushion dropped on one side of the seat.
    const sx = rng.pick([-1, 1]);
    out.box([sx * w * 0.18, seatY + 0.04, d * 0.05], [w * 0.2, 0.04, d * 0.2], rng.pick(ACCENTS), rng.int(-25, 25));
  }
}

function officeChair(out: PartList, rng: Rng): void {
  const metal = rng.pick(METALS);
  const fabric = rng.pick(FABRICS);
  const spread = rng.range(0.28, 0.34);
  const turn = rng.int(0, 71);
  // A five-star base, casters at the tips.
  for (let i = 0; i < 5; i++) {
    const yaw = turn + 72 * i;
    const a = (yaw * Math.PI) / 180;
    out.box([(spread / 2) * Math.sin(a), 0.07, (spread / 2) * Math.cos(a)], [0.025, 0.02, spread / 2], metal, yaw);
    out.post(spread * Math.sin(a), spread * Math.cos(a), 0, 0.05, 0.025, '#111111');
  }
  const seatY = rng.range(0.45, 0.52);
  out.post(0, 0, 0.09, seatY - 0.06, 0.03, metal);
  const w = rng.range(0.46, 0.54);
  const d = rng.range(0.44, 0.5);
  out.span([-w / 2, seatY - 0.07, -d / 2], [w / 2, seatY, d / 2], fabric);
  // A back on a curved support bar behind the seat.
  const backH = rng.range(0.4, 0.6);
  out.span([-0.025, seatY - 0.06, -d / 2 - 0.05], [0.025, seatY + 0.1, -d / 2 - 0.01], metal);
  out.box([0, seatY + 0.08 + backH / 2, -d / 2 - 0.05], [w * rng.range(0.4, 0.5), backH / 2, 0.035], rng.next() < 0.7 ? fabric : rng.pick(FABRICS), 0, -rng.range(5, 12));
  if (rng.next() < 0.6) {
    for (const sx of [-1, 1]) {
      const x = sx * (w / 2 + 0.02);
      out.span([x - 0.015, seatY - 0.04, -0.03], [x + 0.015, seatY + 0.2, 0.01], metal);
      out.span([x - 0.035, seatY + 0.2, -d * 0.3], [x + 0.035, seatY + 0.23, d * 0.25], '#2f3337');
    }
  }
  if (rng.next() < 0.5) {
    // A headrest.
    out.box([0, seatY + backH + 0.16, -d / 2 - 0.1], [w * 0.25, 0.06, 0.035], fabric);
  }
}

function table(out: PartList, rng: Rng): void {
  const w = rng.range(0.9, 1.4);
  const d = rng.range(0.55, 0.8);
  const h = rng.range(0.7, 0.76);
  const topT = rng.range(0.03, 0.05);
  const wood = rng.pick(WOODS);
  const legSize = rng.range(0.025, 0.04);
  const round = rng.next() < 0.4;
  const inset = legSize + rng.range(0.02, 0.06);
  for (const sx of [-1, 1]) for (const sz of [-1, 1]) out.leg(sx * (w / 2 - inset), sz * (d / 2 - inset), h - topT, legSize, round, wood);
  out.span([-w / 2, h - topT, -d / 2], [w / 2, h, d / 2], rng.next() < 0.7 ? wood : rng.pick(LIGHTS));
  // Zero to three extras; a table with none is symmetric and is screened out, and so is one
  // whose extras hardly show (a drawer under the top).
  const extras = rng.int(0, 3);
  for (let i = 0; i < extras; i++) {
    switch (rng.int(0, 3)) {
      case 3:
        // A bench along one long side, off to one end.
        bench(out, rng, rng.range(-0.2, 0.2) * w, rng.pick([-1, 1]) * (d / 2 + 0.12), rng.range(0.5, 0.85) * w, 0);
        break;
      case 0: {
        // A drawer under one long side, towards one end.
        const sx = rng.pick([-1, 1]);
        const sz = rng.pick([-1, 1]);
        const dw = rng.range(0.25, 0.4);
        const cx = sx * (w / 2 - inset - dw / 2 - 0.03);
        out.span([cx - dw / 2, h - topT - 0.12, -d / 2 + inset], [cx + dw / 2, h - topT, d / 2 - inset], wood);
        out.span([cx - dw / 2 + 0.02, h - topT - 0.1, sz * (d / 2 - inset) - 0.005], [cx + dw / 2 - 0.02, h - topT - 0.02, sz * (d / 2 - inset) + 0.005], rng.pick(ACCENTS));
        break;
      }
      case 1: {
        // A shelf low between the legs at one end.
        const sx = rng.pick([-1, 1]);
        const y = rng.range(0.12, 0.25);
        out.span([sx > 0 ? 0 : -w / 2 + inset, y, -d / 2 + inset], [sx > 0 ? w / 2 - inset : 0, y + 0.025, d / 2 - inset], wood);
        break;
      }
      default:
        tableItem(out, rng, rng.range(-w / 2 + 0.15, w / 2 - 0.15), h, rng.range(-d / 2 + 0.12, d / 2 - 0.12));
    }
  }
}

function roundTable(out: PartList, rng: Rng): void {
  const radius = rng.range(0.35, 0.55);
  const h = rng.range(0.68, 0.76);
  const wood = rng.pick(WOODS);
  out.post(0, 0, h - 0.04, h, radius, wood);
  out.post(0, 0, 0.04, h - 0.04, rng.range(0.03, 0.06), wood);
  if (rng.next() < 0.5) out.post(0, 0, 0, 0.04, radius * 0.55, wood);
  else {
    const turn = rng.int(0, 17);
    for (let i = 0; i < 4; i++) {
      const yaw = turn * 5 + 90 * i;
      const a = (yaw * Math.PI) / 180;
      out.box([radius * 0.28 * Math.sin(a), 0.025, radius * 0.28 * Math.cos(a)], [0.03, 0.025, radius * 0.28], wood, yaw);
    }
  }
  for (let i = 0, n = rng.int(0, 2); i < n; i++) {
    const a = rng.range(0, 2 * Math.PI);
    const at = rng.range(0.3, 0.7) * radius;
    tableItem(out, rng, at * Math.sin(a), h, at * Math.cos(a));
  }
  if (rng.next() < 0.5) {
    // A bench drawn up to one side.
    const yaw = rng.int(0, 71) * 5;
    const a = (yaw * Math.PI) / 180;
    bench(out, rng, (radius + 0.1) * Math.sin(a), (radius + 0.1) * Math.cos(a), rng.range(0.6, 0.9), yaw);
  }
}

function desk(out: PartList, rng: Rng): void {
  const w = rng.range(1.0, 1.4);
  const d = rng.range(0.55, 0.7);
  const h = rng.range(0.72, 0.76);
  const topT = 0.035;
  const body = rng.pick([...WOODS, ...LIGHTS]);
  const front = rng.pick([...WOODS, ...ACCENTS, ...FABRICS]);
  const side = rng.pick([-1, 1]);
  out.span([-w / 2, h - topT, -d / 2], [w / 2, h, d / 2], body);
  // A pedestal of drawers under one end.
  const pw = rng.range(0.35, 0.45);
  const px0 = side > 0 ? w / 2 - pw - 0.01 : -w / 2 + 0.01;
  out.span([px0, 0, -d / 2 + 0.02], [px0 + pw, h - topT, d / 2 - 0.02], body);
  const drawers = rng.int(2, 4);
  const dh = (h - topT - 0.06) / drawers;
  for (let i = 0; i < drawers; i++) {
    const y0 = 0.04 + i * dh;
    out.span([px0 + 0.02, y0 + 0.01, d / 2 - 0.02], [px0 + pw - 0.02, y0 + dh - 0.01, d / 2 - 0.005], front);
    out.span([px0 + pw / 2 - 0.05, y0 + dh / 2 - 0.008, d / 2 - 0.005], [px0 + pw / 2 + 0.05, y0 + dh / 2 + 0.008, d / 2 + 0.015], rng.pick(METALS));
  }
  // The other end: a panel or two legs; a modesty panel at the back.
  const ox = -side * (w / 2 - 0.03);
  if (rng.next() < 0.5) out.span([ox - 0.02, 0, -d / 2 + 0.02], [ox + 0.02, h - topT, d / 2 - 0.02], body);
  else for (const sz of [-1, 1]) out.leg(ox, sz * (d / 2 - 0.05), h - topT, 0.025, rng.next() < 0.5, rng.pick(METALS));
  if (rng.next() < 0.7) out.span([-w / 2 + 0.05, h * 0.35, -d / 2 + 0.02], [w / 2 - 0.05, h - topT, -d / 2 + 0.04], body);
  if (rng.next() < 0.7) {
    // A monitor towards the back.
    const mx = rng.range(-0.15, 0.15);
    const mw = rng.range(0.22, 0.3);
    out.span([mx - 0.1, h, -d / 2 + 0.08], [mx + 0.1, h + 0.015, -d / 2 + 0.2], '#2f3337');
    out.span([mx - 0.02, h, -d / 2 + 0.1], [mx + 0.02, h + 0.14, -d / 2 + 0.13], '#2f3337');
    out.span([mx - mw, h + 0.12, -d / 2 + 0.13], [mx + mw, h + 0.12 + mw * 1.1, -d / 2 + 0.16], '#111111');
  }
  if (rng.next() < 0.6) tableItem(out, rng, side * (w / 2 - 0.15), h, rng.range(-0.1, d / 2 - 0.12));
}

function bookshelf(out: PartList, rng: Rng): void {
  const w = rng.range(0.6, 1.0);
  const d = rng.range(0.26, 0.36);
  const h = rng.range(1.0, 1.7);
  const t = 0.025;
  const wood = rng.pick([...WOODS, ...LIGHTS]);
  for (const sx of [-1, 1]) out.span([sx > 0 ? w / 2 - t : -w / 2, 0, -d / 2], [sx > 0 ? w / 2 : -w / 2 + t, h, d / 2], wood);
  out.span([-w / 2 + t, h - t, -d / 2], [w / 2 - t, h, d / 2], wood);
  out.span([-w / 2 + t, 0, -d / 2], [w / 2 - t, 0.06, d / 2], wood);
  out.span([-w / 2 + t, 0.06, -d / 2], [w / 2 - t, h - t, -d / 2 + 0.01], rng.next() < 0.5 ? wood : rng.pick(LIGHTS));
  const shelves = Math.max(2, Math.round((h - 0.1) / rng.range(0.3, 0.38)));
  const gap = (h - t - 0.06) / shelves;
  for (let i = 0; i < shelves; i++) {
    const y = 0.06 + i * gap;
    if (i > 0) out.span([-w / 2 + t, y - t, -d / 2 + 0.01], [w / 2 - t, y, d / 2], wood);
    // Books from one end or the other, leaving a gap; sometimes a lying stack.
    if (rng.next() < 0.2) continue;
    const fromLeft = rng.next() < 0.5;
    const fill = rng.range(0.3, 0.8) * (w - 2 * t);
    let x = 0;
    while (x < fill) {
      const bw = rng.range(0.02, 0.045);
      const bh = Math.min(gap - t - 0.02, rng.range(0.18, 0.28));
      const bd = rng.range(0.15, d - 0.05);
      const cx = fromLeft ? -w / 2 + t + x + bw / 2 : w / 2 - t - x - bw / 2;
      out.span([cx - bw / 2, y, -d / 2 + 0.02], [cx + bw / 2, y + bh, -d / 2 + 0.02 + bd], rng.pick([...FABRICS, ...ACCENTS]));
      x += bw + 0.002;
    }
  }
}

function floorLamp(out: PartList, rng: Rng): void {
  const metal = rng.pick(METALS);
  const shade = rng.pick([...LIGHTS, ...FABRICS]);
  const h = rng.range(1.3, 1.7);
  if (rng.next() < 0.5) out.post(0, 0, 0, 0.03, rng.range(0.14, 0.2), metal);
  else out.span([-0.15, 0, -0.15], [0.15, 0.03, 0.15], metal);
  out.post(0, 0, 0.03, h, 0.015, metal);
  // One or two arms reaching out to one side, each with a shade hanging from its end.
  const arms = rng.int(1, 2);
  const base = rng.int(0, 71) * 5;
  for (let i = 0; i < arms; i++) {
    const yaw = base + i * rng.int(60, 140);
    const reach = rng.range(0.3, 0.5);
    const y = h - i * rng.range(0.25, 0.4);
    const a = (yaw * Math.PI) / 180;
    out.box([(reach / 2) * Math.sin(a), y - 0.01, (reach / 2) * Math.cos(a)], [0.012, 0.012, reach / 2], metal, yaw);
    out.post(reach * Math.sin(a), reach * Math.cos(a), y - 0.22, y - 0.02, rng.range(0.1, 0.16), shade);
  }
  if (rng.next() < 0.5) {
    // A small tray table clamped to the pole.
    const yaw = base + 180 + rng.int(-40, 40);
    const a = (yaw * Math.PI) / 180;
    out.box([0.17 * Math.sin(a), 0.62, 0.17 * Math.cos(a)], [0.15, 0.012, 0.12], rng.pick(WOODS), yaw);
  }
}

function sofa(out: PartList, rng: Rng): void {
  const w = rng.range(1.4, 2.0);
  const d = rng.range(0.8, 0.95);
  const fabric = rng.pick(FABRICS);
  const cushion = rng.next() < 0.5 ? fabric : rng.pick([...FABRICS, ...LIGHTS]);
  const armW = rng.range(0.12, 0.2);
  const seatY = rng.range(0.4, 0.46);
  const legs = rng.pick(WOODS);
  for (const sx of [-1, 1]) for (const sz of [-1, 1]) out.leg(sx * (w / 2 - 0.06), sz * (d / 2 - 0.06), 0.08, 0.025, true, legs);
  out.span([-w / 2, 0.08, -d / 2], [w / 2, seatY - 0.1, d / 2], fabric);
  out.span([-w / 2, 0.08, -d / 2], [w / 2, seatY + rng.range(0.35, 0.45), -d / 2 + 0.2], fabric);
  const arms = rng.next() < 0.8 ? [-1, 1] : [rng.pick([-1, 1])];
  const armY = seatY + rng.range(0.12, 0.22);
  for (const sx of arms) out.span([sx > 0 ? w / 2 - armW : -w / 2, 0.08, -d / 2], [sx > 0 ? w / 2 : -w / 2 + armW, armY, d / 2], fabric);
  const n = rng.int(2, 3);
  const inner = w - 2 * armW;
  for (let i = 0; i < n; i++) {
    const x0 = -w / 2 + armW + (i * inner) / n;
    out.span([x0 + 0.01, seatY - 0.1, -d / 2 + 0.2], [x0 + inner / n - 0.01, seatY, d / 2 - 0.02], cushion);
  }
  if (rng.next() < 0.5) {
    // A chaise longue reaching forward at one end.
    const sx = rng.pick([-1, 1]);
    const cw = inner / n;
    const x0 = sx > 0 ? w / 2 - armW - cw : -w / 2 + armW;
    out.span([x0, 0.08, d / 2], [x0 + cw, seatY, d / 2 + rng.range(0.5, 0.7)], cushion);
  }
  for (let i = 0, k = rng.int(1, 2); i < k; i++) {
    const sx = rng.pick([-1, 1]);
    out.box([sx * (w / 2 - armW - 0.2 - i * 0.25), seatY + 0.15, -d / 2 + 0.3], [0.18, 0.16, 0.06], rng.pick(ACCENTS), sx * rng.int(5, 30), -15);
  }
}

function bed(out: PartList, rng: Rng): void {
  const w = rng.range(1.0, 1.7);
  const l = rng.range(1.9, 2.1);
  const frameY = rng.range(0.25, 0.35);
  const wood = rng.pick(WOODS);
  const sheet = rng.pick(LIGHTS);
  const blanket = rng.pick(FABRICS);
  out.span([-w / 2, 0.0, -l / 2], [w / 2, frameY, l / 2], wood);
  out.span([-w / 2 + 0.03, frameY, -l / 2 + 0.05], [w / 2 - 0.03, frameY + 0.2, l / 2 - 0.03], sheet);
  // A tall headboard at the back, maybe a low footboard at the front.
  out.span([-w / 2 - 0.03, 0, -l / 2 - 0.05], [w / 2 + 0.03, frameY + rng.range(0.55, 0.8), -l / 2], wood);
  if (rng.next() < 0.5) out.span([-w / 2 - 0.03, 0, l / 2], [w / 2 + 0.03, frameY + 0.25, l / 2 + 0.04], wood);
  const cover = rng.range(0.5, 0.7);
  out.span([-w / 2 + 0.01, frameY + 0.08, l / 2 - 0.02 - cover * l], [w / 2 - 0.01, frameY + 0.23, l / 2 - 0.01], blanket);
  const pillows = w > 1.3 ? 2 : 1;
  for (let i = 0; i < pillows; i++) {
    const x = pillows === 1 ? 0 : (i - 0.5) * (w / 2);
    out.box([x, frameY + 0.26, -l / 2 + 0.22], [Math.min(0.3, w / 2 - 0.1), 0.07, 0.16], rng.next() < 0.5 ? sheet : rng.pick(ACCENTS), rng.int(-8, 8));
  }
  if (rng.next() < 0.75) {
    // A nightstand with a drawer and something on top, at one side of the head.
    const sx = rng.pick([-1, 1]);
    const nx = sx * (w / 2 + 0.28);
    const nz = -l / 2 + 0.25;
    out.span([nx - 0.22, 0, nz - 0.2], [nx + 0.22, 0.5, nz + 0.2], rng.next() < 0.5 ? wood : rng.pick(LIGHTS));
    out.span([nx - 0.18, 0.3, nz + 0.2], [nx + 0.18, 0.45, nz + 0.215], rng.pick(ACCENTS));
    tableItem(out, rng, nx, 0.5, nz);
  }
}

function dresser(out: PartList, rng: Rng): void {
  const w = rng.range(0.6, 1.3);
  const d = rng.range(0.4, 0.5);
  const h = rng.range(0.7, 1.2);
  const body = rng.pick([...WOODS, ...LIGHTS]);
  const front = rng.next() < 0.5 ? rng.pick(WOODS) : rng.pick([...ACCENTS, ...FABRICS]);
  const legH = rng.range(0.05, 0.15);
  for (const sx of [-1, 1]) for (const sz of [-1, 1]) out.leg(sx * (w / 2 - 0.04), sz * (d / 2 - 0.04), legH, 0.02, rng.next() < 0.5, body);
  out.span([-w / 2, legH, -d / 2], [w / 2, h, d / 2], body);
  const rows = rng.int(2, 5);
  const cols = w > 0.9 && rng.next() < 0.6 ? 2 : 1;
  const rh = (h - legH - 0.06) / rows;
  const cw = (w - 0.06) / cols;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const x0 = -w / 2 + 0.03 + c * cw;
      const y0 = legH + 0.03 + r * rh;
      out.span([x0 + 0.01, y0 + 0.01, d / 2], [x0 + cw - 0.01, y0 + rh - 0.01, d / 2 + 0.012], front);
      out.span([x0 + cw / 2 - 0.04, y0 + rh / 2 - 0.01, d / 2 + 0.012], [x0 + cw / 2 + 0.04, y0 + rh / 2 + 0.01, d / 2 + 0.03], rng.pick(METALS));
    }
  }
  const items = rng.int(1, 2);
  for (let i = 0; i < items; i++) tableItem(out, rng, (i === 0 ? rng.pick([-1, 1]) : rng.range(-0.3, 0.3)) * (w / 2 - 0.15), h, rng.range(-0.08, 0.08));
  if (rng.next() < 0.5) {
    // A mirror on the back edge.
    const mw = rng.range(0.25, w / 2 - 0.05);
    out.span([-mw, h, -d / 2 + 0.01], [mw, h + rng.range(0.4, 0.6), -d / 2 + 0.04], '#c8d6e0');
  }
}

function stool(out: PartList, rng: Rng): void {
  const wood = rng.pick(WOODS);
  const h = rng.range(0.45, 0.75);
  const r = rng.range(0.16, 0.22);
  out.post(0, 0, h - 0.04, h, r, rng.next() < 0.6 ? wood : rng.pick(FABRICS));
  const legs = rng.pick([3, 4]);
  const turn = rng.int(0, 71) * 5;
  for (let i = 0; i < legs; i++) {
    const a = ((turn + (360 / legs) * i) * Math.PI) / 180;
    out.post(r * 0.75 * Math.sin(a), r * 0.75 * Math.cos(a), 0, h - 0.04, 0.02, wood);
  }
  // Now and then a bag hung on the seat: the only thing that breaks the symmetry.
  if (rng.next() < 0.3) {
    const a = rng.range(0, 2 * Math.PI);
    out.box([(r + 0.05) * Math.sin(a), h - 0.2, (r + 0.05) * Math.cos(a)], [0.12, 0.15, 0.05], rng.pick(FABRICS), (a * 180) / Math.PI);
  }
}

const BUILDERS: Record<ObjectKind, (out: PartList, rng: Rng) => void> = {
  chair,
  'office-chair': officeChair,
  table,
  'round-table': roundTable,
  desk,
  bookshelf,
  'floor-lamp': floorLamp,
  sofa,
  bed,
  dresser,
  stool,
};

/** The corners (boxes) or rim points (cylinders) of a part, in the object frame: enough to bound it. */
export function partOutline(p: ObjectPart): Vec3[] {
  const pts: Vec3[] = [];
  if (p.type === 'box') {
    for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const sz of [-1, 1]) pts.push([sx * p.half[0], sy * p.half[1], sz * p.half[2]]);
  } else {
    for (let i = 0; i < 16; i++) {
      const a = (i * Math.PI) / 8;
      for (const sy of [-1, 1]) pts.push([p.radius * Math.cos(a), sy * p.halfHeight, p.radius * Math.sin(a)]);
    }
  }
  return pts.map((v) => transformPoint(p.pose, v));
}

/**
 * Candidate object `id` of the pool: its kind cycles through {@link OBJECT_KINDS} so every kind
 * is equally represented, and everything else comes from the seeded stream `V6/object/<id>`.
 * The object is shifted so the middle of its footprint sits on the turntable axis.
 */
export function buildObject(id: number): TurntableObject {
  const kind = OBJECT_KINDS[id % OBJECT_KINDS.length];
  const rng = new Rng(`V6/object/${id}`);
  const list = new PartList();
  BUILDERS[kind](list, rng);
  const pts = list.parts.flatMap(partOutline);
  const mid = (k: 0 | 2): number => (Math.min(...pts.map((p) => p[k])) + Math.max(...pts.map((p) => p[k]))) / 2;
  const cx = mid(0);
  const cz = mid(2);
  const parts = list.parts.map((p) => ({ ...p, pose: { p: [roundTo(p.pose.p[0] - cx, 6), p.pose.p[1], roundTo(p.pose.p[2] - cz, 6)] as Vec3, q: p.pose.q } }));
  const outline = parts.flatMap(partOutline);
  return {
    id,
    kind,
    parts,
    height: roundTo(Math.max(...outline.map((p) => p[1])), 6),
    radius: roundTo(Math.max(...outline.map((p) => Math.hypot(p[0], p[2]))), 6),
  };
}
