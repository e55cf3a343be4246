import { expect } from 'chai';
import { CALIBRATION_TOLERANCE, runCalibration, type CalibrationResult } from '../sim/calibration.ts';

describe('sim: calibration against analytic mechanics', () => {
  let results: CalibrationResult[];
  before(async () => {
    results = await runCalibration();
  });

  it('covers free fall at 0.25 s steps, the incline, the overhang and the pendulum', () => {
    expect(results.filter((r) => r.scene === 'free-fall').map((r) => r.case)).to.deep.equal(['t = 0.25 s', 't = 0.50 s', 't = 0.75 s', 't = 1.00 s']);
    expect(results.filter((r) => r.scene === 'incline')).to.have.length(2);
    expect(results.filter((r) => r.scene === 'overhang')).to.have.length(3);
    expect(results.filter((r) => r.scene === 'pendulum')).to.have.length(1);
    expect(results.filter((r) => r.scene === 'group-turn')).to.have.length(1);
    expect(results.filter((r) => r.scene === 'gear-pair')).to.have.length(1);
    expect(results.filter((r) => r.scene === 'prismatic')).to.have.length(2);
    expect(results.filter((r) => r.scene === 'lateral-push')).to.have.length(3);
  });

  it('every quantity is within 2 % of the analytic value', () => {
    for (const r of results) {
      if (r.relError !== null) expect(r.relError, `${r.scene} ${r.case}`).to.be.at.most(CALIBRATION_TOLERANCE);
      expect(r.pass, `${r.scene} ${r.case}`).to.equal(true);
    }
  });

  it('a block sticks below atan μ and slips above it', () => {
    const [below, above] = results.filter((r) => r.scene === 'incline');
    expect(Math.abs(below.measured)).to.be.lessThan(0.001);
    expect(above.measured).to.be.greaterThan(0.1);
  });

  it('the harmonic stack stands at 95 % and falls at 105 % of the critical overhang', () => {
    const [at95, at105] = results.filter((r) => r.scene === 'overhang');
    expect(at95.detail).to.match(/^stands/);
    expect(at105.detail).to.match(/^falls/);
    expect(at95.measured).to.be.lessThan(at95.expected);
    expect(at105.measured).to.be.greaterThan(at105.expected);
  });

  it('the pendulum follows the physical-pendulum formula, not the point-mass one', () => {
    const [p] = results.filter((r) => r.scene === 'pendulum');
    const pointMass = 2 * Math.PI * Math.sqrt(0.5 / 9.81);
    expect(Math.abs(p.measured - pointMass) / pointMass).to.be.greaterThan(0.1);
  });
});
