/**
 * V1 shortcut filters and sightless strategies. See README.md for the shortcuts considered.
 */
import type { ShortcutTell, SightlessStrategy } from '../../sightless.ts';
import type { Instance, InstanceFilter } from '../../types.ts';
import { instanceSettings } from '../../levers.ts';
import { V1_LEVERS, V1_TIERS, type V1Scene } from './scene.ts';
import { clearlySeen, glimpsed, sightOf, viewsOf, visiblySeen } from './sightings.ts';
import { isVisible } from './visibility.ts';

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
export const SHORTCUT_FILTERS: InstanceFilter<V1Scene>[] = [
  {
    name: 'hidden-from-first-view',
    check(instance) {
      const cubes = cubesOf(instance);
      const shown = cubes.filter((n) => glimpsed(instance, instance.camera.initial, n)).length;
      const need = instanceSettings(instance, V1_TIERS, V1_LEVERS).minHidden;
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
      if (!instanceSettings(instance, V1_TIERS, V1_LEVERS).severalViews) return null;
      const views = [instance.camera.initial, ...viewsOf(instance)];
      // Lowest cubes first: they are the ones a view misses, so each view is ruled out early.
      const cubes = instance.scene.blocks.filter((b) => b.kind === 'cube').sort((a, b) => a.base - b.base).map((b) => b.name);
      const i = views.findIndex((v) => cubes.every((n) => visiblySeen(instance, v, n)));
      return i < 0 ? null : `one view (azimuth ${views[i].azimuth}°, elevation ${views[i].elevation}°) shows every cube`;
    },
  },
  {
    name: 'every-block-clear',
    check: (instance) => {
      const unseen = unclearBlock(instance);
      return unseen ? `${unseen} is clearly visible from no reachable view` : null;
    },
  },
];

/**
 * The first block (lowest first) no reachable view shows clearly, as "name (kind)", or null.
 * It depends on the blocks and walls only, not on the first camera's azimuth.
 */
export function unclearBlock(instance: Instance<V1Scene>): string | null {
  // Middle elevations first: they show the most, so the search per block stops early.
  const views = viewsOf(instance).sort((x, y) => Math.abs(x.elevation - 30) - Math.abs(y.elevation - 30));
  // Lowest blocks first: they are the ones no view shows, so a failing draw fails fast.
  const unseen = [...instance.scene.blocks]
    .sort((a, b) => a.base - b.base || (a.name < b.name ? -1 : 1))
    .find((b) => !views.some((v) => clearlySeen(instance, v, b.name, b.kind !== 'cube')));
  return unseen ? `${unseen.name} (${unseen.kind})` : null;
}

/** V1's own sightless strategies for the shortcut battery (the shared constant answer covers a fixed count). */
export const SIGHTLESS: SightlessStrategy[] = [];

/** The number of cubes the first view hides (counts at the visibility threshold). */
function hiddenOf(i: Instance<V1Scene>): number {
  return i.scene.cubeCount - i.scene.firstViewCount;
}

/**
 * V1's tells: what a model that counts only the first view would answer. `visible-plus-c`
 * adds the hidden count most common among other seeds (the issue's "count what you see and add
 * one" with its best offset learned); the generator draws the hidden count uniformly over a
 * wide range so no offset is right often.
 */
export const TELLS: ShortcutTell<number>[] = [
  {
    name: 'visible-plus-c',
    description: 'counts the cubes the first view shows and adds the hidden count most common among other seeds',
    // A guess from one picture: the hidden count is spread over 7–12 values, so about one in
    // seven to one in twelve is right by luck; the bound leaves room for sampling noise.
    bound: 0.2,
    fit(training) {
      const counts = new Map<number, number>();
      for (const t of training) {
        const h = hiddenOf(t.instance as Instance<V1Scene>);
        counts.set(h, (counts.get(h) ?? 0) + 1);
      }
      let best = 1;
      let n = -1;
      for (const [h, c] of [...counts].sort((a, b) => a[0] - b[0])) if (c > n) [best, n] = [h, c];
      return best;
    },
    calls(instance, c) {
      const i = instance as Instance<V1Scene>;
      return [{ tool: 'answer', args: { count: i.scene.firstViewCount + (c ?? 1) } }];
    },
  },
];
