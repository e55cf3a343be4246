import { expect } from 'chai';
import type { SceneBody, SceneDescription, Vec3 } from '../sim/types.ts';
import type { CameraSpec } from '../render/camera-spec.ts';
import { decodePng, findPixels, type Pixels } from '../render/pixels.ts';
import { Renderer } from '../render/renderer.ts';
import { SpaceActError } from '../core/errors.ts';

const SIZE = 512;
const ORTHO_HEIGHT = 0.3;
const PX_PER_M = SIZE / ORTHO_HEIGHT;
/** Cube edge of the polycube, metres. */
const A = 0.05;
/** Four cubes in one body: an L on the floor and one cube stacked on its corner. */
const CUBES: Vec3[] = [[0, 0, 0], [A, 0, 0], [A, A, 0], [0, 0, A]];
const polycube: SceneBody = {
  name: 'poly',
  shapes: CUBES.map((p) => ({ type: 'box', half: [A / 2, A / 2, A / 2], pose: { p, q: [0, 0, 0, 1] } })),
  pose: { p: [0, A / 2, 0], q: [0, 0, 0, 1] },
  color: '#c0392b',
  opacity: 1,
  visible: true,
};
const post: SceneBody = { name: 'post', shapes: [{ type: 'cylinder', radius: 0.02, halfHeight: 0.03 }], pose: { p: [0.12, 0.03, 0.06], q: [0, 0, 0, 1] }, color: '#2e86de', opacity: 1, visible: true };
const scene: SceneDescription = { bodies: [polycube, post], rulers: [], ground: { y: 0 } };
const TARGET: Vec3 = [0.03, 0, 0.02];
/** Straight down (image right = +X, image down = +Z); a perspective camera: the line view draws its orthographic form. */
const top: CameraSpec = { azimuth: 0, elevation: 90, distance: 1, target: TARGET, orthoHeight: ORTHO_HEIGHT };
const col = (x: number): number => SIZE / 2 + (x - TARGET[0]) * PX_PER_M;
const row = (z: number): number => SIZE / 2 + (z - TARGET[2]) * PX_PER_M;

const dark = (img: Pixels, x: number, y: number): boolean => img.data[(y * img.width + x) * img.channels] < 128;

/** Centres (continuous pixel coordinates) of the runs of dark pixels along a row or a column. */
function runs(img: Pixels, line: { row: number } | { col: number }): number[] {
  const centres: number[] = [];
  let start = -1;
  for (let i = 0; i <= SIZE; i++) {
    const on = i < SIZE && ('row' in line ? dark(img, i, line.row) : dark(img, line.col, i));
    if (on && start < 0) start = i;
    if (!on && start >= 0) {
      centres.push((start + i) / 2);
      start = -1;
    }
  }
  return centres;
}

describe('line drawings (headless Chromium)', function () {
  this.timeout(120000);
  let renderer: Renderer;
  before(() => {
    renderer = new Renderer({ width: SIZE, height: SIZE });
  });
  after(async () => {
    await renderer.close();
  });

  it("a polycube's top view shows its edges at their projected positions (within 1 px), with no seams between its cubes", async () => {
    const png = await renderer.render(scene, top, { view: 'lines' });
    const img = await decodePng(png);
    const worst: number[] = [];
    const check = (line: { row: number } | { col: number }, expected: number[], what: string): void => {
      const found = runs(img, line);
      expect(found.length, `${what}: lines at ${found.map((c) => c.toFixed(1)).join(', ')}; expected ${expected.map((c) => c.toFixed(1)).join(', ')}`).to.equal(expected.length);
      found.forEach((c, i) => {
        worst.push(Math.abs(c - expected[i]));
        expect(Math.abs(c - expected[i]), `${what}, line ${i}`).to.be.at.most(1);
      });
    };
    // Through the first row of cubes: outline left, the step up to the stacked cube, outline right.
    check({ row: Math.floor(row(0)) }, [col(-A / 2), col(A / 2), col((3 * A) / 2)], 'row z = 0');
    // Through the third cube and the post: the cube's two sides, then the post's round outline.
    check({ row: Math.floor(row(0.06)) }, [col(-A / 2), col(A / 2), col(0.1), col(0.14)], 'row z = 6 cm');
    // Down the first column: front and back outline only — the cubes' shared top face leaves no seam.
    check({ col: Math.floor(col(0)) }, [row(-A / 2), row((3 * A) / 2)], 'column x = 0');
    // Down the second column: the stacked cube's outline.
    check({ col: Math.floor(col(A)) }, [row(-A / 2), row(A / 2)], 'column x = 5 cm');
    console.log(`      polycube top view: ${worst.length} edges measured, worst offset ${Math.max(...worst).toFixed(2)} px from the projected position`);
    expect((await renderer.render(scene, top, { view: 'lines' })).equals(png)).to.equal(true);
  });

  it('draws a dimension line between its points with its value, and hidden edges dashed only when asked', async () => {
    const dims = [{ from: [-A / 2, A, -A / 2] as Vec3, to: [(3 * A) / 2, A, -A / 2] as Vec3, offset: [0, 0, -0.03] as Vec3 }];
    const img = await decodePng(await renderer.render(scene, top, { view: 'lines', dimensions: dims }));
    const y = Math.floor(row(-A / 2 - 0.03));
    const along = runs(img, { row: y });
    const first = along[0];
    const last = along[along.length - 1];
    // The arrow tips sit on the extension lines (within 2 px), and a label with dark text is in between.
    expect(Math.abs(first - col(-A / 2))).to.be.at.most(2);
    expect(Math.abs(last - col((3 * A) / 2))).to.be.at.most(2);
    const label = findPixels(img, (r) => r < 128, [Math.floor(col(A / 2)) - 25, y - 8, Math.floor(col(A / 2)) + 25, y + 8]);
    expect(label.count).to.be.greaterThan(30);
    // Extension line down from the measured corner.
    const ext = Math.floor(row(-A / 2 - 0.015));
    // (a one-pixel line between two pixel centres is antialiased over both: grey, not white)
    expect([-1, 0, 1].some((d) => img.data[(ext * SIZE + Math.floor(col(-A / 2)) + d) * img.channels] < 230)).to.equal(true);

    const iso: CameraSpec = { azimuth: 35, elevation: 30, distance: 1, target: [0.03, 0.04, 0.02], projection: 'orthographic', orthoHeight: ORTHO_HEIGHT };
    const grey = (r: number, g: number, b: number): boolean => r > 90 && r < 200 && Math.abs(r - g) < 8 && Math.abs(g - b) < 8;
    const plain = await decodePng(await renderer.render(scene, iso, { view: 'lines' }));
    const hidden = await decodePng(await renderer.render(scene, iso, { view: 'lines', hiddenLines: true }));
    expect(findPixels(hidden, grey).count - findPixels(plain, grey).count).to.be.greaterThan(200);
  });

  it('refuses bad dimension lines with a SpaceActError naming the field', async () => {
    const bad = await renderer.render(scene, top, { view: 'lines', dimensions: [{ from: [0, 0, 0], to: [1, 0], offset: [0, 0, 0] } as never] }).catch((e: unknown) => e);
    expect(bad).to.be.instanceOf(SpaceActError);
    expect((bad as Error).message).to.match(/dimensions\[0\]\.to/);
  });
});
