import type { CameraSpec } from '../../../render/camera-spec.ts';
import type { InstanceFilter } from '../../types.ts';
import type { Instance } from '../../types.ts';
import type { V1Scene } from './scene.ts';
import { V1_TIERS } from './tiers.ts';
import { isVisible, reachableViews, VisibilityTester, type BoxSighting, type SolidBox } from './visibility.ts';

/** Every solid of an instance's scene (blocks and walls; the table never hides anything above it). */
export function sceneSolids(scene: V1Scene): SolidBox[] {
  return [...scene.blocks.map((b) => ({ name: b.name, half: b.half, pose: b.pose })), ...scene.walls];
}

/** The reachable views V1 checks: azimuth every 30° at 0°, 30° and 60° elevation, and the top view. */
export function viewsOf(instance: Instance<V1Scene>): CameraSpec[] {
  return reachableViews(instance.camera.initial, instance.camera.elevationRange ?? [0, 90]);
}

interface SceneCache {
  tester: VisibilityTester;
  seen: Map<string, Map<string, BoxSighting>>;
  clear: Map<string, boolean>;
  visible: Map<string, boolean>;
  glimpsed: Map<string, boolean>;
}

const cache = new WeakMap<V1Scene, SceneCache>();

function entryOf(instance: Instance<V1Scene>): SceneCache {
  let entry = cache.get(instance.scene);
  if (!entry) {
    entry = { tester: new VisibilityTester(sceneSolids(instance.scene)), seen: new Map(), clear: new Map(), visible: new Map(), glimpsed: new Map() };
    cache.set(instance.scene, entry);
  }
  return entry;
}

/**
 * Whether `camera` sees block `name` clearly (`isClear`; `telling`: by a face that tells a
 * decoy from a cube), cached per scene object.
 */
export function clearlySeen(instance: Instance<V1Scene>, camera: CameraSpec, name: string, telling = false): boolean {
  const entry = entryOf(instance);
  const key = `${JSON.stringify(camera)}/${name}/${telling}`;
  let c = entry.clear.get(key);
  if (c === undefined) {
    c = entry.tester.clear(camera, name, telling);
    entry.clear.set(key, c);
  }
  return c;
}

/** Whether `camera` sees block `name` at all (`isVisible`), cached per scene object. */
export function visiblySeen(instance: Instance<V1Scene>, camera: CameraSpec, name: string): boolean {
  const entry = entryOf(instance);
  const key = `${JSON.stringify(camera)}/${name}`;
  let c = entry.visible.get(key);
  if (c === undefined) {
    c = entry.tester.visible(camera, name);
    entry.visible.set(key, c);
  }
  return c;
}

/** Whether any part of block `name` shows to `camera` (`VisibilityTester.glimpsed`), cached per scene object. */
export function glimpsed(instance: Instance<V1Scene>, camera: CameraSpec, name: string): boolean {
  const entry = entryOf(instance);
  const key = `${JSON.stringify(camera)}/${name}`;
  let c = entry.glimpsed.get(key);
  if (c === undefined) {
    c = entry.tester.glimpsed(camera, name);
    entry.glimpsed.set(key, c);
  }
  return c;
}

/** What `camera` sees of the block `name` (ray-cast sample counts), cached per scene object. */
export function sightOf(instance: Instance<V1Scene>, camera: CameraSpec, name: string): BoxSighting {
  const entry = entryOf(instance);
  const key = JSON.stringify(camera);
  let m = entry.seen.get(key);
  if (!m) {
    m = new Map();
    entry.seen.set(key, m);
  }
  let s = m.get(name);
  if (!s) {
    s = entry.tester.sight(camera, name);
    m.set(name, s);
  }
  return s;
}

/** What each camera sees of every block, keyed by block name. */
export function sightings(instance: Instance<V1Scene>, cameras: CameraSpec[]): Array<Map<string, BoxSighting>> {
  return cameras.map((c) => new Map(instance.scene.blocks.map((b) => [b.name, sightOf(instance, c, b.name)])));
}

const cubesOf = (i: Instance<V1Scene>): string[] => i.scene.blocks.filter((b) => b.kind === 'cube').map((b) => b.name);

/**
 * The V1 filters, run on every draw by the generator (re-drawing until all pass) and again by
 * `spaceact verify`:
 * - `hidden-from-first-view`: at least the tier's number of cubes show not one unoccluded
 *   sample of a fine lattice (`GLIMPSE_GRID`) in the first view, so even the most generous
 *   first-view count is short;
 * - `first-view-all-blocks`: counting every block the first view shows, decoys included
 *   (generously or at the visibility threshold), does not give the answer by luck;
 * - `no-single-view` (L3 and up): no checked view shows every cube (at the visibility
 *   threshold), so the count must be merged from several views;
 * - `every-block-clear`: every block is clearly seen from at least one reachable view (one face
 *   ≥ 75 % unoccluded and not at a grazing angle, see `isClear`) — for a decoy, one of its
 *   non-square faces, the one that tells it from a cube — so the count is answerable.
 */
export const V1_FILTERS: Array<InstanceFilter<V1Scene>> = [
  {
    name: 'hidden-from-first-view',
    check(instance) {
      const cubes = cubesOf(instance);
      const shown = cubes.filter((n) => glimpsed(instance, instance.camera.initial, n)).length;
      const need = V1_TIERS[instance.tier].minHidden;
      return cubes.length - shown >= need ? null : `only ${cubes.length - shown} of ${cubes.length} cubes are wholly hidden from the first view (need ${need})`;
    },
  },
  {
    name: 'first-view-all-blocks',
    check(instance) {
      const first = instance.camera.initial;
      const generous = instance.scene.blocks.filter((b) => glimpsed(instance, first, b.name)).length;
      const strict = instance.scene.blocks.filter((b) => isVisible(sightOf(instance, first, b.name))).length;
      const truth = instance.scene.cubeCount;
      return generous === truth || strict === truth ? `counting every block seen in the first view gives the answer ${truth}` : null;
    },
  },
  {
    name: 'no-single-view',
    check(instance) {
      if (!V1_TIERS[instance.tier].severalViews) return null;
      const views = [instance.camera.initial, ...viewsOf(instance)];
      // Lowest cubes first: they are the ones a view misses, so each view is ruled out early.
      const cubes = instance.scene.blocks.filter((b) => b.kind === 'cube').sort((a, b) => a.base - b.base).map((b) => b.name);
      const i = views.findIndex((v) => cubes.every((n) => visiblySeen(instance, v, n)));
      return i < 0 ? null : `one view (azimuth ${views[i].azimuth}°, elevation ${views[i].elevation}°) shows every cube`;
    },
  },
  {
    name: 'every-block-clear',
    check(instance) {
      // Middle elevations first: they show the most, so the search per block stops early.
      const views = viewsOf(instance).sort((x, y) => Math.abs(x.elevation - 30) - Math.abs(y.elevation - 30));
      // Lowest blocks first: they are the ones no view shows, so a failing draw fails fast.
      const unseen = [...instance.scene.blocks]
        .sort((a, b) => a.base - b.base || (a.name < b.name ? -1 : 1))
        .find((b) => !views.some((v) => clearlySeen(instance, v, b.name, b.kind !== 'cube')));
      return unseen ? `${unseen.name} (${unseen.kind}) is clearly visible from no reachable view` : null;
    },
  },
];
