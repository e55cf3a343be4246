/**
 * The sight-line kit (tasks/kits/sight-lines.ts) that first-camera searches use: boxes hide what
 * lies behind them and nothing beside them, a ruler label counts as seen while its foot or its
 * anchor is, the search keeps the first candidate that shows everything, and its on-screen
 * estimates (label plates, box areas, arrow lengths) grow and shrink the way the picture does.
 */
import { expect } from 'chai';
import type { CameraSpec } from '../render/camera-spec.ts';
import type { RulerSpec } from '../sim/types.ts';
import { boxScreenArea, crowdedRulers, cylinderSeenPixels, firstClearCamera, frameArrowBoxes, inPicture, rulersOverlapping, orbitCandidates, rulerLabelPoints, shortArrows, unreadableRulers, unseenPoints, type SightBox, type SightPoint } from '../tasks/kits/sight-lines.ts';

/** From +z, level, 1 m off the origin. */
const FRONT: CameraSpec = { azimuth: 0, elevation: 0, distance: 1, target: [0, 0, 0] };

describe('sight-lines kit', () => {
  const point: SightPoint = { point: [0, 0, 0], what: 'origin' };
  const between: SightBox = { center: [0, 0, 0.5], half: [0.05, 0.05, 0.05] };
  const aside: SightBox = { center: [0.3, 0, 0.5], half: [0.05, 0.05, 0.05] };

  it('a box on the sight line hides a point; the same box beside it, or the point\'s own box, does not', () => {
    expect(unseenPoints(FRONT, [point], [between])).to.have.length(1);
    expect(unseenPoints(FRONT, [point], [aside])).to.have.length(0);
    expect(unseenPoints(FRONT, [{ ...point, own: [0] }], [between])).to.have.length(0);
    // A turned box: a thin slab turned 90° about y no longer crosses the line of sight.
    const slab: SightBox = { center: [0.05, 0, 0.5], half: [0.08, 0.05, 0.001] };
    const q = Math.SQRT1_2;
    expect(unseenPoints(FRONT, [point], [slab])).to.have.length(1);
    expect(unseenPoints(FRONT, [point], [{ ...slab, q: [0, q, 0, q] }])).to.have.length(0);
  });

  it('a point outside the picture is unseen', () => {
    expect(inPicture(FRONT, [0, 0, 0])).to.equal(true);
    expect(inPicture(FRONT, [2, 0, 0])).to.equal(false);
    expect(inPicture(FRONT, [0, 0, 2])).to.equal(false);
  });

  it('a grouped point counts only while no point of its group is seen', () => {
    const foot: SightPoint = { point: [0, 0, 0], what: 'foot', group: 'label' };
    const anchor: SightPoint = { point: [0.3, 0, 0], what: 'anchor', group: 'label' };
    expect(unseenPoints(FRONT, [foot, anchor], [between])).to.have.length(0);
    // Half-way to the camera the anchor's sight line is at x = 0.15.
    expect(unseenPoints(FRONT, [foot, anchor], [between, { center: [0.15, 0, 0.5], half: [0.05, 0.05, 0.05] }])).to.have.length(2);
  });

  it('the search keeps the first candidate that shows every point, else the one that leaves fewest unseen', () => {
    const candidates = orbitCandidates(FRONT, [30, -30], [20]);
    expect(candidates[0]).to.deep.equal(FRONT);
    const found = firstClearCamera(candidates, [point], [between]);
    expect(found.unseen).to.have.length(0);
    expect(found.camera).to.not.deep.equal(FRONT);
    const clear = firstClearCamera(candidates, [point], [aside]);
    expect(clear.camera).to.deep.equal(FRONT);
    // A point enclosed on every side is unseen from every candidate: the first is kept.
    const shell: SightBox = { center: [0, 0, 0], half: [0.1, 0.1, 0.1] };
    expect(firstClearCamera(candidates, [point], [shell]).camera).to.deep.equal(FRONT);
  });

  it('every labelled tick gives a foot and an anchor; a ruler seen end-on is unreadable and crowded', () => {
    const ruler: RulerSpec = { from: [-0.2, 0, 0], to: [0.2, 0, 0], tickDir: [0, 1, 0], minor: 0.01, major: 0.1 };
    expect(rulerLabelPoints([ruler])).to.have.length(2 * 5);
    expect(unreadableRulers(FRONT, [ruler])).to.have.length(0);
    expect(crowdedRulers(FRONT, [ruler])).to.have.length(0);
    const endOn: CameraSpec = { ...FRONT, azimuth: 89 };
    expect(unreadableRulers(endOn, [ruler])).to.have.length(1);
    expect(crowdedRulers(endOn, [ruler]).length).to.be.greaterThan(0);
  });

  it('a box covers less of the picture from further off, and an arrow along the line of sight looks short', () => {
    const cube: SightBox = { center: [0, 0, 0], half: [0.05, 0.05, 0.05] };
    const near = boxScreenArea(FRONT, cube);
    // A 10 cm face at 0.95 m in a 40° view: (0.1 / (2 · 0.95 · tan 20°))² of the picture.
    expect(near).to.be.closeTo((0.1 / (2 * 0.95 * Math.tan((20 * Math.PI) / 180))) ** 2, 0.002);
    expect(boxScreenArea({ ...FRONT, distance: 2 }, cube)).to.be.lessThan(near / 3);
    expect(shortArrows(FRONT, [0, 0, 0], [0, 0, 0, 1], 0.1).map((p) => p.what)).to.deep.equal(['+z arrow looks too short']);
  });

  it('a rod shows length times width on screen, less what a low wall in front hides; seen end-on, nothing', () => {
    // A 30 cm rod 2 cm thick along x, 1 m in front of the camera: 0.3 × 0.02 m at 1 m in a 40° view.
    const rod = { center: [0, 0, 0] as [number, number, number], axis: [1, 0, 0] as [number, number, number], length: 0.3, radius: 0.01 };
    const perMetre = 768 / (2 * Math.tan((20 * Math.PI) / 180));
    const whole = cylinderSeenPixels(FRONT, rod, []);
    expect(whole).to.be.closeTo(0.3 * 0.02 * perMetre * perMetre, 0.05 * whole);
    // A wall in front covering the rod's lower half leaves about half of it.
    const wall: SightBox = { center: [0, -0.01, 0.3], half: [0.3, 0.01, 0.005] };
    const lower = cylinderSeenPixels(FRONT, rod, [wall]);
    expect(lower).to.be.within(0.3 * whole, 0.7 * whole);
    // A wall covering it all leaves nothing; the rod seen along its axis shows no length.
    expect(cylinderSeenPixels(FRONT, rod, [{ ...wall, half: [0.3, 0.05, 0.005], center: [0, 0, 0.3] }])).to.equal(0);
    expect(cylinderSeenPixels(FRONT, { ...rod, axis: [0, 0, 1] }, [])).to.equal(0);
  });

  it('labels of two rulers overlapping on screen are found; labels of one ruler are not (the renderer thins those)', () => {
    const a: RulerSpec = { from: [-0.2, 0, 0], to: [0.2, 0, 0], tickDir: [0, -1, 0], minor: 0.01, major: 0.1 };
    const twin: RulerSpec = { ...a, from: [-0.2, 0.004, 0], to: [0.2, 0.004, 0] };
    const far: RulerSpec = { ...a, from: [-0.2, 0.25, 0], to: [0.2, 0.25, 0] };
    expect(rulersOverlapping(FRONT, [a, far])).to.have.length(0);
    expect(rulersOverlapping(FRONT, [a, twin]).length).to.be.greaterThan(0);
    expect(rulersOverlapping(FRONT, [a])).to.have.length(0);
    // unreadableRulers asks for more room between a ruler's end plates when told to.
    const short: RulerSpec = { from: [-0.05, 0, 0], to: [0.05, 0, 0], tickDir: [0, -1, 0], minor: 0.005, major: 0.05 };
    const at = (distance: number): CameraSpec => ({ ...FRONT, distance });
    const readsAt = (gap: number): number => [0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6].filter((d) => unreadableRulers(at(d), [short], undefined, gap).length === 0).length;
    expect(readsAt(0.05)).to.be.lessThan(readsAt(0.005));
  });

  it("a frame's arrows hide what lies behind them, each along its own axis", () => {
    const boxes = frameArrowBoxes([0, 0, 0], [0, 0, 0, 1], 0.1);
    expect(boxes).to.have.length(3);
    // Behind the +x arrow's middle (seen from +z) a point is hidden; beside it, not.
    expect(unseenPoints(FRONT, [{ point: [0.06, 0, -0.2], what: 'behind +x' }], boxes)).to.have.length(1);
    expect(unseenPoints(FRONT, [{ point: [-0.06, -0.06, -0.2], what: 'beside' }], boxes)).to.have.length(0);
    // Turned a quarter about z, the +x arrow points up: the point behind its old middle is clear.
    const q = Math.SQRT1_2;
    expect(unseenPoints(FRONT, [{ point: [0.06, -0.03, -0.2], what: 'behind old +x' }], frameArrowBoxes([0, 0, 0], [0, 0, q, q], 0.1))).to.have.length(0);
  });
});
