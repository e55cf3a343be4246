/**
 * V5 shortcut filters and sightless strategies: the icon must fill its canvas like the seed's
 * icons, and the start must not already overlap the target. See README.md for the shortcuts
 * considered.
 */
import type { SightlessStrategy } from '../../sightless.ts';
import type { InstanceFilter } from '../../types.ts';
import { iconProblem, iconStats } from './extrusion.ts';
import { modelOf } from './model.ts';
import { START_IOU_MAX, type V5Scene } from './scene.ts';

/** Cheap static checks every instance must pass (the generator re-draws until they hold; verify reports them). */
export const SHORTCUT_FILTERS: InstanceFilter<V5Scene>[] = [
  {
    name: 'icon-occupancy',
    check: (instance) => {
      const problem = iconProblem(iconStats(modelOf(instance.scene).solid.mask));
      return problem ? `icon rejected: ${problem}` : null;
    },
  },
  {
    name: 'start-far-from-target',
    check: (instance) => {
      const model = modelOf(instance.scene);
      const iou = model.iou(model.initial);
      return iou > START_IOU_MAX ? `the start silhouette already overlaps the target by IoU ${iou.toFixed(3)} (> ${START_IOU_MAX})` : null;
    },
  },
];

/** V5's own sightless strategies for the shortcut battery. */
export const SIGHTLESS: SightlessStrategy[] = [];
