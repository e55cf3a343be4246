/**
 * B3 episode: builds the world of an instance — the measuring mat (`tasks/kits/measuring-mat.ts`),
 * a studded baseplate on a {@link BrickSystem} grid where the scene puts it, the marker post with
 * its red mark and ruler, the blue push arrow with its force label, and at L7 a screen before the
 * site — and binds the `place`, `remove` and `commit` tools to it.
 *
 * `place` takes world metres and a yaw in degrees and snaps the brick onto the stud grid
 * (within `SNAP_TOLERANCE` and `YAW_TOLERANCE_DEG`); everything that depends on the scene —
 * nothing under the brick, off the grid, turned off the grid, a collision, a structure that
 * cannot stand, no brick of that type left — is a violation (rolled back, and it costs an
 * action), never a free refusal. A refused brick is shown where it was asked for in the
 * rollback image.
 *
 * `commit` first measures the tower: the top of the highest brick connected to the baseplate
 * must reach the mark. Then the push: the brick the arrow's line meets first at the push's
 * height (`pushedPart`) gets the force, horizontally along the arrow, at the point where the
 * line enters it, for `pushSeconds` — `BrickSystem.loadTest`: stud connections the statics
 * analysis finds overloaded let go, and Rapier shows whether any brick moves more than
 * {@link HOLD_TOLERANCE}.
 *
 * Family state in `world.meta` (snapshotted with the world, so rollbacks undo it): `placed`
 * (brick name → type id, in order), `nextId`, and `result` (the commit's outcome).
 */
import { BRICK_WORLD_OPTIONS, BrickSystem, type BrickInfo } from '../../../sim/bricks.ts';
import type { Quat, Vec3 } from '../../../sim/types.ts';
import type { World, WorldOptions } from '../../../sim/world.ts';
import type { FamilyEnv, Instance } from '../../types.ts';
import { PITCH, PLATE } from '../../kits/bricks/catalog.ts';
import { mm, restsOnSupport, studSiteTools, toolQuat } from '../../kits/bricks/stud-site.ts';
import type { PlannedPart } from '../../kits/bricks/plan.ts';
import { glyphShapes } from '../../kits/glyphs.ts';
import { addMeasuringMat, matViewBodies } from '../../kits/measuring-mat.ts';
import { LABEL_HEIGHT, layoutOf, POST_RADIUS, SCREEN_GAP, SCREEN_HEIGHT } from './layout.ts';
import { BASE_PLATES, HOLD_TOLERANCE, planToWorld, plateHalf, pushedPart, pushPoint, pushVector, SNAP_TOLERANCE, worldToPlan, YAW_TOLERANCE_DEG, type B3Scene } from './scene.ts';

const COLORS = { baseplate: '#95a5a6', post: '#7f8c8d', mark: '#e74c3c', arrow: '#1f618d', label: '#1f618d', screen: '#5d6d7e' };
/** Length of a slice of the push (see `pushTest`), s. */
const PUSH_SLICE = 0.02;
/** Physical settle after each place or remove, s. */
const SETTLE_SECONDS = 0.1;
/** Half thickness of the arrow's shaft, m. */
const SHAFT_HALF = 0.0018;
/** Length and half width of the arrow's head, m. */
const HEAD_LENGTH = 0.012;
const HEAD_HALF = 0.005;
/** Radius of the arrow's stand, m. */
const STAND_RADIUS = 0.0012;
/** Half length of the red mark (a bar from the post toward the site) and its half thickness, m. */
const MARK_HALF_LENGTH = 0.009;
const MARK_HALF = 0.0012;
/** The post rises this far above the mark, m. */
const POST_OVER = 0.015;
const IDENTITY: Quat = [0, 0, 0, 1];
/** Turns the glyph plane (text read from above, −z up the page) upright, facing +z. */
const UPRIGHT: Quat = [0.707106781, 0, 0, 0.707106781];

/** The outcome of commit, kept in `world.meta.result`. */
export interface TowerResult {
  held: boolean;
  /** The tower's top reached the mark. */
  reached: boolean;
  /** The brick the push met, or null. */
  pushedOn: string | null;
  message: string;
  /** Height of the tower's top above the baseplate, m (log diagnostics only). */
  topM: number;
  /** Largest motion of a brick during the push, mm (log diagnostics only). */
  maxDisplacementMm?: number;
}

/** World settings: the brick system's (fine time step, contact stiffness for stud-sized parts). */
export function worldOptions(): WorldOptions {
  return { ...BRICK_WORLD_OPTIONS };
}



/** The force label's text: newtons to two decimals. */
export function forceLabel(newtons: number): string {
  return `${newtons.toFixed(2)} N`;
}

/** Builds the B3 world for `instance` and returns its tools and tests. */
export function build(instance: Instance<B3Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  const supply = new Map(s.supply.map((x) => [x.type, x.count]));
  const base = BASE_PLATES * PLATE;
  const half = plateHalf(s.plate);
  const bricks = new BrickSystem(world, { grid: { name: 'grid', origin: [s.siteX - half, base, s.siteZ - half], yawDeg: 0 } });
  const layout = layoutOf(s.plate, s.pushDir, s.screen);
  const [dx, dz] = pushVector(s.pushDir);

  addMeasuringMat(world, s.mat);
  bricks.addBaseplate({ name: 'baseplate', size: [s.plate, s.plate], cell: [0, 0], top: 0, height: BASE_PLATES, color: COLORS.baseplate });

  // The marker post with its red mark (a short bar pointing at the site) at the marked height.
  const [px, pz] = s.post;
  const postTop = base + s.targetHeight + POST_OVER;
  world.addBody({ name: 'marker-post', kind: 'static', collides: false, pose: { p: [px, postTop / 2, pz], q: IDENTITY }, shapes: [{ type: 'cylinder', radius: POST_RADIUS, halfHeight: postTop / 2 }], color: COLORS.post });
  const toSite = [s.siteX - px, s.siteZ - pz];
  const along = Math.abs(toSite[0]) >= Math.abs(toSite[1]) ? 'x' : 'z';
  const sign = along === 'x' ? Math.sign(toSite[0]) : Math.sign(toSite[1]);
  const markCentre: Vec3 = along === 'x' ? [px + sign * MARK_HALF_LENGTH, base + s.targetHeight, pz] : [px, base + s.targetHeight, pz + sign * MARK_HALF_LENGTH];
  world.addBody({
    name: 'marker-mark',
    kind: 'static',
    collides: false,
    pose: { p: markCentre, q: IDENTITY },
    shapes: [{ type: 'box', half: along === 'x' ? [MARK_HALF_LENGTH, MARK_HALF, MARK_HALF * 2] : [MARK_HALF * 2, MARK_HALF, MARK_HALF_LENGTH] }],
    color: COLORS.mark,
  });

  // The push arrow on the push's line, and its force label.
  const lineY = base + s.pushHeight;
  const [tx, tz] = layout.tail;
  const [hx, hz] = layout.tip;
  const shaftEnd: [number, number] = [hx - dx * HEAD_LENGTH, hz - dz * HEAD_LENGTH];
  const shaftMid: Vec3 = [s.siteX + (tx + shaftEnd[0]) / 2, lineY, s.siteZ + (tz + shaftEnd[1]) / 2];
  const shaftHalfLen = Math.hypot(shaftEnd[0] - tx, shaftEnd[1] - tz) / 2;
  // The head: a flat pyramid from the shaft's end to the tip, in the arrow body's frame.
  const tipLocal: Vec3 = [s.siteX + hx - shaftMid[0], 0, s.siteZ + hz - shaftMid[2]];
  const baseLocal: [number, number] = [s.siteX + shaftEnd[0] - shaftMid[0], s.siteZ + shaftEnd[1] - shaftMid[2]];
  const headPoints: Vec3[] = [tipLocal];
  for (const side of [-1, 1]) {
    for (const up of [-1, 1]) {
      headPoints.push([baseLocal[0] + (dx !== 0 ? 0 : side * HEAD_HALF), up * SHAFT_HALF * 1.6, baseLocal[1] + (dx !== 0 ? side * HEAD_HALF : 0)]);
    }
  }
  world.addBody({
    name: 'push-arrow',
    kind: 'static',
    collides: false,
    pose: { p: shaftMid, q: IDENTITY },
    shapes: [{ type: 'box', half: dx !== 0 ? [shaftHalfLen, SHAFT_HALF, SHAFT_HALF] : [SHAFT_HALF, SHAFT_HALF, shaftHalfLen] }],
    visual: [{ type: 'hull', points: headPoints }],
    color: COLORS.arrow,
  });
  world.addBody({
    name: 'push-label',
    kind: 'static',
    collides: false,
    pose: { p: [s.siteX + layout.label[0], lineY + layout.labelRise, s.siteZ + layout.label[1]], q: UPRIGHT },
    shapes: glyphShapes(forceLabel(s.pushForce), LABEL_HEIGHT, 0.0012),
    color: COLORS.label,
  });
  // A thin stand from the mat to the arrow's tail, so the arrow's height reads against the scene.
  world.addBody({
    name: 'push-arrow-stand',
    kind: 'static',
    collides: false,
    pose: { p: [s.siteX + tx, lineY / 2, s.siteZ + tz], q: IDENTITY },
    shapes: [{ type: 'cylinder', radius: STAND_RADIUS, halfHeight: lineY / 2 }],
    color: COLORS.post,
  });
  if (s.screen) {
    world.addBody({
      name: 'screen',
      kind: 'static',
      collides: false,
      pose: { p: [s.siteX, SCREEN_HEIGHT / 2, s.siteZ + half + SCREEN_GAP], q: IDENTITY },
      shapes: [{ type: 'box', half: [half, SCREEN_HEIGHT / 2, 0.001] }],
      color: COLORS.screen,
    });
  }

  world.meta.result = null;
  const result = (): TowerResult | null => world.meta.result as TowerResult | null;
  const restsOn = restsOnSupport(bricks, 'baseplate', 'the baseplate');

  const site = studSiteTools({
    world,
    bricks,
    supply,
    gridYawDeg: 0,
    toGrid: (x, z) => { const [ux, uz] = worldToPlan(s, x, z); return [ux / PITCH, uz / PITCH]; },
    toWorld: (u, v, layer) => planToWorld(s, [u * PITCH, layer * PLATE, v * PITCH]),
    baseY: base,
    toolQuat,
    restsOn,
    snap: SNAP_TOLERANCE,
    yawTolerance: YAW_TOLERANCE_DEG,
  });
  const { placed, usedOf, supplyLeft } = site;

  /** The bricks connected (through studs) to the baseplate. */
  const grounded = (): BrickInfo[] => {
    const conns = bricks.connections();
    const seen = new Set(['baseplate']);
    let grew = true;
    while (grew) {
      grew = false;
      for (const c of conns) {
        if (seen.has(c.lower) && !seen.has(c.upper)) {
          seen.add(c.upper);
          grew = true;
        }
      }
    }
    return bricks.parts().filter((p) => !p.fixed && seen.has(p.name));
  };

  /** Height of the tower's top above the baseplate's top, m (0 with no brick). */
  const towerTop = (): number => Math.max(0, ...grounded().map((p) => (p.layer + p.height) * PLATE));

  const asPlanned = (p: BrickInfo): PlannedPart => ({ name: p.name, cell: p.cell, span: p.footprint, layer: p.layer, height: p.height, fixed: p.fixed });

  const describePart = (p: BrickInfo): string => {
    const [x, , z] = planToWorld(s, [(p.cell[0] + p.footprint[0] / 2) * PITCH, 0, (p.cell[1] + p.footprint[1] / 2) * PITCH]);
    return `centre x ${mm(x)}, z ${mm(z)}, yaw ${p.rot}°; cols ${p.cell[0]}–${p.cell[0] + p.footprint[0] - 1}, rows ${p.cell[1]}–${p.cell[1] + p.footprint[1] - 1}, bottom ${mm(p.layer * PLATE)} above the baseplate`;
  };

  /**
   * The push, as a pusher that stops once the tower gives way: `BrickSystem.loadTest` in slices
   * of {@link PUSH_SLICE} s (each lets the connections the statics analysis finds overloaded go,
   * then runs Rapier under the force), until a slice sees a brick move more than the tolerance or
   * the push's time is up. A tower none of whose connections let go in the first slice is rigid,
   * so the rest of the push runs as one slice. Stopping at the failure keeps the failed tower in
   * the picture instead of flying off the mat; the verdict also checks every brick's total motion.
   */
  const pushTest = (body: string, point: Vec3, force: Vec3, watch: string[]): { held: boolean; message: string; maxDisplacement: number } => {
    const start = new Map(watch.map((n) => [n, world.getPose(n).p]));
    let elapsed = 0;
    let slice = PUSH_SLICE;
    let message = '';
    let held = true;
    let sliceMax = 0;
    while (elapsed < s.pushSeconds - 1e-9) {
      const dt = Math.min(slice, s.pushSeconds - elapsed);
      const test = bricks.loadTest({ body, point, force, seconds: dt, watch, linearTol: HOLD_TOLERANCE });
      elapsed += dt;
      sliceMax = Math.max(sliceMax, test.physical.maxDisplacement);
      if (!test.held) {
        held = false;
        message = test.message;
        break;
      }
      if (elapsed === dt && test.broken.length === 0) slice = s.pushSeconds;
    }
    let moved = 0;
    for (const [n, p0] of start) {
      const p = world.getPose(n).p;
      moved = Math.max(moved, Math.hypot(p[0] - p0[0], p[1] - p0[1], p[2] - p0[2]));
    }
    if (held && moved > HOLD_TOLERANCE) {
      held = false;
      message = 'Failed: the tower crept under the push.';
    }
    return { held, message, maxDisplacement: Math.max(sliceMax, moved) };
  };

  return {
    tools: {
      place: site.place,
      remove: site.remove,
      commit() {
        const topM = towerTop();
        let r: TowerResult;
        if (topM < s.targetHeight) {
          r = { held: false, reached: false, pushedOn: null, message: 'The tower does not reach the red mark: the test failed before the push.', topM };
        } else {
          const parts = grounded().map(asPlanned);
          const hit = pushedPart(s, parts);
          if (!hit) {
            r = { held: false, reached: true, pushedOn: null, message: "The push met no brick of the tower on the arrow's line: the test failed.", topM };
          } else {
            const point = planToWorld(s, pushPoint(s, hit));
            const force: Vec3 = [dx * s.pushForce, 0, dz * s.pushForce];
            const push = pushTest(hit.name, point, force, parts.map((p) => p.name));
            r = {
              held: push.held,
              reached: true,
              pushedOn: hit.name,
              // Names only; how far things moved is in the log's diagnostics (issue 36).
              message: push.held ? `The tower reaches the mark and held: the push met '${hit.name}' and nothing moved.` : `The tower reaches the mark but failed under the push on '${hit.name}'. ${push.message}`,
              topM,
              maxDisplacementMm: Number((push.maxDisplacement * 1000).toFixed(1)),
            };
          }
        }
        world.meta.result = { ...r };
        return { message: r.message, data: { held: r.held, reached: r.reached }, diagnostics: { pushN: s.pushForce, topMm: Number((topM * 1000).toFixed(1)), maxDisplacementMm: r.maxDisplacementMm ?? null } };
      },
    },
    staticsAfter() {
      // The brick system has already solved the stud statics of the new structure; a short
      // physical settle confirms it.
      return { seconds: SETTLE_SECONDS };
    },
    solved() {
      return result()?.held === true;
    },
    // The first view (view rule, AUTHORING step 4a): the mat and its origin target, the
    // baseplate, the marker post with its mark, the arrow and its label, every ruler readable.
    viewParts: () => {
      const mat = matViewBodies();
      return [
        {
          bodies: [
            ...mat.bodies,
            { name: 'baseplate', minPixels: 3000 },
            { name: 'marker', group: ['marker-post', 'marker-mark'], minPixels: 250 },
            { name: 'push-arrow', group: ['push-arrow', 'push-arrow-stand'], minPixels: 300 },
            { name: 'push-label', minPixels: 250 },
            ...(s.screen ? [{ name: 'screen', minPixels: 3000 }] : []),
          ],
          ...(s.screen ? { hidden: ['baseplate'], hiddenBecause: '+occ (L7): a screen stands between the first view and the baseplate; the camera must move to see it', hiddenAtMost: 1 } : {}),
          scenery: mat.scenery,
        },
      ];
    },
    progress() {
      if (result()?.held) return 1;
      // Fraction of the height reached; a tower that reaches the mark but fails the push is most of the way.
      return 0.8 * Math.min(1, towerTop() / s.targetHeight);
    },
    stateText() {
      const lines = [
        `Site: baseplate of ${s.plate}×${s.plate} studs, pitch ${mm(PITCH)}, centre at x ${mm(s.siteX)}, z ${mm(s.siteZ)}; its top ${mm(base)} above the mat.`,
        `Mark at ${mm(s.targetHeight)} above the baseplate (${s.layers} bricks reach it). Push ${s.pushForce} N along ${s.pushDir} at ${mm(s.pushHeight)} above the baseplate, over its centre, for ${s.pushSeconds} s. A brick along x has yaw 0°, along z 90°.`,
      ];
      const names = Object.keys(placed());
      if (!names.length) lines.push('No bricks placed.');
      for (const n of names) lines.push(`${n}: ${placed()[n]}, ${describePart(bricks.partInfo(n))}; on ${restsOn(n) || 'nothing (loose)'}.`);
      lines.push(`Tower top: ${mm(towerTop())} above the baseplate. Supply left: ${supplyLeft()}.`);
      const r = result();
      if (r) lines.push(`Test: ${r.held ? 'held' : 'failed'}.`);
      return lines.join('\n');
    },
    observationText() {
      return `Supply left: ${supplyLeft()}.`;
    },
  };
}
