/**
 * The strobe of a moving world, defined once: how many frames, how far apart in world time, and
 * the labels under them. The task environment samples poses at these times and the renderer
 * draws the strip with these labels, so what an agent reads under a frame is what the frame is.
 */

/** Seconds of world time between strobe frames. */
export const STROBE_SPACING_S = 0.25;

/** Frames in a strobe observation. */
export const STROBE_FRAMES = 5;

/** Labels of `count` frames `spacing` seconds apart, oldest first: "1.00 s ago", …, "now". */
export function strobeLabels(count: number = STROBE_FRAMES, spacing: number = STROBE_SPACING_S): string[] {
  return Array.from({ length: count }, (_, i) => {
    const back = (count - 1 - i) * spacing;
    return back === 0 ? 'now' : `${back.toFixed(2)} s ago`;
  });
}
