/**
 * Property-based check of the world's swept motion and free/overlap verdicts against the
 * independent oracle in `convex-oracle.ts`.
 *
 * Each case puts one static obstacle (box, ball, cylinder, capsule, convex hull, compound or closed
 * triangle mesh, random size 3–60 mm per piece, random orientation) at the origin and sweeps one
 * kinematic body (box, ball, cylinder, capsule, hull or compound) along a random 6-DoF path:
 *
 * - **core**: aimed through the obstacle's centre, turning up to 180°;
 * - **offset**: the same path shifted sideways by up to the sum of the bounding radii (glancing
 *   hits and near misses);
 * - **graze**: a path shifted sideways until the oracle says it just touches (bisection), then
 *   by a random amount within ±3 contact tolerances;
 * - **overlap**: a path starting inside the obstacle (the start-in-overlap contract).
 *
 * Judged per sweep (tolerance `tol` = the world's contact tolerance, 0.1 mm; `slack` = 2 µm of
 * travel for the f32 query space):
 * - **tunnel**: the oracle finds a contact at path parameter `s*` but the world reports the path
 *   free, or stops later than `s*` by more than `tol` of travel;
 * - **late**: the world stops after `s*` by more than `slack` (but within `tol`);
 * - **inside**: the reported last free pose overlaps the obstacle by the oracle;
 * - **earlyStop**: at the reported stop the oracle distance exceeds `tol + slack`;
 * - **distance / contact**: `World.distance` at the last free pose, at the stop and at a
 *   random overlapping pose differs from the oracle's signed distance by more than 0.1 mm (or
 *   has the wrong sign), or `contactsOf` misses an overlap / lists a pair farther than `2 tol`;
 * - **overlapStart**: a sweep starting in overlap (deeper than 1 µm, the contract's threshold)
 *   that does not say so, or whose reported free pose is deeper (oracle depth) than the start
 *   by more than `tol`.
 *
 * Run `npx tsx test/support/sweep-fuzz.ts [count] [seed]` (`npm run fuzz` runs 100 000).
 */
import { fileURLToPath } from 'node:url';
import type { Pose, Quat, ShapeSpec, Vec3 } from '../../sim/types.ts';
import { World } from '../../sim/world.ts';
import { bodiesIntersect, bodyDistance, boundingRadius, firstContact, pathPose, pieces } from './convex-oracle.ts';

/** Shapes a moving body may have. */
export const MOVING_KINDS = ['box', 'ball', 'cylinder', 'capsule', 'hull', 'compound'] as const;
/** Shapes an obstacle may have. */
export const OBSTACLE_KINDS = ['box', 'ball', 'cylinder', 'capsule', 'hull', 'compound', 'mesh'] as const;
export type MovingKind = (typeof MOVING_KINDS)[number];
export type ObstacleKind = (typeof OBSTACLE_KINDS)[number];
export type SweepKind = 'core' | 'offset' | 'graze' | 'overlap';

/** Figures of one shape pair. */
export interface PairFigures {
  judged: number;
  hits: number;
  tunnels: number;
  late: number;
  inside: number;
  earlyStops: number;
  distanceErrors: number;
  contactErrors: number;
  overlapStarts: number;
  overlapErrors: number;
  /** Both overlapping, depths more than 0.1 mm apart (reported, not a verdict error). */
  depthErrors: number;
  undecided: number;
}

/** One failed judgement, to reproduce. */
export interface FuzzFailure {
  pair: string;
  kind: SweepKind;
  what: string;
  index: number;
  detail: string;
}

/** mulberry32: a small deterministic generator shared by nothing in the product. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomQuat(rand: () => number): Quat {
  const [u1, u2, u3] = [rand(), rand(), rand()];
  const a = Math.sqrt(1 - u1);
  const b = Math.sqrt(u1);
  return [a * Math.sin(2 * Math.PI * u2), a * Math.cos(2 * Math.PI * u2), b * Math.sin(2 * Math.PI * u3), b * Math.cos(2 * Math.PI * u3)];
}

function unitVector(rand: () => number): Vec3 {
  const z = 2 * rand() - 1;
  const phi = 2 * Math.PI * rand();
  const r = Math.sqrt(1 - z * z);
  return [r * Math.cos(phi), r * Math.sin(phi), z];
}

/** Log-uniform size between 3 mm and 60 mm. */
function size(rand: () => number): number {
  return 0.003 * Math.exp(Math.log(20) * rand());
}

function mulq(a: Quat, b: Quat): Quat {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}

function piece(kind: 'box' | 'ball' | 'cylinder' | 'capsule' | 'hull', rand: () => number, pose?: Pose): ShapeSpec {
  const at = pose ? { pose } : {};
  switch (kind) {
    case 'box':
      return { type: 'box', half: [size(rand), size(rand), size(rand)], ...at };
    case 'ball':
      return { type: 'ball', radius: size(rand), ...at };
    case 'cylinder':
    case 'capsule':
      return { type: kind, radius: size(rand), halfHeight: size(rand), ...at };
    case 'hull': {
      // Points on an ellipsoid of random axes, so every one is a hull vertex.
      const axes = [size(rand), size(rand), size(rand)];
      const n = 6 + Math.floor(rand() * 7);
      const points: Vec3[] = [];
      for (let i = 0; i < n; i++) {
        const u = unitVector(rand);
        points.push([u[0] * axes[0], u[1] * axes[1], u[2] * axes[2]]);
      }
      // Guarantee volume: the six axis tips.
      points.push([axes[0], 0, 0], [-axes[0], 0, 0], [0, axes[1], 0], [0, -axes[1], 0], [0, 0, axes[2]], [0, 0, -axes[2]]);
      return { type: 'hull', points, ...at };
    }
  }
}

/** Random shapes of a body of the given kind. */
export function randomShapes(kind: MovingKind | ObstacleKind, rand: () => number): ShapeSpec[] {
  if (kind === 'compound') {
    const kinds = ['box', 'ball', 'cylinder', 'capsule', 'hull'] as const;
    const n = 2 + Math.floor(rand() * 2);
    const out: ShapeSpec[] = [];
    for (let i = 0; i < n; i++) {
      const offset = unitVector(rand).map((x) => x * 0.03 * rand()) as Vec3;
      out.push(piece(kinds[Math.floor(rand() * kinds.length)], rand, { p: offset, q: randomQuat(rand) }));
    }
    return out;
  }
  if (kind === 'mesh') {
    // A closed, irregular octahedron.
    const r = [size(rand) * 1.5, size(rand) * 1.5, size(rand) * 1.5, size(rand) * 1.5, size(rand) * 1.5, size(rand) * 1.5];
    const vertices: Vec3[] = [[r[0], 0, 0], [-r[1], 0, 0], [0, r[2], 0], [0, -r[3], 0], [0, 0, r[4]], [0, 0, -r[5]]];
    const indices: Array<[number, number, number]> = [
      [0, 2, 4], [2, 1, 4], [1, 3, 4], [3, 0, 4],
      [2, 0, 5], [1, 2, 5], [3, 1, 5], [0, 3, 5],
    ];
    return [{ type: 'mesh', vertices, indices }];
  }
  return [piece(kind, rand)];
}

function emptyFigures(): PairFigures {
  return { judged: 0, hits: 0, tunnels: 0, late: 0, inside: 0, earlyStops: 0, distanceErrors: 0, contactErrors: 0, overlapStarts: 0, overlapErrors: 0, depthErrors: 0, undecided: 0 };
}

const I: Quat = [0, 0, 0, 1];
const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: Vec3): number => Math.hypot(a[0], a[1], a[2]);

/** Options of {@link runSweepFuzz}. */
export interface FuzzOptions {
  /** Sweeps to judge (spread evenly over the 30 shape pairs and the four kinds). */
  count: number;
  seed?: number;
  /** Called every 1000 cases with the number done. */
  progress?: (done: number) => void;
  /** Stop collecting failure records past this many (counting goes on). */
  maxFailures?: number;
  /** Judge only these case indices (the cases are generated identically; for reproducing one). */
  only?: number[];
  /** Called with the scene of every judged case (for debugging). */
  onCase?: (c: { index: number; world: World; from: Pose; to: Pose; movingShapes: ShapeSpec[]; obstacleShapes: ShapeSpec[]; obstaclePose: Pose }) => void;
}

/** Runs the fuzz and returns the figures per pair ("moving→obstacle") and the first failures. */
export async function runSweepFuzz(opts: FuzzOptions): Promise<{ pairs: Record<string, PairFigures>; failures: FuzzFailure[]; judged: number }> {
  const rand = prng(opts.seed ?? 1);
  const pairs: Record<string, PairFigures> = {};
  const failures: FuzzFailure[] = [];
  const kinds: SweepKind[] = ['core', 'offset', 'graze', 'overlap'];
  const world = await World.create({ gravity: [0, 0, 0] });
  const tol = world.contactTolerance;
  const slack = 2e-6;
  let judged = 0;
  try {
    for (let index = 0; index < opts.count; index++) {
      const mk = MOVING_KINDS[index % MOVING_KINDS.length];
      const ok = OBSTACLE_KINDS[Math.floor(index / MOVING_KINDS.length) % OBSTACLE_KINDS.length];
      const kind = kinds[Math.floor(index / (MOVING_KINDS.length * OBSTACLE_KINDS.length)) % kinds.length];
      const pair = `${mk}→${ok}`;
      const fig = (pairs[pair] ??= emptyFigures());
      const fail = (what: string, detail: string): void => {
        if (failures.length < (opts.maxFailures ?? 50)) failures.push({ pair, kind, what, index, detail });
      };
      const obstacleShapes = randomShapes(ok, rand);
      const movingShapes = randomShapes(mk, rand);
      const obstaclePose: Pose = { p: [0, 0, 0], q: randomQuat(rand) };
      const obstacle = pieces(obstacleShapes, obstaclePose);
      const rObs = boundingRadius(obstacleShapes);
      const rMov = boundingRadius(movingShapes);
      const reach = rObs + rMov;
      // Path: from a start outside both bounding spheres, through (near) the obstacle's centre.
      const dir = unitVector(rand);
      const far = reach + 0.005 + 0.1 * rand();
      let from: Pose = { p: scale(dir, far), q: randomQuat(rand) };
      const turn = kind === 'graze' ? (Math.PI / 6) * rand() : Math.PI * rand();
      let to: Pose = { p: scale(dir, -far * (0.5 + rand())), q: mulq([...scale(unitVector(rand), Math.sin(turn / 2)), Math.cos(turn / 2)] as Quat, from.q) };
      const side = (() => {
        const c = cross(dir, unitVector(rand));
        return scale(c, 1 / norm(c));
      })();
      const shift = (p: Pose, d: number): Pose => ({ p: add(p.p, scale(side, d)), q: p.q });
      if (kind === 'offset') {
        const d = reach * rand();
        [from, to] = [shift(from, d), shift(to, d)];
      } else if (kind === 'graze') {
        // Bisection on the sideways shift for the path that just touches.
        let lo = 0;
        let hi = reach + 0.001;
        for (let k = 0; k < 11; k++) {
          const mid = (lo + hi) / 2;
          const hit = firstContact(movingShapes, shift(from, mid), shift(to, mid), obstacle, 1, 1e-5, 2000).s !== null;
          if (hit) lo = mid;
          else hi = mid;
        }
        const d = (lo + hi) / 2 + (2 * rand() - 1) * 3 * tol;
        [from, to] = [shift(from, d), shift(to, d)];
      } else if (kind === 'overlap') {
        // Start with the body's centre a little off the obstacle's centre (deep overlap for
        // solids; a mesh's surface may not be touched at all).
        from = { p: scale(unitVector(rand), 0.3 * rObs * rand()), q: from.q };
      }

      const probeOffset = rand() * 0.2;
      if (opts.only && !opts.only.includes(index)) continue;
      world.addBody({ name: 'obstacle', kind: 'static', pose: obstaclePose, shapes: obstacleShapes });
      world.addBody({ name: 'mover', kind: 'kinematic', pose: from, shapes: movingShapes });
      opts.onCase?.({ index, world, from, to, movingShapes, obstacleShapes, obstaclePose });
      try {
        fig.judged++;
        judged++;
        const r = world.sweep('mover', to);
        const length = norm(add(to.p, scale(from.p, -1)));
        const dq = Math.abs(from.q[0] * to.q[0] + from.q[1] * to.q[1] + from.q[2] * to.q[2] + from.q[3] * to.q[3]);
        const speed = length + 2 * Math.acos(Math.min(1, dq)) * rMov;
        const startDistance = bodyDistance(pieces(movingShapes, from), obstacle);

        // A mesh is a surface: how deep a body is "in" it is not a volume measure, so the
        // start-in-overlap contract is judged on solid obstacles. An overlap is a penetration
        // deeper than 1 % of the tolerance (1 µm; the documented contract, sim/sweep.ts).
        if (kind === 'overlap' && startDistance < -0.01 * tol && ok !== 'mesh') {
          fig.overlapStarts++;
          if (!r.startOverlap || !r.startOverlap.bodies.includes('obstacle')) {
            fig.overlapErrors++;
            fail('overlapStart', `start depth ${(-startDistance * 1000).toFixed(3)} mm not reported`);
          }
          // Nothing reported as free may be deeper than the start (by more than tol).
          const endPose = r.hit ? r.lastFreePose : to;
          const endDistance = bodyDistance(pieces(movingShapes, endPose), obstacle);
          if (endDistance < startDistance - tol) {
            fig.overlapErrors++;
            fail('overlapDeeper', `start ${(startDistance * 1000).toFixed(3)} mm, reported free at ${(endDistance * 1000).toFixed(3)} mm`);
          }
          continue;
        }
        if (startDistance <= tol) continue; // a start in contact is the lenient-start contract, judged elsewhere

        const oracle = firstContact(movingShapes, from, to, obstacle, 1, 1e-6, 20000);
        if (oracle.undecided) fig.undecided++;
        if (oracle.s !== null) fig.hits++;
        if (oracle.s !== null) {
          const lateBy = ((r.hit ? r.toi : 1) - oracle.s) * speed;
          if (!r.hit || lateBy > tol) {
            fig.tunnels++;
            fail('tunnel', `oracle contact at s=${oracle.s.toFixed(6)}, world ${r.hit ? `stops at ${r.toi.toFixed(6)}` : 'free'} (${(lateBy * 1000).toFixed(3)} mm late)`);
          } else if (lateBy > slack) {
            fig.late++;
            fail('late', `late by ${(lateBy * 1e6).toFixed(2)} µm`);
          }
        }
        if (r.hit && r.violation?.kind === 'collision') {
          const atStop = bodyDistance(pieces(movingShapes, pathPose(from, to, r.toi)), obstacle);
          if (atStop > tol + slack + 1e-6) {
            fig.earlyStops++;
            fail('earlyStop', `oracle distance at the stop ${(atStop * 1e6).toFixed(2)} µm`);
          }
        }
        const lastFree = r.hit ? r.lastFreePose : to;
        if (bodiesIntersect(pieces(movingShapes, lastFree), obstacle)) {
          fig.inside++;
          fail('inside', `last free pose overlaps (toi ${r.toi})`);
        }
        // Verdicts at the last free pose, at the stop, and (every fourth case) at a pose along
        // the path past the stop, which may overlap.
        const probes: Pose[] = [lastFree];
        if (r.hit) probes.push(pathPose(from, to, r.toi));
        if (index % 4 === 0) probes.push(pathPose(from, to, Math.min(1, (oracle.s ?? r.toi) + probeOffset)));
        for (const p of probes) {
          world.setPose('mover', p);
          const exact = bodyDistance(pieces(movingShapes, p), obstacle);
          const got = world.distance('mover', 'obstacle', 1);
          const wrongSign = (exact <= 0 && got > 0) || (exact > 1e-6 && got <= 0);
          // Both overlapping: the depth is Rapier's (EPA), judged separately.
          if (!wrongSign && exact < 0 && got <= 0) {
            if (Math.abs(got - exact) > 1e-4) {
              fig.depthErrors++;
              fail('depth', `exact ${(exact * 1e6).toFixed(2)} µm, world ${(got * 1e6).toFixed(2)} µm`);
            }
          } else if (wrongSign || Math.abs(got - exact) > 1e-4) {
            fig.distanceErrors++;
            fail('distance', `exact ${(exact * 1e6).toFixed(2)} µm, world ${Number.isFinite(got) ? (got * 1e6).toFixed(2) : got} µm`);
          }
          const listed = world.contactsOf('mover').includes('obstacle');
          if ((exact <= 0 && !listed) || (exact > 2 * tol && listed)) {
            fig.contactErrors++;
            fail('contact', `exact ${(exact * 1e6).toFixed(2)} µm, contactsOf ${listed ? 'lists' : 'omits'} it`);
          }
        }
      } finally {
        world.removeBody('mover');
        world.removeBody('obstacle');
      }
      if (opts.progress && (index + 1) % 1000 === 0) opts.progress(index + 1);
    }
  } finally {
    world.free();
  }
  return { pairs, failures, judged };
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const count = Number(process.argv[2] ?? 100000);
  const seed = Number(process.argv[3] ?? 1);
  const started = Date.now();
  const { pairs, failures, judged } = await runSweepFuzz({ count, seed, progress: (n) => process.stderr.write(`fuzz: ${n}/${count} (${((Date.now() - started) / 1000).toFixed(0)} s)\n`) });
  const cols = ['judged', 'hits', 'tunnels', 'late', 'inside', 'earlyStops', 'distanceErrors', 'contactErrors', 'overlapStarts', 'overlapErrors', 'depthErrors', 'undecided'] as const;
  process.stdout.write(`pair                 ${cols.map((c) => c.padStart(9)).join(' ')}\n`);
  const total = emptyFigures();
  for (const [pair, f] of Object.entries(pairs)) {
    process.stdout.write(`${pair.padEnd(20)} ${cols.map((c) => String(f[c]).padStart(9)).join(' ')}\n`);
    for (const c of cols) total[c] += f[c];
  }
  process.stdout.write(`${'total'.padEnd(20)} ${cols.map((c) => String(total[c]).padStart(9)).join(' ')}\n`);
  process.stdout.write(`judged ${judged} sweeps in ${((Date.now() - started) / 1000).toFixed(0)} s (seed ${seed})\n`);
  for (const f of failures.slice(0, 30)) process.stdout.write(`  #${f.index} ${f.pair} ${f.kind} ${f.what}: ${f.detail}\n`);
  const bad = total.tunnels + total.inside + total.distanceErrors + total.contactErrors + total.overlapErrors;
  if (bad) process.exitCode = 1;
}
