/**
 * The rulers' geometry for code outside the page: where a ruler's ticks and labels fall (its
 * direction, length and tick direction, and its ticks with their labels), exactly as the page
 * draws them. render/page/ is browser code that only render/ may import (test/layering.test.ts);
 * this re-export lets task code (the sight-line kit, tasks/kits/sight-lines.ts) predict where a
 * label stands without a second copy of the rules.
 */
export { rulerAxes, rulerTicks } from './page/ruler-marks.ts';
