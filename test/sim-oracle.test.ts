import { expect } from 'chai';
import type { Pose, ShapeSpec, Vec3 } from '../sim/types.ts';
import { bodyDistance, firstContact, pieces, rotate } from './support/convex-oracle.ts';

/** A small deterministic generator (mulberry32) so the oracle tests share nothing with the product. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomQuat(rand: () => number): Pose['q'] {
  const [u1, u2, u3] = [rand(), rand(), rand()];
  const a = Math.sqrt(1 - u1);
  const b = Math.sqrt(u1);
  return [a * Math.sin(2 * Math.PI * u2), a * Math.cos(2 * Math.PI * u2), b * Math.sin(2 * Math.PI * u3), b * Math.cos(2 * Math.PI * u3)];
}

const I: Pose['q'] = [0, 0, 0, 1];
const at = (p: Vec3, q: Pose['q'] = I): Pose => ({ p, q });
const ball = (r: number): ShapeSpec[] => [{ type: 'ball', radius: r }];

/** A point's signed distance to a box (closed form in the box frame). */
function pointBox(p: Vec3, half: Vec3, pose: Pose): number {
  const d: Vec3 = [p[0] - pose.p[0], p[1] - pose.p[1], p[2] - pose.p[2]];
  const l = rotate([-pose.q[0], -pose.q[1], -pose.q[2], pose.q[3]], d);
  const q = l.map((x, i) => Math.abs(x) - half[i]);
  const outside = Math.hypot(Math.max(q[0], 0), Math.max(q[1], 0), Math.max(q[2], 0));
  return outside + Math.min(Math.max(q[0], q[1], q[2]), 0);
}

/** A point's signed distance to a Y-axis cylinder (closed form in its frame). */
function pointCylinder(p: Vec3, radius: number, halfHeight: number, pose: Pose): number {
  const d: Vec3 = [p[0] - pose.p[0], p[1] - pose.p[1], p[2] - pose.p[2]];
  const l = rotate([-pose.q[0], -pose.q[1], -pose.q[2], pose.q[3]], d);
  const rho = Math.hypot(l[0], l[2]) - radius;
  const y = Math.abs(l[1]) - halfHeight;
  return Math.hypot(Math.max(rho, 0), Math.max(y, 0)) + Math.min(Math.max(rho, y), 0);
}

describe('sim: the independent distance oracle agrees with closed forms', () => {
  const rand = prng(20261201);

  it('ball–box, ball–hull (of the same box) and ball–cylinder, separated and overlapping', () => {
    for (let i = 0; i < 400; i++) {
      const half: Vec3 = [0.005 + 0.05 * rand(), 0.005 + 0.05 * rand(), 0.005 + 0.05 * rand()];
      const pose = at([rand() - 0.5, rand() - 0.5, rand() - 0.5], randomQuat(rand));
      const r = 0.002 + 0.03 * rand();
      const c: Vec3 = [pose.p[0] + (rand() - 0.5) * 0.2, pose.p[1] + (rand() - 0.5) * 0.2, pose.p[2] + (rand() - 0.5) * 0.2];
      const exact = pointBox(c, half, pose) - r;
      const b = pieces(ball(r), at(c));
      expect(bodyDistance(b, pieces([{ type: 'box', half }], pose))).to.be.closeTo(exact, 1e-9);
      const corners: Vec3[] = [];
      for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const sz of [-1, 1]) corners.push([sx * half[0], sy * half[1], sz * half[2]]);
      expect(bodyDistance(b, pieces([{ type: 'hull', points: corners }], pose))).to.be.closeTo(exact, 1e-9);
      const cr = 0.005 + 0.05 * rand();
      const ch = 0.005 + 0.05 * rand();
      const cyl = pointCylinder(c, cr, ch, pose) - r;
      // Separated (or the ball's centre outside the cylinder): exact; a centre inside: searched.
      const tolerance = pointCylinder(c, cr, ch, pose) > 0 ? 1e-9 : 1e-5;
      expect(bodyDistance(b, pieces([{ type: 'cylinder', radius: cr, halfHeight: ch }], pose)), `cylinder ${i}`).to.be.closeTo(cyl, tolerance);
    }
  });

  it('box–box aligned (gaps per axis, depth the smallest overlap) and parallel cylinders side by side', () => {
    for (let i = 0; i < 300; i++) {
      const ha: Vec3 = [0.01 + 0.05 * rand(), 0.01 + 0.05 * rand(), 0.01 + 0.05 * rand()];
      const hb: Vec3 = [0.01 + 0.05 * rand(), 0.01 + 0.05 * rand(), 0.01 + 0.05 * rand()];
      const c: Vec3 = [(rand() - 0.5) * 0.3, (rand() - 0.5) * 0.3, (rand() - 0.5) * 0.3];
      const gaps = c.map((x, k) => Math.abs(x) - ha[k] - hb[k]);
      const exact = gaps.every((g) => g < 0) ? Math.max(...gaps) : Math.hypot(...gaps.map((g) => Math.max(g, 0)));
      expect(bodyDistance(pieces([{ type: 'box', half: ha }], at([0, 0, 0])), pieces([{ type: 'box', half: hb }], at(c)))).to.be.closeTo(exact, 1e-9);
      const [r1, r2] = [0.005 + 0.03 * rand(), 0.005 + 0.03 * rand()];
      const sep = (rand() - 0.2) * 0.1;
      const dir = rand() * 2 * Math.PI;
      const centre: Vec3 = [Math.cos(dir) * (r1 + r2 + sep), 0.01 * rand(), Math.sin(dir) * (r1 + r2 + sep)];
      const got = bodyDistance(pieces([{ type: 'cylinder', radius: r1, halfHeight: 0.05 }], at([0, 0, 0])), pieces([{ type: 'cylinder', radius: r2, halfHeight: 0.05 }], at(centre)));
      // Overlapping side by side, the depth is the radial overlap (the axial one is larger here).
      expect(got, `cylinders ${i}`).to.be.closeTo(Math.hypot(centre[0], centre[2]) - r1 - r2, 1e-7);
    }
  });

  it('a triangle of a mesh against a ball, and the first contact of a straight move', () => {
    const mesh: ShapeSpec[] = [{ type: 'mesh', vertices: [[0, 0, 0], [1, 0, 0], [0, 0, 1]], indices: [[0, 1, 2]] }];
    expect(bodyDistance(pieces(ball(0.1), at([0.2, 0.5, 0.2])), pieces(mesh, at([0, 0, 0])))).to.be.closeTo(0.4, 1e-12);
    expect(bodyDistance(pieces(ball(0.1), at([-0.3, 0, -0.4])), pieces(mesh, at([0, 0, 0])))).to.be.closeTo(0.4, 1e-12);
    // A 0.1 m cube moving 1 m along +x towards a wall face at x = 0.5 touches after 0.45 m.
    const wall = pieces([{ type: 'box', half: [0.05, 1, 1] }], at([0.55, 0, 0]));
    const hit = firstContact([{ type: 'box', half: [0.05, 0.05, 0.05] }], at([0, 0, 0]), at([1, 0, 0]), wall);
    expect(hit.s).to.be.closeTo(0.45, 1e-6);
    // Turning in place 90° about y, a 0.8 m bar's end (0.4 m out, 0.02 m half-width) meets a face
    // 0.299 m away where 0.4 sin φ + 0.02 cos φ = 0.299.
    const face = pieces([{ type: 'box', half: [0.05, 1, 1] }], at([0.349, 0, 0]));
    const q90: Pose['q'] = [0, Math.SQRT1_2, 0, Math.SQRT1_2];
    const turn = firstContact([{ type: 'box', half: [0.02, 0.02, 0.4] }], at([0, 0, 0]), at([0, 0, 0], q90), face);
    let lo = 0;
    let hi = Math.PI / 2;
    for (let k = 0; k < 100; k++) [lo, hi] = 0.4 * Math.sin((lo + hi) / 2) + 0.02 * Math.cos((lo + hi) / 2) < 0.299 ? [(lo + hi) / 2, hi] : [lo, (lo + hi) / 2];
    expect(turn.s! * (Math.PI / 2)).to.be.closeTo(lo, 1e-6);
  });
});
