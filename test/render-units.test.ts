import { expect } from 'chai';
import type { SceneDescription } from '../sim/types.ts';
import { cameraFrame, orthoHeightOf } from '../render/camera-frame.ts';
import { rulerAxes, rulerLabel, rulerTicks } from '../render/page/ruler-marks.ts';
import { composeRow, escapeXml } from '../render/compose.ts';
import { fitCamera } from '../render/fit-camera.ts';
import { decodePng } from '../render/pixels.ts';
import { strobeLabels } from '../render/strobe.ts';
import { checkScene } from '../render/scene-check.ts';
import { SceneMirror } from '../render/scene-mirror.ts';
import { silhouetteIoU, unpackBits } from '../render/silhouette.ts';
import sharp from 'sharp';

const dot = (a: number[], b: number[]): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

describe('renderer pieces without a browser', () => {
  it('camera frames are orthonormal everywhere, including straight up and down', () => {
    for (const elevation of [-90, -45, 0, 30, 89.999, 90]) {
      for (const azimuth of [-90, 0, 45, 180, 270]) {
        const f = cameraFrame({ azimuth, elevation, distance: 2, target: [1, 2, 3] });
        for (const v of [f.right, f.up, f.back]) expect(Math.hypot(...v)).to.be.closeTo(1, 1e-12);
        expect(dot(f.right, f.up)).to.be.closeTo(0, 1e-12);
        expect(dot(f.up, f.back)).to.be.closeTo(0, 1e-12);
        const d = f.position.map((p, i) => p - [1, 2, 3][i]);
        expect(Math.hypot(...d)).to.be.closeTo(2, 1e-12);
      }
    }
    // front view: camera on +Z, right is +X, up is +Y
    const front = cameraFrame({ azimuth: 0, elevation: 0, distance: 1, target: [0, 0, 0] });
    expect(front.position.map((x) => Math.round(x * 1e9) / 1e9)).to.deep.equal([0, 0, 1]);
    expect(front.up[1]).to.be.closeTo(1, 1e-12);
    // top view: up on screen is world -Z
    expect(cameraFrame({ azimuth: 0, elevation: 90, distance: 1, target: [0, 0, 0] }).up[2]).to.be.closeTo(-1, 1e-12);
    expect(orthoHeightOf({ azimuth: 0, elevation: 0, distance: 1, target: [0, 0, 0], fov: 90 })).to.be.closeTo(2, 1e-12);
  });

  it('ruler ticks: minors every step, majors labelled from the ruler start, mids halfway', () => {
    const ticks = rulerTicks(0.3, 0.01, 0.1);
    expect(ticks).to.have.length(31);
    expect(ticks.filter((t) => t.rank === 'major').map((t) => t.label)).to.deep.equal(['0', '10 cm', '20 cm', '30 cm']);
    expect(ticks.filter((t) => t.rank === 'mid').map((t) => Math.round(t.at * 100))).to.deep.equal([5, 15, 25]);
    expect(rulerTicks(0.25, 0.01, 0.1).filter((t) => t.rank === 'major')).to.have.length(3);
    expect(rulerLabel(3, 1)).to.equal('3 m');
    expect(rulerLabel(2, 0.005)).to.equal('10 mm');
    expect(rulerLabel(1, 0.25)).to.equal('25 cm');
    expect(rulerAxes({ from: [0, 0, 0], to: [0, 1, 0] }).tick).to.deep.equal([0, 0, 1]);
    expect(rulerAxes({ from: [0, 0, 0], to: [1, 0, 0] }).tick).to.deep.equal([0, 1, 0]);
  });

  it('strobe labels count back 0.25 s steps to "now"', () => {
    expect(strobeLabels(5)).to.deep.equal(['1.00 s ago', '0.75 s ago', '0.50 s ago', '0.25 s ago', 'now']);
    expect(strobeLabels()).to.deep.equal(strobeLabels(5, 0.25));
  });

  it('composeRow lays panels side by side under escaped labels', async () => {
    expect(escapeXml(`a<b>&"c'`)).to.equal('a&lt;b&gt;&amp;&quot;c&apos;');
    const red = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#ff0000' } }).png().toBuffer();
    const blue = await sharp({ create: { width: 20, height: 50, channels: 3, background: '#0000ff' } }).png().toBuffer();
    const row = await decodePng(await composeRow([red, blue], { labels: ['</text><evil>&', 'ok'], separator: 4, labelHeight: 24 }));
    expect([row.width, row.height]).to.deep.equal([64, 74]);
    const px = (x: number, y: number): number[] => [...row.data.subarray((y * row.width + x) * row.channels, (y * row.width + x) * row.channels + 3)];
    expect(px(10, 40)).to.deep.equal([255, 0, 0]);
    expect(px(50, 60)).to.deep.equal([0, 0, 255]);
  });

  it('silhouette IoU counts overlap over union', () => {
    const a = new Uint8Array([1, 1, 0, 0]);
    const b = new Uint8Array([0, 1, 1, 0]);
    expect(silhouetteIoU(a, b)).to.be.closeTo(1 / 3, 1e-12);
    expect(silhouetteIoU(new Uint8Array(4), new Uint8Array(4))).to.equal(1);
    expect([...unpackBits(new Uint8Array([0b10100000, 0b01000000]), 3, 2)]).to.deep.equal([1, 0, 1, 0, 1, 0]);
  });

  it('scene files get defaults; the mirror sends geometry once and then only what moved', () => {
    const scene = checkScene({
      bodies: [
        { name: 'a', shapes: [{ type: 'box', half: [1, 1, 1] }], pose: { p: [0, 0, 0], q: [0, 0, 0, 1] } },
        { name: 'b', shapes: [{ type: 'ball', radius: 1 }], pose: { p: [3, 0, 0], q: [0, 0, 0, 1] }, color: 'navy' },
      ],
    }) as SceneDescription;
    expect(scene.bodies[0]).to.include({ opacity: 1, visible: true });
    expect(scene.rulers).to.deep.equal([]);
    const mirror = new SceneMirror();
    const first = mirror.diff(scene, 1);
    expect(first.update.reset).to.equal(true);
    expect(first.update.add?.map((g) => g.name)).to.deep.equal(['a', 'b']);
    first.commit();
    const moved = structuredClone(scene);
    moved.bodies[1].pose.p = [4, 0, 0];
    const second = mirror.diff(moved, 1);
    expect(second.update).to.deep.equal({ poses: [['b', 4, 0, 0, 0, 0, 0, 1]] });
    // not committed (the page failed): the next diff is still against the old state
    expect(mirror.diff(moved, 1).update).to.deep.equal(second.update);
    second.commit();
    const recoloured = structuredClone(moved);
    recoloured.bodies[0].color = '#123456';
    recoloured.bodies.pop();
    const third = mirror.diff(recoloured, 1).update;
    expect(third.add?.map((g) => g.name)).to.deep.equal(['a']);
    expect(third.remove).to.deep.equal(['b']);
    // a relaunched browser (new generation) gets everything again
    expect(mirror.diff(recoloured, 2).update.reset).to.equal(true);
  });

  it('fits a camera around the scene', () => {
    const scene = checkScene({ bodies: [{ name: 'a', shapes: [{ type: 'ball', radius: 0.5 }], pose: { p: [2, 0, 0], q: [0, 0, 0, 1] } }] });
    const cam = fitCamera(scene, 'front');
    expect(cam.target).to.deep.equal([2, 0, 0]);
    expect(cam.azimuth).to.equal(0);
    expect(cam.distance).to.be.greaterThan(0.5 / Math.sin((20 * Math.PI) / 180));
    expect(() => fitCamera(scene, 'sideways')).to.throw(/unknown view/);
  });
});
