/**
 * M5's held-part tools: translate in the world frame; rotate and move turning about the block's
 * centre, about the world's axes — or, under `+tool`, about the block's own axes (the small
 * arrows fixed to it).
 */
import type { HeldPartTools } from '../../kits/held-part/tools.ts';

/** How M5's block is moved (shared by specs, handlers and planner). */
export function m5Tools(toolFrame: boolean): HeldPartTools {
  return {
    body: 'heart',
    partWords: 'the heart block',
    motion: { combined: true, maxTranslate: 0.5, rotationFrame: toolFrame ? 'tool' : 'world' },
    axesWords: 'the red, green and blue arrows beside the wall',
    centreWords: "the block's centre (the middle of its bounding box)",
    obstacleWords: 'the wall',
  };
}
