import { expect } from 'chai';
import { modeName, parseMode } from '../agents/modes.ts';
import { applyCameraTool } from '../tasks/camera-tools.ts';
import { assertInstance, toolCallProblems } from '../tasks/instance-schema.ts';
import { parseInstanceId } from '../core/catalog.ts';
import { families, familyAndInstanceFromId } from '../tasks/registry.ts';
import { referenceSolution } from '../tasks/reference-cache.ts';
import { Rng } from '../core/rng.ts';
import { SpaceActError } from '../core/errors.ts';

describe('task framework', () => {
  it('seeded generators repeat exactly and differ by key', () => {
    const a = new Rng('P6/L3/100');
    const b = new Rng('P6/L3/100');
    const c = new Rng('P6/L3/101');
    const xa = Array.from({ length: 20 }, () => a.nextUint32());
    expect(Array.from({ length: 20 }, () => b.nextUint32())).to.deep.equal(xa);
    expect(Array.from({ length: 20 }, () => c.nextUint32())).to.not.deep.equal(xa);
  });

  it('instance ids parse, and malformed ones give a clear error', () => {
    expect(parseInstanceId('P6-L3-s100')).to.deep.equal({ family: 'P6', tier: 'L3', seed: 100 });
    for (const bad of ['P6-L2-s100', 'P6_L3_s1', '../../etc', 'P6-L3-s-1', '']) {
      expect(() => parseInstanceId(bad)).to.throw(SpaceActError);
    }
    expect(() => familyAndInstanceFromId('Z9-L1-s1')).to.throw(/unknown family/);
  });

  it('every registered family generates schema-valid instances', () => {
    for (const f of families()) {
      for (const tier of Object.keys(f.tiers) as Array<'L1'>) assertInstance(f.generate(100, tier));
    }
  });

  it('a broken instance file is refused with every problem listed', () => {
    const { instance } = familyAndInstanceFromId('P6-L1-s100');
    const broken = { ...instance, budgets: { turns: 0, actionsPerTurn: 9 }, extra: 1 } as unknown;
    try {
      assertInstance(broken);
      expect.fail('accepted a broken instance');
    } catch (err) {
      expect(err).to.be.instanceOf(SpaceActError);
      const problems = (err as SpaceActError).details.problems as string[];
      expect(problems.join('\n')).to.match(/turns/).and.match(/actionsPerTurn/).and.match(/extra/);
    }
  });

  it('tool calls are checked against the tool list and argument schemas, NaN and Infinity included', () => {
    const { instance } = familyAndInstanceFromId('P6-L1-s100');
    expect(toolCallProblems(instance.tools, { tool: 'move', args: { from: 'A', to: 'B' } })).to.deep.equal([]);
    expect(toolCallProblems(instance.tools, { tool: 'fly', args: {} })[0]).to.match(/unknown tool "fly"/);
    expect(toolCallProblems(instance.tools, { tool: 'move', args: { from: 'A' } })[0]).to.match(/to/);
    expect(toolCallProblems(instance.tools, { tool: 'move', args: { from: 'A', to: 'B', x: 1 } })[0]).to.match(/unexpected field "x"/);
    expect(toolCallProblems(instance.tools, { tool: 'zoom', args: { factor: NaN } })[0]).to.match(/finite/);
    expect(toolCallProblems(instance.tools, { tool: 'zoom', args: { factor: Infinity } })[0]).to.match(/finite/);
    expect(toolCallProblems(instance.tools, { tool: 'zoom', args: { factor: 1e300 } })[0]).to.match(/<= 4/);
    expect(toolCallProblems(instance.tools, 'move')[0]).to.match(/object/);
  });

  it('camera tools stay within limits and say so', () => {
    const { instance } = familyAndInstanceFromId('P6-L1-s100');
    const cam = instance.camera.initial;
    const up = applyCameraTool(cam, instance.camera, 'orbit', { elevation_deg: 170 });
    expect(up.camera.elevation).to.equal(90);
    expect(up.message).to.match(/limited/);
    const round = applyCameraTool(applyCameraTool(cam, instance.camera, 'orbit', { azimuth_deg: 90 }).camera, instance.camera, 'orbit', { azimuth_deg: -90 });
    expect(round.camera.azimuth).to.equal(cam.azimuth);
    const far = applyCameraTool(cam, instance.camera, 'zoom', { factor: 0.25 });
    const farther = applyCameraTool(far.camera, instance.camera, 'zoom', { factor: 0.25 });
    expect(farther.camera.distance).to.equal(cam.distance * 4);
    expect(farther.message).to.match(/limit/);
    const reset = applyCameraTool(farther.camera, instance.camera, 'view', { name: 'initial' });
    expect(reset.camera).to.deep.equal(cam);
  });

  it('a reference solution is computed once per exact instance', async () => {
    const { family, instance: generated } = familyAndInstanceFromId('P6-L1-s100');
    // A copy no other test has asked about (the cache is per process).
    const instance = { ...generated, budgets: { turns: 77, actionsPerTurn: 5 } };
    let calls = 0;
    const counting = { ...family, reference: (i: typeof instance) => { calls++; return family.reference(i); } };
    const a = await referenceSolution(counting, instance);
    const b = await referenceSolution(counting, structuredClone(instance));
    expect(b).to.equal(a);
    expect(calls).to.equal(1);
    // An altered copy under the same id is a different instance.
    await referenceSolution(counting, { ...instance, budgets: { turns: 3, actionsPerTurn: 5 } });
    expect(calls).to.equal(2);
  });

  it('modes parse, combine, and reject unknown names', () => {
    expect(modeName(parseMode('default'))).to.equal('default');
    const m = parseMode('state+nosplit');
    expect(m.plan && m.state && m.nosplit).to.equal(true);
    expect(modeName(m)).to.equal('state+nosplit');
    expect(modeName(parseMode('+plan,cap1'))).to.equal('plan+cap1');
    expect(() => parseMode('plan+telepathy')).to.throw(/unknown mode "telepathy"/);
  });
});
