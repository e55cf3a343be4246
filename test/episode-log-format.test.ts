import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EpisodeLog, LOG_FORMAT } from '../agents/episode-log.ts';
import { DEFAULT_MODE } from '../agents/modes.ts';
import { runInstances } from '../agents/runner.ts';
import { NullAgent } from '../agents/null.ts';
import { SpaceActError } from '../core/errors.ts';
import { loadRun } from '../report/run-data.ts';

describe('episode log format version', () => {
  let tmp = '';
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'spaceact-logfmt-'));
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  function writeLog(format: unknown): EpisodeLog {
    const log = new EpisodeLog(tmp, 'P6-L1-s100');
    mkdirSync(log.dir, { recursive: true });
    const header = { type: 'header', format, instance: { id: 'P6-L1-s100', digest: 'd' }, agent: { name: 'null', settings: {} }, mode: 'default' };
    writeFileSync(log.file, JSON.stringify(header) + '\n');
    return log;
  }

  it('reads its own format', () => {
    expect(writeLog(LOG_FORMAT).read().header?.format).to.equal(LOG_FORMAT);
  });

  it('refuses an unknown format clearly, naming the file and both versions', () => {
    const log = writeLog(LOG_FORMAT + 1);
    expect(() => log.read()).to.throw(SpaceActError, new RegExp(`format ${LOG_FORMAT + 1}.*reads format ${LOG_FORMAT} only`));
    expect(() => writeLog(undefined).read()).to.throw(SpaceActError, /format null/);
  });

  it('a run will not resume over it, and the report names it as a problem', async () => {
    writeLog(LOG_FORMAT + 1);
    writeFileSync(join(tmp, 'summary.json'), JSON.stringify({ agent: { name: 'null', settings: {} }, mode: 'default', episodes: [], unfinished: ['P6-L1-s100'] }));
    const run = loadRun(tmp);
    expect(run.episodes[0].problems.join(' ')).to.match(/could not be read: .*format/);
    let err: unknown = null;
    try {
      await runInstances({ instances: ['P6-L1-s100'], makeAgent: () => new NullAgent(), mode: DEFAULT_MODE, out: tmp, render: 'never' });
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(SpaceActError);
    expect((err as Error).message).to.match(/reads format/);
  });
});
