import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EpisodeLog, LogDamageError } from '../agents/episode-log.ts';
import { parseMode } from '../agents/modes.ts';
import { ReferenceAgent } from '../agents/reference.ts';
import { runInstances, type RunOptions, type RunSummary } from '../agents/runner.ts';
import { NullAgent } from '../agents/null.ts';
import { FIXTURE_INSTANCES_DIR, fixtureInstanceIds } from '../tasks/suites.ts';
import { referenceScript, ScriptedOpenAIServer } from './support/openai-server.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'bin', 'spaceact.mjs');
const ID = 'P6-L1-s100';
/** One call per turn: the reference takes 7 turns, so a log has 9 lines (header, 7 turns, end). */
const CAP1 = parseMode('cap1');

function lines(file: string): string[] {
  return readFileSync(file, 'utf8').split('\n').slice(0, -1);
}

describe('episode logs: every line checked, damage never silently loses turns', function () {
  this.timeout(300_000);
  let tmp: string;
  let n = 0;
  let clean: RunSummary;

  const run = (out: string, over: Partial<RunOptions> = {}): Promise<RunSummary> =>
    runInstances({ instances: [ID], makeAgent: () => new ReferenceAgent(), mode: CAP1, out, render: 'never', ...over });

  /** A finished reference run in a fresh folder; returns the folder and its log file. */
  async function finished(): Promise<{ out: string; file: string }> {
    const out = join(tmp, `run-${++n}`);
    await run(out);
    return { out, file: new EpisodeLog(out, ID).file };
  }

  /** Runs `fn`, returning what it threw. */
  async function thrown(fn: () => Promise<unknown>): Promise<Error> {
    try {
      await fn();
    } catch (err) {
      return err as Error;
    }
    throw new Error('expected an error');
  }

  before(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'spaceact-logs-'));
    clean = await run(join(tmp, 'clean'));
    expect(lines(new EpisodeLog(join(tmp, 'clean'), ID).file)).to.have.length(9);
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  for (const where of [
    { name: 'in the middle', line: 5, kept: 'the header and 3 turns' },
    { name: 'at the header', line: 1, kept: 'nothing: the episode starts afresh' },
    { name: 'at the end line', line: 9, kept: 'the header and 7 turns' },
  ]) {
    it(`a damaged line ${where.name} stops the run naming file and line, changes nothing; --repair cuts there, says so, keeps a copy`, async () => {
      const { out, file } = await finished();
      const all = lines(file);
      all[where.line - 1] = all[where.line - 1].slice(0, 40) + '#garbage';
      const damaged = all.map((l) => `${l}\n`).join('');
      writeFileSync(file, damaged);
      const summaryBefore = readFileSync(join(out, 'summary.json'), 'utf8');

      const err = await thrown(() => run(out));
      expect(err).to.be.instanceOf(LogDamageError);
      expect(err.message).to.include(`${file} line ${where.line} is damaged: not valid JSON`);
      expect(err.message).to.include(`keep the ${where.line - 1} good line`);
      expect(err.message).to.include(`the ${9 - where.line} line${9 - where.line === 1 ? '' : 's'} after it`);
      expect(readFileSync(file, 'utf8')).to.equal(damaged);
      expect(readFileSync(join(out, 'summary.json'), 'utf8')).to.equal(summaryBefore);

      const notices: string[] = [];
      const repaired = await run(out, { repair: true, onNotice: (m) => notices.push(m) });
      expect(notices.join('\n')).to.include(`line ${where.line} is damaged`);
      expect(notices.join('\n')).to.include(`dropped lines ${where.line}–9 (${10 - where.line} line${10 - where.line === 1 ? '' : 's'})`);
      expect(notices.join('\n')).to.include(where.kept);
      expect(readFileSync(`${file}.damaged-1`, 'utf8')).to.equal(damaged);
      // The episode continued from the kept turns and ended as the clean run did.
      expect(repaired.episodes).to.deep.equal(clean.episodes);
      expect(lines(file)).to.have.length(9);
      expect(() => new EpisodeLog(out, ID).read()).to.not.throw();
    });
  }

  it('a turn line without its images, or out of order, is damage (not a crash)', async () => {
    const { out, file } = await finished();
    const all = lines(file);
    const turn2 = JSON.parse(all[2]) as Record<string, unknown>;
    delete turn2.images;
    all[2] = JSON.stringify(turn2);
    writeFileSync(file, all.map((l) => `${l}\n`).join(''));
    expect((await thrown(() => run(out))).message).to.include('line 3 is damaged: turn 2 without its image list');
    const swapped = lines(new EpisodeLog(join(tmp, 'clean'), ID).file);
    [swapped[2], swapped[3]] = [swapped[3], swapped[2]];
    writeFileSync(file, swapped.map((l) => `${l}\n`).join(''));
    expect((await thrown(() => run(out))).message).to.include('line 3 is damaged: turn number 3 where turn 2 was due');
  });

  it('a last line cut short with no line break (a killed write) is dropped with a notice, and the episode continues', async () => {
    const { out, file } = await finished();
    const all = lines(file);
    // An unfinished log whose last write was torn: header, 3 turns, half of turn 4.
    writeFileSync(file, all.slice(0, 4).map((l) => `${l}\n`).join('') + all[4].slice(0, all[4].length / 2));
    const notices: string[] = [];
    const again = await run(out, { onNotice: (m) => notices.push(m) });
    expect(notices.join('\n')).to.match(/dropped line 5, cut short with no line break .*the turn in flight/);
    expect(again.episodes).to.deep.equal(clean.episodes);
  });

  it('a report stays small whatever a log holds: 3 × 20 MiB texts in a hand-made log', async () => {
    const { out, file } = await finished();
    const all = lines(file);
    const huge = 'z'.repeat(20 * 1024 * 1024);
    for (const i of [1, 2, 3]) {
      const t = JSON.parse(all[i]) as { reply: { raw?: string; requests?: unknown[] } };
      t.reply.raw = huge;
      t.reply.requests = [{ attempt: 1, digest: 'x', apiRetries: 0, raw: huge, problems: [huge] }];
      all[i] = JSON.stringify(t);
    }
    writeFileSync(file, all.map((l) => `${l}\n`).join(''));
    const { writeReport } = await import('../report/html.ts');
    const report = await writeReport(out);
    const size = readFileSync(report).length;
    expect(size).to.be.lessThan(1024 * 1024);
    expect(readFileSync(report, 'utf8')).to.include(`[${huge.length} characters in all; the rest is in the log]`);
  });

  it('summaries merge every episode of the folder; another agent in the same folder is refused', async () => {
    const out = join(tmp, 'merge');
    await run(out);
    const second = await run(out, { instances: ['P6-L3-s100'] });
    expect(second.episodes.map((e) => e.instance)).to.deep.equal(['P6-L3-s100', ID]);
    expect(second.totals.episodes).to.equal(2);
    const third = await run(out);
    expect(third.episodes.map((e) => e.instance)).to.deep.equal([ID, 'P6-L3-s100']);
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).totals.episodes).to.equal(2);
    const other = await thrown(() => run(out, { instances: ['P6-L5-s100'], makeAgent: () => new NullAgent() }));
    expect(other.message).to.match(/holds episodes of another run \(P6-L1-s100: agent reference, mode cap1; this run: agent null/);
  });

  it('fixtures are read by content: stray files under fixtures/instances/ add no instance', () => {
    const root = join(tmp, 'fixtures');
    cpSync(join(FIXTURE_INSTANCES_DIR, 'P6'), join(root, 'P6'), { recursive: true });
    const real = fixtureInstanceIds('P6', root);
    expect(real).to.deep.equal(fixtureInstanceIds('P6'));
    const p6 = join(root, 'P6');
    writeFileSync(join(p6, 'P6-L1-s100.json'), '{"note": "not a fixture"}');
    writeFileSync(join(p6, 'P6-L1-s101.json'), 'garbage');
    cpSync(join(p6, `${real[0]}.json`), join(p6, 'P6-L1-s102.json'));
    mkdirSync(join(p6, 'P6-L1-s103.json'));
    writeFileSync(join(p6, `${real[0]}.json.bak`), readFileSync(join(p6, `${real[0]}.json`)));
    expect(fixtureInstanceIds('P6', root)).to.deep.equal(real);
  });
});

describe('episode logs under kill -9: a loop of kills loses at most the turn in flight each time', function () {
  // Six command-line starts in a row: slow on a loaded machine.
  this.timeout(900_000);
  const KEY = 'sk-Ki11-fake-Pq7Rs3Tu5Vw1';
  const LONG = 'P6-L3-s100';
  let server: ScriptedOpenAIServer;
  let tmp: string;

  before(async () => {
    server = await ScriptedOpenAIServer.start(referenceScript([LONG]), { apiKey: KEY });
    tmp = mkdtempSync(join(tmpdir(), 'spaceact-kill-'));
  });
  after(async () => {
    await server.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  function cli(out: string): { child: ChildProcess; done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> } {
    const args = ['run', '--agent', 'openai', '--base-url', server.url, '--model', 'scripted', '--api-key-env', 'SPACEACT_KILL_KEY', '--instance', LONG, '--mode', 'blind+cap1', '--out', out, '--no-report'];
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...process.env, SPACEACT_KILL_KEY: KEY }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    return { child, done: new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stderr }))) };
  }

  const turnsIn = (out: string): number => {
    const file = new EpisodeLog(out, LONG).file;
    return existsSync(file) ? new EpisodeLog(out, LONG).read().turns.length : 0;
  };

  it('kills at startup and after 1–3 new turns, then a clean finish: every recorded turn survives, and the summary equals an uninterrupted run', async () => {
    const whole = await cli(join(tmp, 'whole')).done;
    expect(whole.code, whole.stderr).to.equal(0);
    const wholeSummary = JSON.parse(readFileSync(join(tmp, 'whole', 'summary.json'), 'utf8')) as RunSummary;
    const total = wholeSummary.episodes[0].turns;
    expect(total).to.equal(15);

    const out = join(tmp, 'killed');
    // How many new turns to wait for before each kill (0: kill as soon as the process writes its log header).
    const plan = [0, 2, 3, 1];
    let recorded = 0;
    let kills = 0;
    for (const waitTurns of plan) {
      const victim = cli(out);
      const target = recorded + waitTurns;
      const ended = await new Promise<boolean>((resolve) => {
        const poll = setInterval(() => {
          const file = new EpisodeLog(out, LONG).file;
          if (!existsSync(file)) return;
          let now = 0;
          try {
            now = turnsIn(out);
          } catch {
            return; // the log is being rewritten on resume; look again
          }
          if (now >= target) {
            clearInterval(poll);
            victim.child.kill('SIGKILL');
            resolve(false);
          }
        }, 5);
        void victim.done.then((r) => {
          clearInterval(poll);
          resolve(r.signal !== 'SIGKILL');
        });
      });
      const r = await victim.done;
      if (ended) {
        expect(r.code, r.stderr).to.equal(0);
        break;
      }
      kills += 1;
      // Reading the killed log never fails (a torn last line is the turn in flight), and no
      // turn recorded before the kill was lost.
      const now = turnsIn(out);
      expect(now, `after kill ${kills}`).to.be.at.least(recorded);
      recorded = now;
    }
    expect(kills).to.equal(plan.length);
    const last = await cli(out).done;
    expect(last.code, last.stderr).to.equal(0);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as RunSummary;
    expect(summary.episodes).to.deep.equal(wholeSummary.episodes);
    const files = readdirSync(join(out, 'episodes', LONG));
    expect(files.filter((f) => f.includes('damaged'))).to.deep.equal([]);
  });
});
