/**
 * M3's held-part tools: translate, rotate and move in the working frame (turned about the
 * vertical under `+rot`), turning about the centre of the part's bounding box.
 */
import type { Quat } from '../../../sim/types.ts';
import type { HeldPartTools } from '../../kits/held-part/tools.ts';

/** How M3's part is moved, for a working frame turned by `frame` (shared by specs, handlers and planner). */
export function m3Tools(frame: Quat): HeldPartTools {
  return {
    body: 'part',
    partWords: 'the part',
    motion: { combined: true, maxTranslate: 0.5, frame },
    axesWords: 'the red, green and blue arrows beside the first wall',
    centreWords: "the part's centre (the middle of its bounding box)",
    obstacleWords: 'a wall',
  };
}
