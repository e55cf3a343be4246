import { expect } from 'chai';
import { scoreEpisode, SOLVED_MIN, UNSOLVED_MAX, type ScoreInput } from '../agents/scoring.ts';

const base: ScoreInput = { solved: true, abandoned: false, actions: 7, referenceActions: 7, progress: 1, scoring: 'graded' };

describe('scoring (hand-built episode records)', () => {
  it('a solved episode at the reference action count scores 100', () => {
    expect(scoreEpisode(base)).to.deep.equal({ score: 100, graded: true, band: 'solved' });
  });

  it('a solved episode with fewer actions than the reference still scores 100, not more', () => {
    expect(scoreEpisode({ ...base, actions: 5 }).score).to.equal(100);
  });

  it('solved scores fall towards 40 as actions grow and never leave 40..100', () => {
    const twice = scoreEpisode({ ...base, actions: 14 }).score!;
    const many = scoreEpisode({ ...base, actions: 7000 }).score!;
    expect(twice).to.equal(70);
    expect(many).to.be.at.least(SOLVED_MIN).and.below(41);
    let last = 101;
    for (let a = 7; a < 60; a++) {
      const s = scoreEpisode({ ...base, actions: a }).score!;
      expect(s).to.be.at.most(last);
      last = s;
    }
  });

  it('unsolved episodes score 0..35 from the progress measure', () => {
    expect(scoreEpisode({ ...base, solved: false, progress: 0 })).to.deep.equal({ score: 0, graded: true, band: 'unsolved' });
    expect(scoreEpisode({ ...base, solved: false, progress: 1 }).score).to.equal(UNSOLVED_MAX);
    expect(scoreEpisode({ ...base, solved: false, progress: 0.5 }).score).to.equal(17.5);
  });

  it('a broken progress value cannot push an unsolved score out of range', () => {
    expect(scoreEpisode({ ...base, solved: false, progress: 7 }).score).to.equal(UNSOLVED_MAX);
    expect(scoreEpisode({ ...base, solved: false, progress: -1 }).score).to.equal(0);
    expect(scoreEpisode({ ...base, solved: false, progress: NaN }).score).to.equal(0);
  });

  it('pass/fail families get no graded score, only pass or fail', () => {
    expect(scoreEpisode({ ...base, scoring: 'passfail' })).to.deep.equal({ score: null, graded: false, band: 'pass' });
    expect(scoreEpisode({ ...base, scoring: 'passfail', solved: false, progress: 0.9 })).to.deep.equal({ score: null, graded: false, band: 'fail' });
  });

  it('abandoned episodes score 0 and are marked, whatever their progress', () => {
    expect(scoreEpisode({ ...base, solved: false, abandoned: true, progress: 0.9 })).to.deep.equal({ score: 0, graded: true, band: 'abandoned' });
    expect(scoreEpisode({ ...base, abandoned: true, scoring: 'passfail' })).to.deep.equal({ score: null, graded: false, band: 'abandoned' });
  });
});
