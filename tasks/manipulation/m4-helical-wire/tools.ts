/**
 * M4's held-part tools: translate, rotate and move in the working frame (turned about the
 * vertical under `+rot`), turning about the ring's centre.
 */
import type { Quat } from '../../../sim/types.ts';
import type { HeldPartTools } from '../../kits/held-part/tools.ts';

/** How M4's ring is moved, for a working frame turned by `frame` (shared by specs, handlers and planner). */
export function m4Tools(frame: Quat): HeldPartTools {
  return {
    body: 'ring',
    partWords: 'the ring',
    motion: { combined: true, maxTranslate: 0.5, frame },
    axesWords: 'the red, green and blue arrows beside the base',
    centreWords: "the ring's centre",
    obstacleWords: 'the wire or the base',
  };
}
