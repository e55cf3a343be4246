/**
 * B5 episode: builds the world of an instance — the measuring mat (`tasks/kits/measuring-mat.ts`)
 * and a studded baseplate on a {@link BrickSystem} grid where the scene puts it — and binds the
 * `place`, `remove` (the stud-site kit's handlers) and `commit` tools to it. Each observation is
 * the current view and the target sheet (`drawing.ts`).
 *
 * `place` takes world metres and a yaw in degrees and snaps the brick onto the stud grid
 * (within `SNAP_TOLERANCE` and `YAW_TOLERANCE_DEG`); a placement off the grid, over nothing with
 * studs, in collision, leaving the structure unable to hold itself (the brick system's stud
 * statics), or with no brick of that type left is a violation (rolled back, and it costs an
 * action). `commit` projects the bricks that stand (their cells in whole brick layers) onto the
 * tier's views and compares them with the targets, and checks the structure's statics once more
 * (`BrickSystem.analyze`) after a short settle.
 *
 * Family state in `world.meta` (snapshotted with the world, so rollbacks undo it): `placed`
 * (brick name → type id, in order), `nextId`, and `result` (the commit's outcome).
 */
import { BRICK_WORLD_OPTIONS, BrickSystem, type BrickInfo } from '../../../sim/bricks.ts';
import type { World, WorldOptions } from '../../../sim/world.ts';
import type { FamilyEnv, Instance, ObservationImage } from '../../types.ts';
import { PITCH, PLATE } from '../../kits/bricks/catalog.ts';
import { mm, restsOnSupport, studSiteTools, toolQuat } from '../../kits/bricks/stud-site.ts';
import { addMeasuringMat, matViewBodies } from '../../kits/measuring-mat.ts';
import { targetSheet, targetViewParts, VIEW_LABELS } from './drawing.ts';
import { BASE_PLATES, cellsOfParts, planToWorld, plateHalf, sameViews, SNAP_TOLERANCE, targetsOf, viewsIoU, worldToPlan, YAW_TOLERANCE_DEG, type B5Scene, type TargetViews } from './scene.ts';

const COLORS = { baseplate: '#95a5a6' };
/** Physical settle after each place or remove, s. */
const SETTLE_SECONDS = 0.1;

/** The outcome of commit, kept in `world.meta.result`. */
export interface WallResult {
  /** The views equal the targets. */
  matched: boolean;
  /** The structure stands (stud statics). */
  stands: boolean;
  /** Projection IoU summed over the views. */
  iou: number;
  message: string;
}

/** World settings: the brick system's (fine time step, contact stiffness for stud-sized parts). */
export function worldOptions(): WorldOptions {
  return { ...BRICK_WORLD_OPTIONS };
}

/** The views of a set of placed bricks (their cells in whole brick layers, projected). */
export function builtViews(parts: readonly BrickInfo[], s: Pick<B5Scene, 'views'>): TargetViews {
  return targetsOf(cellsOfParts(parts.map((p) => ({ cell: p.cell, span: p.footprint, layer: p.layer, height: p.height, fixed: p.fixed }))), s.views);
}

/** Builds the B5 world for `instance` and returns its tools and tests. */
export function build(instance: Instance<B5Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  const supply = new Map(s.supply.map((x) => [x.type, x.count]));
  const base = BASE_PLATES * PLATE;
  const half = plateHalf(s.plate);
  const bricks = new BrickSystem(world, { grid: { name: 'grid', origin: [s.siteX - half, base, s.siteZ - half], yawDeg: 0 } });
  addMeasuringMat(world, s.mat);
  bricks.addBaseplate({ name: 'baseplate', size: [s.plate, s.plate], cell: [0, 0], top: 0, height: BASE_PLATES, color: COLORS.baseplate });

  world.meta.result = null;
  const result = (): WallResult | null => world.meta.result as WallResult | null;
  const restsOn = restsOnSupport(bricks, 'baseplate', 'the baseplate');
  const site = studSiteTools({
    world,
    bricks,
    supply,
    gridYawDeg: 0,
    toGrid: (x, z) => {
      const [ux, uz] = worldToPlan(s, x, z);
      return [ux / PITCH, uz / PITCH];
    },
    toWorld: (u, v, layer) => planToWorld(s, [u * PITCH, layer * PLATE, v * PITCH]),
    baseY: base,
    toolQuat,
    restsOn,
    snap: SNAP_TOLERANCE,
    yawTolerance: YAW_TOLERANCE_DEG,
  });
  const { placed, supplyLeft } = site;
  const standing = (): BrickInfo[] => bricks.parts().filter((p) => !p.fixed);
  const currentIoU = (): number => viewsIoU(builtViews(standing(), s), s.targets, s.views);
  let sheet: Buffer | null = null;

  return {
    tools: {
      place: site.place,
      remove: site.remove,
      commit() {
        const parts = standing();
        const views = builtViews(parts, s);
        const matched = parts.length > 0 && sameViews(views, s.targets, s.views);
        const stands = bricks.analyze().stable;
        const iou = viewsIoU(views, s.targets, s.views);
        const message = !stands
          ? 'The structure does not stand: the test failed.'
          : matched
            ? "The bricks' views equal the targets in every view, and the structure stands."
            : "The bricks' views differ from the targets: the test failed.";
        const r: WallResult = { matched, stands, iou, message };
        world.meta.result = { ...r };
        // The IoU stays in the log: a fraction would be a blind hill-climber's feedback.
        return { message, data: { matched: matched && stands }, diagnostics: { iou: Number(iou.toFixed(3)), bricks: parts.length } };
      },
    },
    staticsAfter() {
      // The brick system has already solved the stud statics of the new structure; a short
      // physical settle confirms it.
      return { seconds: SETTLE_SECONDS };
    },
    solved() {
      const r = result();
      return r !== null && r.matched && r.stands;
    },
    async observe(ctx): Promise<ObservationImage[]> {
      const view = await ctx.renderer.render(ctx.scene(), ctx.camera);
      sheet ??= await targetSheet(ctx.renderer, s);
      return [
        { kind: 'view', png: view, caption: 'Current view.' },
        { kind: 'view', png: sheet, caption: `The target sheet: ${s.views.map((v) => VIEW_LABELS[v]).join('; ')}; drawn without perspective.` },
      ];
    },
    // The first view (view rule, AUTHORING step 4a): the mat and its origin target, the
    // baseplate, every ruler readable; and every panel of the target sheet.
    viewParts: () => {
      const mat = matViewBodies();
      return [{ bodies: [...mat.bodies, { name: 'baseplate', minPixels: 6000 }], scenery: mat.scenery }, ...targetViewParts(s)];
    },
    progress() {
      const r = result();
      if (r && r.matched && r.stands) return 1;
      return currentIoU();
    },
    stateText() {
      const lines = [`Site: baseplate of ${s.plate}×${s.plate} studs, pitch ${mm(PITCH)}, centre at x ${mm(s.siteX)}, z ${mm(s.siteZ)}; cell [col, row] has its centre at x = ${mm(s.siteX - half)} + (col + 0.5)·${mm(PITCH)}, z = ${mm(s.siteZ - half)} + (row + 0.5)·${mm(PITCH)}.`];
      for (const v of s.views) lines.push(`Target ${v} view pixels (${v === 'top' ? '[col, row]' : v === 'front' ? '[col, layer]' : '[row, layer]'}): ${(s.targets[v] ?? []).map((p) => `[${p.join(', ')}]`).join(' ')}.`);
      const names = Object.keys(placed());
      if (!names.length) lines.push('No bricks placed.');
      for (const n of names) {
        const p = bricks.partInfo(n);
        lines.push(`${n}: ${placed()[n]}, cols ${p.cell[0]}–${p.cell[0] + p.footprint[0] - 1}, rows ${p.cell[1]}–${p.cell[1] + p.footprint[1] - 1}, layer ${p.layer / 3}; on ${restsOn(n) || 'nothing (loose)'}.`);
      }
      lines.push(`Projection IoU now: ${currentIoU().toFixed(3)}. Supply left: ${supplyLeft()}.`);
      const r = result();
      if (r) lines.push(`Test: ${r.matched && r.stands ? 'passed' : 'failed'}.`);
      return lines.join('\n');
    },
    observationText() {
      return `Supply left: ${supplyLeft()}.`;
    },
  };
}
