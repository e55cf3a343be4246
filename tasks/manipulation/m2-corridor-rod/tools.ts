/**
 * M2's held-part tools: translate, rotate and the combined move (a swing round a corner), in
 * the world frame shown by the arrows at the corridor's closed end, about the rod's midpoint.
 */
import type { HeldPartTools } from '../../kits/held-part/tools.ts';

/** How M2's rod is moved (shared by the tool specs, the handlers and the planner). */
export const M2_TOOLS: HeldPartTools = {
  body: 'rod',
  partWords: 'the rod',
  motion: { combined: true, maxTranslate: 0.5 },
  axesWords: "the red, green and blue arrows at the corridor's closed end",
  centreWords: "the rod's midpoint",
  obstacleWords: 'a wall, the floor or the ceiling',
};
