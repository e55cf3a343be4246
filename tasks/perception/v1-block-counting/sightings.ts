/**
 * What the cameras of a V1 instance see of each block: ray-cast sightings (`visibility.ts`)
 * cached per scene, and the views an agent can reach. The generator, the shortcut filters,
 * the solver and the tests all ask these questions.
 */
import type { CameraSpec } from '../../../render/camera-spec.ts';
import type { Instance } from '../../types.ts';
import type { V1Scene } from './scene.ts';
import { reachableViews, VisibilityTester, type BoxSighting, type SolidBox } from './visibility.ts';

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
