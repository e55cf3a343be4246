import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import { RunProgress } from '../report/progress.ts';
import { entry } from './support/report-run.ts';

/** A stream that records what is written and may claim to be a terminal. */
function stream(tty: boolean): PassThrough & { isTTY?: boolean; columns?: number; text(): string } {
  const s = new PassThrough() as PassThrough & { isTTY?: boolean; columns?: number; text(): string };
  let buf = '';
  s.on('data', (d: Buffer) => (buf += d.toString()));
  s.isTTY = tty;
  s.columns = 200;
  s.text = () => buf;
  return s;
}

const turn = (inputTokens: number, outputTokens: number, cost?: number) => ({
  reply: { rationale: '', note: '', actions: [], usage: { inputTokens, outputTokens, ...(cost !== undefined ? { cost } : {}) } },
});

describe('run progress line', () => {
  it('draws episodes, success, turns, tokens and cost on a terminal, with logged lines above it', () => {
    const err = stream(true);
    const out = stream(true);
    const p = new RunProgress(4, { stream: err, out });
    expect(p.live).to.equal(true);
    p.turnDone(turn(1500, 40, 0.01), 'P6-L1-s100');
    expect(p.describe()).to.equal('0/4 episodes | P6-L1-s100 turn 1 | solved 0/0 | 1 turn | tokens 1.5k in, 40 out | $0.01');
    p.log('P6-L1-s100 solved');
    // The finished episode's entry replaces what its turns added.
    p.episodeDone(entry('P6-L1-s100', { solved: true, turns: 2, inputTokens: 3000, outputTokens: 90, cost: 0.02 }));
    p.episodeDone(entry('P6-L3-s100', { solved: false, turns: 5, inputTokens: 20000, outputTokens: 300, cost: 0.1 }));
    expect(p.describe()).to.equal('2/4 episodes | solved 1/2 (50%) | 7 turns | tokens 23k in, 390 out | $0.12');
    p.close();
    p.close();
    const drawn = err.text();
    expect(drawn).to.include('P6-L1-s100 solved\n');
    expect(drawn).to.include('2/4 episodes | solved 1/2 (50%)');
    expect(drawn).to.match(/\u001b\[/); // redrawn in place with terminal controls
    expect(out.text()).to.equal('');
  });

  it('stays silent when its output is not a terminal, printing logged lines plainly', () => {
    for (const [errTty, outTty] of [
      [false, false],
      [true, false],
      [false, true],
    ]) {
      const err = stream(errTty);
      const out = stream(outTty);
      const p = new RunProgress(2, { stream: err, out });
      expect(p.live).to.equal(false);
      p.turnDone(turn(10, 1));
      p.log('line one');
      p.episodeDone(entry('P6-L1-s100', { solved: true }));
      p.log('line two\n');
      p.close();
      expect(err.text()).to.equal('');
      expect(out.text()).to.equal('line one\nline two\n');
      expect(p.snapshot()).to.include({ done: 1, solved: 1 });
    }
  });
});
