/**
 * `TaskEnv.create(…, { images: false })`: the adaptive agents' candidate worlds record no strobe
 * frames and keep no rollback scenes. Nothing an agent can read may differ from a drawn world:
 * the same statuses, messages, state hashes and world time after every call.
 */
import { expect } from 'chai';
import { probesOf } from '../agents/sightless/adaptive.ts';
import { SAMPLE_SEED_BASE } from '../agents/sightless/simulate.ts';
import { SpaceActError } from '../core/errors.ts';
import { Rng } from '../core/rng.ts';
import { TaskEnv } from '../tasks/env.ts';
import { getFamily } from '../tasks/registry.ts';
import { sightlessView } from '../tasks/sightless.ts';

describe('an environment opened without images', function () {
  this.timeout(300_000);

  for (const [id, tier] of [['P1', 'L1'], ['M2', 'L1'], ['T1', 'L1'], ['T6', 'L1']] as const) {
    it(`plays ${id}-${tier} exactly as a drawn one, refusals included`, async () => {
      const family = getFamily(id);
      const instance = family.generate(SAMPLE_SEED_BASE + 3, tier);
      const probes = sightlessView(instance).tools.flatMap(probesOf);
      expect(probes.length).to.be.greaterThan(2);
      const calls = new Rng(`without-images-${id}`).shuffle([...probes, ...probes, ...probes]).slice(0, 16);
      const drawn = await TaskEnv.create(family, instance);
      const blind = await TaskEnv.create(family, instance, { images: false });
      try {
        expect(blind.drawsImages).to.equal(false);
        expect(blind.stateHash()).to.equal(drawn.stateHash());
        const statuses = new Set<string>();
        for (const [k, call] of calls.entries()) {
          const a = drawn.execute(call);
          const b = blind.execute(call);
          expect([b.status, b.message, b.timeBefore, b.timeAfter], `call ${k}`).to.deep.equal([a.status, a.message, a.timeBefore, a.timeAfter]);
          expect(blind.stateHash(), `state after call ${k}`).to.equal(drawn.stateHash());
          expect(blind.preview(call).result.message).to.equal(drawn.preview(call).result.message);
          statuses.add(a.status);
          if (drawn.terminated) break;
        }
        // Refusals ran too, on both sides (every family above refuses some of its probes).
        expect([...statuses].some((s) => s !== 'ok'), [...statuses].join(',')).to.equal(true);
        // Drawing it is a clear error, not a picture of nothing.
        expect(() => blind.strobeScenes()).to.throw(SpaceActError, /images: false/);
        let err: unknown = null;
        await blind.observation({ renderer: null, images: true }).catch((e: unknown) => (err = e));
        expect(err).to.be.instanceOf(SpaceActError);
        expect((err as SpaceActError).code).to.equal('invalid-state');
        // Without images it still observes: time and read-out, as the sightless loop asks.
        expect((await blind.observation({ renderer: null, images: false })).worldTime).to.equal(blind.time);
      } finally {
        drawn.free();
        blind.free();
      }
    });
  }
});
