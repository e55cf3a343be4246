/**
 * The view rule through the family hook (`FamilyEnv.viewParts`, `tasks/view-rule.ts`): the same
 * check the check-suite runs over every family × tier, here on hand-built families whose first
 * view breaks it on purpose, and on a real family moved into a view that hides a part.
 */
import { expect } from 'chai';
import { Renderer } from '../render/renderer.ts';
import type { RulerSpec, Vec3 } from '../sim/types.ts';
import type { World } from '../sim/world.ts';
import { TaskEnv } from '../tasks/env.ts';
import { makeInstance } from '../tasks/instance.ts';
import { frameArrowBodies } from '../tasks/kits/held-part/markers.ts';
import { m1ChiralPeg } from '../tasks/manipulation/m1-chiral-peg/family.ts';
import { PLATE } from '../tasks/manipulation/m1-chiral-peg/scene.ts';
import type { FamilyEnv, Instance, TaskFamily, ViewDeclaration } from '../tasks/types.ts';
import { checkFirstView, undeclaredMessage } from '../tasks/view-rule.ts';
import { checkViewRule } from '../render/view-rule.ts';
import type { BodyMeasure, LabelMeasure, MeasureResult, ShapeMeasure } from '../render/renderer.ts';

/** A 60 cm ruler on the floor in front of the parts, labels every 10 cm. */
const RULER: RulerSpec = { from: [-0.3, 0.001, 0.15], to: [0.3, 0.001, 0.15] };

interface Layout {
  /** Where part-b stands (x); far right puts it half out of the frame. */
  partBx: number;
  /** A wall in front of the ruler's right half. */
  wall: boolean;
  /** The declaration the family makes (null: it declares nothing). */
  declare: ((s: Layout) => ViewDeclaration[]) | null;
  /** Where a working frame's three 5 cm axis arrows stand (`frame-x`, `-y`, `-z`), if anywhere. */
  arrowsAt?: Vec3;
}

/** A hand-built family: two parts, a ruler, and optionally a wall; one instance per layout. */
function family(layout: Layout): TaskFamily<Layout> {
  const descriptor = { id: 'P98', version: 1, category: 'P' as const, title: 'View rule check', summary: 'A hand-built scene for the view rule.', tiers: { L1: { levers: [], description: 'the only tier' } } };
  const box = (world: World, name: string, half: Vec3, p: Vec3, color: string): void => {
    world.addBody({ name, kind: 'static', pose: { p, q: [0, 0, 0, 1] }, shapes: [{ type: 'box', half }], color });
  };
  return {
    ...descriptor,
    generate: (seed, tier): Instance<Layout> =>
      makeInstance<Layout>(descriptor, tier, seed, {
        title: descriptor.title,
        rules: 'Look at part-a and part-b; read their places off the ruler.',
        tools: [],
        camera: { initial: { azimuth: 0, elevation: 30, distance: 1.4, target: [0, 0.05, 0] } },
        rulers: [RULER],
        ground: { y: 0 },
        dynamic: false,
        scoring: 'graded',
        scene: layout,
        reveal: { plan: 'none' },
      }),
    build(instance: Instance<Layout>, world: World): FamilyEnv {
      const s = instance.scene;
      box(world, 'part-a', [0.05, 0.05, 0.05], [-0.1, 0.05, -0.1], '#2e86de');
      box(world, 'part-b', [0.05, 0.05, 0.05], [s.partBx, 0.05, -0.1], '#27ae60');
      if (s.wall) box(world, 'wall', [0.1, 0.12, 0.01], [0.2, 0.12, 0.3], '#8d6e63');
      if (s.arrowsAt) for (const b of frameArrowBodies('frame', s.arrowsAt, [0, 0, 0, 1], 0.05)) world.addBody(b);
      const env: FamilyEnv = { tools: {}, solved: () => false, progress: () => 0, stateText: () => '' };
      if (s.declare) {
        const declare = s.declare;
        env.viewParts = () => declare(s);
      }
      return env;
    },
    reference: () => ({ calls: [], method: 'none' }),
  };
}

const BOTH_PARTS = (): ViewDeclaration[] => [{ bodies: [{ name: 'part-a', minPixels: 1500 }, { name: 'part-b', minPixels: 1500 }] }];

describe('the view rule on measurements (pure)', () => {
  const body = (name: string, pixels: number, bounds: [number, number, number, number]): BodyMeasure => ({
    name,
    drawn: true,
    pixels,
    bounds,
    cut: bounds[0] < 0 || bounds[1] < 0 || bounds[2] > 768 || bounds[3] > 768,
  });
  const m = (bodies: BodyMeasure[]): MeasureResult => ({ kind: 'measure', width: 768, height: 768, bodies, labels: [] });

  it('a part of several bodies adds their pixels up and is cut where any of them is', () => {
    const two = m([body('object-0', 150, [100, 100, 200, 200]), body('object-1', 150, [150, 150, 300, 300])]);
    expect(checkViewRule(two, { bodies: [{ name: 'object', group: ['object-0', 'object-1'], minPixels: 280 }] }).ok).to.equal(true);
    expect(checkViewRule(two, { bodies: [{ name: 'object', group: ['object-0', 'object-1'], minPixels: 320 }] }).failures.map((f) => f.kind)).to.deep.equal(['body-too-small']);
    const cut = m([body('object-0', 150, [100, 100, 200, 200]), body('object-1', 150, [150, 600, 300, 800])]);
    expect(checkViewRule(cut, { bodies: [{ name: 'object', group: ['object-0', 'object-1'] }] }).failures.map((f) => `${f.kind} ${f.subject}`)).to.deep.equal(['body-cut object']);
    expect(checkViewRule(m([body('object-0', 150, [0, 0, 1, 1])]), { bodies: [{ name: 'object', group: ['object-0', 'object-9'] }] }).failures[0].kind).to.equal('body-unknown');
  });

  it('a part may be allowed to run off named sides only', () => {
    const low = m([body('object', 5000, [100, 300, 400, 900])]);
    expect(checkViewRule(low, { bodies: [{ name: 'object', mayBeCut: ['bottom'] }] }).ok).to.equal(true);
    const high = m([body('object', 5000, [100, -20, 400, 900])]);
    const f = checkViewRule(high, { bodies: [{ name: 'object', mayBeCut: ['bottom'] }] }).failures;
    expect(f.map((x) => x.kind)).to.deep.equal(['body-cut']);
    expect(f[0].details.sides).to.deep.equal(['top']);
    expect(checkViewRule(high, { bodies: [{ name: 'object', mayBeCut: true }] }).ok).to.equal(true);
  });
});

describe('the view rule: arrows read one by one (pure, hand-built measurements)', () => {
  const shape = (alone: number, shown: number, extent: number, under: Partial<ShapeMeasure> = {}): ShapeMeasure => ({ alone, shown, underLabel: 0, underRuler: 0, underBody: 0, extent, ...under });
  const arrow = (shapes: ShapeMeasure[] | undefined): MeasureResult => ({
    kind: 'measure',
    width: 768,
    height: 768,
    bodies: [{ name: 'frame-z', drawn: true, pixels: 500, cut: false, bounds: [100, 100, 160, 130], ...(shapes ? { shapes } : {}) }],
    labels: [],
  });
  const kinds = (m: MeasureResult, head?: number[]): string[] => checkViewRule(m, { bodies: ['frame-z'], arrows: [{ body: 'frame-z', what: '+z', ...(head ? { head } : {}) }] }).failures.map((f) => `${f.kind} ${f.subject}`);

  it('an arrow passes with its head whole and most of its shaft in sight', () => {
    expect(kinds(arrow([shape(400, 300, 60, { underBody: 100 }), shape(200, 160, 25, { underLabel: 40 })]))).to.deep.equal([]);
  });

  it('a head a quarter under a label fails, and the message says what covers it', () => {
    const m = arrow([shape(400, 400, 60), shape(200, 140, 25, { underLabel: 60 })]);
    expect(kinds(m)).to.deep.equal(['arrow-head-hidden frame-z']);
    expect(checkViewRule(m, { bodies: ['frame-z'], arrows: [{ body: 'frame-z', what: '+z' }] }).failures[0].message).to.equal("arrow 'frame-z' (+z) shows 140 of its head's 200 pixels (60 under ruler labels); a head needs 75 % in sight");
  });

  it("a shaft more than half behind a ruler's marks fails; a head seen tip-on or a shaft seen end-on is too short", () => {
    expect(kinds(arrow([shape(400, 150, 60, { underRuler: 250 }), shape(200, 200, 25)]))).to.deep.equal(['arrow-shaft-hidden frame-z']);
    expect(kinds(arrow([shape(400, 400, 60), shape(20, 20, 6)]))).to.deep.equal(['arrow-too-short frame-z']);
    expect(kinds(arrow([shape(30, 30, 10), shape(60, 60, 10)]))).to.deep.equal(['arrow-too-short frame-z']);
  });

  it('a painted strip has no head: only its length counts; an arrow not measured shape by shape fails', () => {
    expect(kinds(arrow([shape(400, 390, 60)]), [])).to.deep.equal([]);
    expect(kinds(arrow([shape(400, 100, 60, { underLabel: 300 })]), [])).to.deep.equal(['arrow-shaft-hidden frame-z']);
    expect(kinds(arrow(undefined))).to.deep.equal(['arrow-unmeasured frame-z']);
  });
});

describe('the view rule: a hiding lever keeps its promise (pure, hand-built measurements)', () => {
  const body = (name: string, pixels: number, bounds: [number, number, number, number], extra: Partial<BodyMeasure> = {}): BodyMeasure => ({
    name,
    drawn: true,
    pixels,
    bounds,
    cut: bounds[0] < 0 || bounds[1] < 0 || bounds[2] > 768 || bounds[3] > 768,
    ...extra,
  });
  const label = (text: string, rect: [number, number, number, number], covers: Record<string, number> = {}): LabelMeasure => ({ ruler: 0, text, state: 'shown', rect, covers });
  const kinds = (v: { failures: { kind: string; subject: string }[] }): string[] => v.failures.map((f) => `${f.kind} ${f.subject}`);

  it('a compass letter shared with a piece fails, and so does a letter too small or half hidden', () => {
    const bodies = [body('compass-N', 300, [100, 100, 130, 140], { alonePixels: 300 }), body('vehicle-N-label', 300, [300, 300, 330, 340], { alonePixels: 300 }), body('vehicle-A-label', 300, [400, 300, 430, 340], { alonePixels: 300 })];
    const m: MeasureResult = { kind: 'measure', width: 768, height: 768, bodies, labels: [] };
    const names = bodies.map((b) => b.name);
    const piece = (text: string): { body: string; text: string; role: 'piece' } => ({ body: `vehicle-${text}-label`, text, role: 'piece' });
    const compass = { body: 'compass-N', text: 'N', role: 'compass' as const };
    expect(kinds(checkViewRule(m, { bodies: names, letters: [compass, piece('N'), piece('A')] }))).to.deep.equal(['letter-shared compass-N']);
    // The same lot with the vehicle lettered otherwise passes.
    expect(checkViewRule(m, { bodies: names, letters: [compass, { ...piece('A'), body: 'vehicle-N-label', text: 'O' }, piece('A')] }).ok).to.equal(true);
    // Flat on a wall top seen at a grazing angle: 30 px across but 5 px up reads as dashes.
    const flat: MeasureResult = { ...m, bodies: [body('compass-N', 300, [100, 100, 130, 105], { alonePixels: 300 })] };
    expect(kinds(checkViewRule(flat, { bodies: ['compass-N'], letters: [compass] }))).to.deep.equal(['letter-too-small compass-N']);
    // Small both ways: 10 × 12 px.
    const tiny: MeasureResult = { ...m, bodies: [body('compass-N', 300, [100, 100, 110, 112], { alonePixels: 300 })] };
    expect(kinds(checkViewRule(tiny, { bodies: ['compass-N'], letters: [compass] }))).to.deep.equal(['letter-too-small compass-N']);
    // More than half behind a wall: 280 of its 600 pixels show.
    const behind: MeasureResult = { ...m, bodies: [body('compass-N', 280, [100, 100, 130, 140], { alonePixels: 600 })] };
    expect(kinds(checkViewRule(behind, { bodies: ['compass-N'], letters: [compass] }))).to.deep.equal(['letter-hidden compass-N']);
  });

  it('a hiding lever that hides more than its tier text promises fails; a hidden letter goes with its piece', () => {
    const bodies = [body('crate-1', 0, [100, 100, 150, 150]), body('mark-1', 0, [200, 200, 250, 250]), body('mark-2', 0, [300, 300, 350, 350]), body('pusher', 900, [400, 400, 450, 450])];
    const m: MeasureResult = { kind: 'measure', width: 768, height: 768, bodies, labels: [] };
    const req = { bodies: ['crate-1', 'mark-1', 'mark-2', 'pusher'], hiddenBecause: '+occ: the walls hide a crate or a green cell', hiddenAtMost: 1 };
    expect(kinds(checkViewRule(m, { ...req, hidden: ['mark-1', 'mark-2', 'crate-1'] }))).to.deep.equal(["hidden-over-promise mark-1, mark-2, crate-1"]);
    expect(kinds(checkViewRule(m, { ...req, hidden: ['mark-1'] }))).to.deep.equal(['body-too-small crate-1', 'body-too-small mark-2']);
    const one: MeasureResult = { ...m, bodies: [body('crate-1', 900, [100, 100, 150, 150]), body('mark-1', 0, [200, 200, 250, 250]), body('mark-2', 900, [300, 300, 350, 350]), bodies[3]] };
    expect(checkViewRule(one, { ...req, hidden: ['mark-1'] }).ok).to.equal(true);
    // With no bound at all, hiding anything fails.
    const { hiddenAtMost: _bound, ...unbounded } = req;
    expect(kinds(checkViewRule(one, { ...unbounded, hidden: ['mark-1'] }))).to.deep.equal(['hidden-unbounded mark-1']);
    // A vehicle and the letter on it are one part.
    const lot: MeasureResult = { ...m, bodies: [body('vehicle-B', 0, [100, 100, 150, 150]), body('vehicle-B-label', 0, [110, 110, 130, 130], { alonePixels: 200 })] };
    const vehicle = { bodies: ['vehicle-B', 'vehicle-B-label'], hidden: ['vehicle-B', 'vehicle-B-label'], hiddenBecause: '+occ: the tall vehicle hides one', letters: [{ body: 'vehicle-B-label', text: 'B', role: 'piece' as const, piece: 'vehicle-B' }] };
    expect(checkViewRule(lot, { ...vehicle, hiddenAtMost: 1 }).ok).to.equal(true);
  });

});

describe('the view rule through the family hook (headless Chromium)', function () {
  this.timeout(180000);
  let renderer: Renderer;
  before(() => {
    renderer = new Renderer();
  });
  after(async () => {
    await renderer.close();
  });

  const verdictOf = async (layout: Layout): Promise<Awaited<ReturnType<typeof checkFirstView>>> => {
    const f = family(layout);
    const env = await TaskEnv.create(f as TaskFamily, f.generate(1, 'L1'));
    try {
      return await checkFirstView(env, renderer);
    } finally {
      env.free();
    }
  };

  it('a clean first view passes: both parts whole and large enough, every label of the ruler shown', async () => {
    const v = await verdictOf({ partBx: 0.2, wall: false, declare: BOTH_PARTS });
    expect(v.problems).to.deep.equal([]);
    expect(v.declared).to.equal(true);
    expect(v.views).to.have.length(1);
    expect(v.views[0].measurement.labels.filter((l) => l.state === 'shown').map((l) => l.text)).to.deep.equal(['0', '10 cm', '20 cm', '30 cm', '40 cm', '50 cm', '60 cm']);
  });

  it('a label behind a wall and a part outside the frame fail, each named, with the instance and the picture', async () => {
    const v = await verdictOf({ partBx: 0.62, wall: true, declare: BOTH_PARTS });
    expect(v.declared).to.equal(true);
    const kinds = v.views[0].verdict.failures.map((f) => `${f.kind} ${f.subject}`);
    expect(kinds).to.include('body-cut part-b');
    expect(kinds).to.include('label-occluded ruler 0 label "50 cm"');
    expect(v.problems.every((p) => p.startsWith('P98-L1-s1 first view: '))).to.equal(true);
    expect(v.problems.some((p) => /'part-b' is cut by the frame \(right\)/.test(p))).to.equal(true);
    // part-a is untouched by either fault.
    expect(kinds.some((k) => k.endsWith(' part-a'))).to.equal(false);
  });

  it('what the tier hides on purpose, with its reason, is exempt; a hidden ruler must not show its labels', async () => {
    const because = 'the wall of this tier hides it';
    const exempt = await verdictOf({ partBx: 0.62, wall: true, declare: () => [{ bodies: [{ name: 'part-a', minPixels: 1500 }, { name: 'part-b', minPixels: 1500 }], hidden: ['part-b'], hiddenBecause: because, hiddenAtMost: 1, scenery: ['wall'], rulers: [] }] });
    expect(exempt.problems).to.deep.equal([]);
    // The wall hides only part of the ruler: the labels left in sight give the hidden scale away.
    const hiddenRuler = await verdictOf({ partBx: 0.2, wall: true, declare: () => [{ bodies: [{ name: 'part-a', minPixels: 1500 }], scenery: ['wall', 'part-b'], hiddenRulers: [0], hiddenBecause: because }] });
    const kinds = hiddenRuler.views[0].verdict.failures.map((f) => f.kind);
    expect(kinds).to.include('hidden-label-shown');
    expect(kinds.filter((k) => k !== 'hidden-label-shown')).to.deep.equal([]);
  });

  it('a body declared hidden without a reason fails (a family cannot quietly exempt what it failed to frame)', async () => {
    const unexplained = await verdictOf({ partBx: 0.62, wall: true, declare: () => [{ bodies: [{ name: 'part-a', minPixels: 1500 }, { name: 'part-b', minPixels: 1500 }], hidden: ['part-b'], hiddenAtMost: 1, scenery: ['wall'], rulers: [] }] });
    expect(unexplained.views[0].verdict.failures.map((f) => `${f.kind} ${f.subject}`)).to.deep.equal(["hidden-unexplained 'part-b'"]);
    expect(unexplained.problems[0]).to.match(/^P98-L1-s1 first view: 'part-b' declared hidden without a reason: say in hiddenBecause/);
  });

  it('the rule is not opt-in: a drawn body left undeclared fails, named, even outside the frame', async () => {
    // part-b stands right of the frame and the family forgets it: the rule finds it anyway.
    const v = await verdictOf({ partBx: 0.9, wall: false, declare: () => [{ bodies: [{ name: 'part-a', minPixels: 1500 }] }] });
    const undeclared = v.views[0].verdict.failures.filter((f) => f.kind === 'body-undeclared');
    expect(undeclared.map((f) => f.subject)).to.deep.equal(['part-b']);
    expect(v.problems.join('\n')).to.match(/'part-b' is drawn \((outside the frame|\d+ pixels, cut by the frame)\) but not declared/);
    // Declared as scenery, it passes.
    const declared = await verdictOf({ partBx: 0.9, wall: false, declare: () => [{ bodies: [{ name: 'part-a', minPixels: 1500 }], scenery: ['part-b'] }] });
    expect(declared.problems).to.deep.equal([]);
  });

  it('a body seen through a translucent one counts as seen (a ghost outline over a mark)', async () => {
    const scene = {
      bodies: [
        { name: 'mark', shapes: [{ type: 'box' as const, half: [0.04, 0.002, 0.04] as Vec3 }], pose: { p: [0, 0.002, 0] as Vec3, q: [0, 0, 0, 1] as [number, number, number, number] }, color: '#111111', opacity: 1, visible: true },
        { name: 'ghost', shapes: [{ type: 'box' as const, half: [0.06, 0.06, 0.06] as Vec3 }], pose: { p: [0, 0.06, 0] as Vec3, q: [0, 0, 0, 1] as [number, number, number, number] }, color: '#6f86a6', opacity: 0.55, visible: true },
      ],
      rulers: [],
    };
    const camera = { azimuth: 0, elevation: 60, distance: 0.8, target: [0, 0, 0] as Vec3 };
    const seen = await renderer.measure(scene, camera);
    const pixels = (name: string, mm: MeasureResult): number => mm.bodies.find((b) => b.name === name)!.pixels;
    expect(pixels('mark', seen)).to.be.greaterThan(1000);
    expect(pixels('ghost', seen)).to.be.greaterThan(pixels('mark', seen));
    // The same box made opaque hides the mark.
    const covered = await renderer.measure({ ...scene, bodies: [scene.bodies[0], { ...scene.bodies[1], opacity: 1 }] }, camera);
    expect(pixels('mark', covered)).to.equal(0);
  });

  it("an axis arrow whose head lies under a ruler's label fails, though the arrow's body shows enough pixels; moved clear it passes", async () => {
    // The arrows are declared both ways: as bodies with a small minimum (the old check, which a
    // covered head passes) and as arrows to read (the new one).
    const declare = (): ViewDeclaration[] => [
      {
        bodies: [{ name: 'part-a', minPixels: 1500 }, { name: 'part-b', minPixels: 1500 }, ...['x', 'y', 'z'].map((a) => ({ name: `frame-${a}`, minPixels: 20 }))],
        scenery: ['frame-origin'],
        arrows: ['x', 'y', 'z'].map((a) => ({ body: `frame-${a}`, what: `+${a}` })),
      },
    ];
    // Hand-placed so that the ruler's "30 cm" plate lies over the +z arrow's head (and nothing else does).
    const covered = await verdictOf({ partBx: 0.2, wall: false, declare, arrowsAt: [0, 0.04, 0.1] });
    const failures = covered.views[0].verdict.failures;
    expect(failures.map((f) => `${f.kind} ${f.subject}`)).to.include('arrow-head-hidden frame-z');
    expect(failures.every((f) => f.kind.startsWith('arrow-') && f.subject === 'frame-z')).to.equal(true);
    const head = (failures.find((f) => f.kind === 'arrow-head-hidden')!.details.head as ShapeMeasure);
    expect(head.underLabel).to.be.greaterThan(head.alone / 2);
    expect(covered.problems.join('\n')).to.match(/arrow 'frame-z' \(\+z\) shows \d+ of its head's \d+ pixels \(\d+ under ruler labels\)/);
    // The same arrows on the floor in front of the ruler: every head and shaft in sight.
    const clear = await verdictOf({ partBx: 0.2, wall: false, declare, arrowsAt: [-0.02, 0.002, 0.2] });
    expect(clear.problems).to.deep.equal([]);
    for (const a of ['x', 'y', 'z']) {
      const b = clear.views[0].measurement.bodies.find((x) => x.name === `frame-${a}`)!;
      expect(b.shapes!.length).to.equal(2);
      expect(b.shapes![1].shown).to.be.at.least(0.75 * b.shapes![1].alone);
    }
  });

  it('a family that declares nothing (or no bodies) fails, and the message says what to declare', async () => {
    for (const declare of [null, () => [], () => [{ bodies: [] }]] as Layout['declare'][]) {
      const v = await verdictOf({ partBx: 0.2, wall: false, declare });
      expect(v.declared).to.equal(false);
      expect(v.views).to.deep.equal([]);
      expect(v.problems).to.deep.equal([`P98-L1-s1: ${undeclaredMessage('P98')}`]);
    }
    const msg = undeclaredMessage('P98');
    for (const word of ['viewParts', 'episode.ts', 'minPixels', 'hidden', 'hiddenRulers', 'rulers', 'AUTHORING.md']) expect(msg).to.contain(word);
  });

  it('a part that stands where the rules mention it but too small fails: a real family whose peg hides a hole (M1)', async () => {
    const instance = m1ChiralPeg.generate(100, 'L7');
    const env = await TaskEnv.create(m1ChiralPeg as TaskFamily, instance);
    try {
      expect((await checkFirstView(env, renderer)).problems).to.deep.equal([]);
      // Hold the peg low over hole 1, as a start the generator refuses would: the hole is hidden.
      const h = instance.scene.holes[0];
      env.world.setPose('peg', { p: [h.x, PLATE.top + 0.045, h.z], q: instance.scene.start.q });
      const v = await checkFirstView(env, renderer);
      expect(v.views[0].verdict.failures.map((f) => `${f.kind} ${f.subject}`)).to.include('body-too-small hole-rim-1');
    } finally {
      env.free();
    }
  });
});
