import { expect } from 'chai';
import { MOVING_KINDS, OBSTACLE_KINDS, runSweepFuzz } from './support/sweep-fuzz.ts';

// A fast sample of the property-based sweep check (`npm run fuzz` judges 100 000): every shape
// pair, every kind of path (through the core, offset, grazing, starting in overlap).
describe('sim: swept motion against an independent oracle (fast sample)', () => {
  it('no tunnel, no last free pose inside, verdicts within 0.1 mm, start-in-overlap honoured — every shape pair', async () => {
    const count = MOVING_KINDS.length * OBSTACLE_KINDS.length * 4 * 3;
    const { pairs, failures, judged } = await runSweepFuzz({ count, seed: 20261201 });
    expect(judged).to.equal(count);
    expect(Object.keys(pairs)).to.have.length(MOVING_KINDS.length * OBSTACLE_KINDS.length);
    for (const [pair, f] of Object.entries(pairs)) {
      expect(f.judged, pair).to.equal(12);
      expect({ pair, tunnels: f.tunnels, inside: f.inside, distanceErrors: f.distanceErrors, contactErrors: f.contactErrors, overlapErrors: f.overlapErrors }, JSON.stringify(failures.filter((x) => x.pair === pair))).to.deep.equal({
        pair,
        tunnels: 0,
        inside: 0,
        distanceErrors: 0,
        contactErrors: 0,
        overlapErrors: 0,
      });
    }
    // The sample did exercise hits and starts in overlap.
    const total = Object.values(pairs).reduce((a, f) => ({ hits: a.hits + f.hits, overlapStarts: a.overlapStarts + f.overlapStarts }), { hits: 0, overlapStarts: 0 });
    expect(total.hits).to.be.greaterThan(100);
    expect(total.overlapStarts).to.be.greaterThan(50);
  });
});
