/**
 * M6's held-part tools: translate in the world frame; rotate and move turning about the hook's
 * centre, about the world's axes or (under `+tool`) the hook's own.
 */
import type { HeldPartTools } from '../../kits/held-part/tools.ts';

/** How M6's hook is moved (shared by specs, handlers and planner). */
export function m6Tools(toolFrame: boolean): HeldPartTools {
  return {
    body: 'hook',
    partWords: 'the hook',
    motion: { combined: true, maxTranslate: 0.5, rotationFrame: toolFrame ? 'tool' : 'world' },
    axesWords: 'the red, green and blue arrows on the base',
    centreWords: "the centre of the hook's loop",
    obstacleWords: 'the frame',
  };
}
