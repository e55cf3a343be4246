import { expect } from 'chai';
import sharp from 'sharp';
import type { SceneBody, SceneDescription, Vec3, Violation } from '../sim/types.ts';
import type { CameraSpec } from '../render/camera-spec.ts';
import { decodePng, findPixels, isHighlightPixel } from '../render/pixels.ts';
import { Renderer, rollbackCaption, rollbackHighlight, rollbackTitle } from '../render/renderer.ts';
import { narrowToContact } from '../render/rollback-text.ts';

const SIZE = 256;
const disk = (name: string, radius: number, y: number, color: string, x = 0): SceneBody => ({
  name,
  shapes: [{ type: 'cylinder', radius, halfHeight: 0.01 }],
  pose: { p: [x, y, 0], q: [0, 0, 0, 1] },
  color,
  opacity: 1,
  visible: true,
});
/** A large disk resting half on a smaller one (the P6 rule violation), both the same colour, and a spare peg. */
const violating: SceneDescription = {
  bodies: [disk('small', 0.04, 0.01, '#b0b0b0', 0.07), disk('large', 0.07, 0.03, '#b0b0b0'), disk('peg-C', 0.01, 0.05, '#6d4c41', 0.2)],
  rulers: [],
  ground: { y: 0 },
};
const restored: SceneDescription = { ...violating, bodies: [violating.bodies[0], { ...violating.bodies[1], pose: { p: [-0.2, 0.01, 0], q: [0, 0, 0, 1] } }, violating.bodies[2]] };
const camera: CameraSpec = { azimuth: 0, elevation: 35, distance: 0.8, target: [0, 0.02, 0] };

const isCyanTint = (r: number, g: number, b: number): boolean => b > 150 && g > 130 && r < 140 && b - r > 50;
const isAmber = (r: number, g: number, b: number): boolean => r > 200 && g > 130 && g < 210 && b < 90;

describe('rollback images that explain (headless Chromium)', function () {
  this.timeout(120000);
  let renderer: Renderer;
  before(() => {
    renderer = new Renderer({ width: SIZE, height: SIZE });
  });
  after(async () => {
    await renderer.close();
  });

  it('a body made of several shapes is split for the picture so only the part at the contact is tinted', () => {
    const walls: SceneBody = {
      name: 'walls',
      shapes: [
        { type: 'box', half: [0.01, 0.05, 0.2], pose: { p: [-0.1, 0, 0], q: [0, 0, 0, 1] } },
        { type: 'box', half: [0.01, 0.05, 0.2], pose: { p: [0.1, 0, 0], q: [0, 0, 0, 1] } },
      ],
      pose: { p: [0, 0.05, 0], q: [0, 0, 0, 1] },
      color: '#999999',
      opacity: 1,
      visible: true,
    };
    const scene: SceneDescription = { bodies: [disk('rod', 0.02, 0.05, '#e08030'), walls], rulers: [] };
    const v: Violation = { kind: 'collision', bodies: ['rod', 'walls'], point: [0.09, 0.05, 0.01], message: "'rod' would touch 'walls'; the move was undone." };
    const out = narrowToContact(v, scene);
    expect(out.violation.bodies).to.deep.equal(['rod', 'walls~touched']);
    expect(out.violation.message).to.equal(v.message);
    const touched = out.scene.bodies.find((b) => b.name === 'walls~touched')!;
    const rest = out.scene.bodies.find((b) => b.name === 'walls')!;
    expect(touched.shapes).to.have.length(1);
    expect(touched.shapes[0].pose!.p[0]).to.equal(0.1);
    expect(rest.shapes).to.have.length(1);
    expect(rest.shapes[0].pose!.p[0]).to.equal(-0.1);
    // Without a contact point, or for a rule, the picture is left as it was.
    expect(narrowToContact({ ...v, point: undefined }, scene).scene).to.equal(scene);
    expect(narrowToContact({ ...v, kind: 'rule' }, scene).violation.bodies).to.deep.equal(['rod', 'walls']);
  });

  it('by default the first body is the moving one and the rest are "others"; the target and rule come from the violation', () => {
    const v: Violation = { kind: 'rule', bodies: ['large', 'small'], message: 'disk 2 may not rest on the smaller disk 1', rule: 'larger never on smaller', target: { body: 'peg-C' } };
    expect(rollbackHighlight(v)).to.deep.equal({ bodies: ['large'], others: ['small'], target: { body: 'peg-C' } });
    expect(rollbackTitle(v)).to.equal('VIOLATION: Rule broken (larger never on smaller)');
    const caption = rollbackCaption(v);
    expect(caption).to.match(/^Rule broken \(rule: larger never on smaller\)\. disk 2 may not rest/);
    expect(caption).to.match(/magenta: the part concerned; cyan tint: the other parts involved; amber tint: the target/);
    expect(rollbackHighlight({ kind: 'collision', bodies: ['a'], message: 'x' })).to.deep.equal({ bodies: ['a'] });
    // A body the picture does not draw (an invisible collider) cannot be marked; the caption says so.
    const hidden: SceneDescription = { ...violating, bodies: [...violating.bodies, { ...disk('collider', 0.05, 0, '#888888'), visible: false }] };
    const hit: Violation = { kind: 'collision', bodies: ['large', 'collider'], message: "'large' would touch 'collider'." };
    expect(rollbackHighlight(hit, hidden)).to.deep.equal({ bodies: ['large'] });
    expect(rollbackCaption(hit, hidden)).to.match(/a part involved is not drawn, so not marked\./);
    // Only the colours the picture shows: a tinted body outside the frame and a hidden magenta one leave the legend.
    const partly = rollbackCaption(v, undefined, { moved: () => false, tinted: (n) => n === 'peg-C' });
    expect(partly).to.match(/Left: the moment of the violation; amber tint: the target; tinted outlines show through what hides them\./);
    expect(partly).to.not.match(/magenta:|cyan/);
    // A body that is also the target is tinted amber only, and the legend promises no cyan.
    const onto: Violation = { ...v, target: { body: 'small' } };
    expect(rollbackHighlight(onto)).to.deep.equal({ bodies: ['large'], target: { body: 'small' } });
    expect(rollbackCaption(onto)).to.match(/magenta: the part concerned; amber tint: the target/);
    expect(rollbackCaption(onto)).to.not.match(/cyan/);
  });

  it('marks the moving disk magenta and the other tinted (so the two sizes can still be told), the target amber, and writes the caption under the picture', async () => {
    const v: Violation = { kind: 'rule', bodies: ['large', 'small'], point: [0, 0.02, 0], message: 'the large disk may not rest on the small one', target: { body: 'peg-C', point: [0.2, 0.09, 0] } };
    const caption = rollbackCaption(v);
    const png = await renderer.rollback(violating, restored, camera, rollbackHighlight(v), { left: rollbackTitle(v) }, { caption });
    const meta = await sharp(png).metadata();
    expect(meta.width).to.equal(2 * SIZE + 8);
    // The caption bar adds height under the two panels and their label bars.
    expect(meta.height).to.be.greaterThan(SIZE + 24 + 20);
    const img = await decodePng(png);
    const left: [number, number, number, number] = [0, 24, SIZE, 24 + SIZE];
    const right: [number, number, number, number] = [SIZE + 8, 24, 2 * SIZE + 8, 24 + SIZE];
    const magenta = findPixels(img, isHighlightPixel, left);
    const cyan = findPixels(img, isCyanTint, left);
    const amber = findPixels(img, isAmber, left);
    expect(magenta.count, 'moving disk').to.be.greaterThan(200);
    expect(cyan.count, 'the other disk, tinted').to.be.greaterThan(50);
    expect(amber.count, 'the target').to.be.greaterThan(20);
    // The small disk shows below the large one, in its own colour.
    expect(cyan.cy).to.be.greaterThan(magenta.cy);
    expect(findPixels(img, isCyanTint, right).count + findPixels(img, isAmber, right).count).to.equal(0);
    // Without a highlight the small disk is plain grey: the tint is the highlight's doing.
    const plain = await decodePng(await renderer.render(violating, camera));
    expect(findPixels(plain, isCyanTint).count).to.equal(0);
  });
});
