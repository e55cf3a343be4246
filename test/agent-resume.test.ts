import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { referenceScript, ScriptedOpenAIServer } from './support/openai-server.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'bin', 'spaceact.mjs');
/** Distinctive, so that any trace of it in a file is found. */
const KEY = 'sk-Kz3Q-fake-Rb8Yt5Up1Wq7Mx4';
const IDS = ['P6-L1-s100', 'P6-L3-s100'];

interface CliRun {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

function cli(args: string[], env: Record<string, string> = { SPACEACT_TEST_KEY: KEY }): CliRun {
  const child = spawn(process.execPath, [CLI, 'run', ...args], { cwd: ROOT, env: { ...process.env, OPENAI_API_KEY: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

function turnLines(file: string): number {
  if (!existsSync(file)) return 0;
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.includes('"type":"turn"')).length;
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => join(d.parentPath, d.name));
}

describe('model agent runs from the command line: kill -9, resume, and no key on disk', function () {
  let server: ScriptedOpenAIServer;
  let tmp: string;
  const outputs: string[] = [];

  before(async () => {
    server = await ScriptedOpenAIServer.start(referenceScript(IDS), { apiKey: KEY });
    tmp = mkdtempSync(join(tmpdir(), 'spaceact-resume-'));
    writeFileSync(join(tmp, 'prices.json'), JSON.stringify({ scripted: { input_per_mtok: 3, output_per_mtok: 15 } }));
  });
  after(async () => {
    await server.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  const base = (out: string, ids = IDS): string[] => [
    '--agent', 'openai', '--base-url', server.url, '--model', 'scripted', '--api-key-env', 'SPACEACT_TEST_KEY',
    '--instance', ids.join(','), '--prices', join(tmp, 'prices.json'), '--out', join(tmp, out),
  ];

  it('a run killed mid-episode and rerun ends with the same summary, asking the same questions', async () => {
    const n0 = server.requests.length;
    const whole = await cli(base('whole')).done;
    expect(whole.code, whole.stderr).to.equal(0);
    outputs.push(whole.stdout, whole.stderr);
    const wholeDigests = new Set(server.requests.slice(n0).map((r) => r.digest));
    const wholeSummary = JSON.parse(readFileSync(join(tmp, 'whole', 'summary.json'), 'utf8'));
    expect(wholeSummary.totals.solved).to.equal(2);
    expect(wholeSummary.totals.cost).to.be.greaterThan(0);

    // Kill it in the middle of the second episode, once its first turn is logged.
    const n1 = server.requests.length;
    const log = join(tmp, 'killed', 'episodes', 'P6-L3-s100', 'log.jsonl');
    const victim = cli(base('killed'));
    await new Promise<void>((resolve, reject) => {
      const poll = setInterval(() => {
        if (turnLines(log) >= 1) {
          clearInterval(poll);
          victim.child.kill('SIGKILL');
          resolve();
        }
      }, 20);
      void victim.done.then((r) => {
        clearInterval(poll);
        if (r.signal !== 'SIGKILL') reject(new Error(`the run ended before it could be killed: ${r.stderr}`));
      });
    });
    const killed = await victim.done;
    expect(killed.signal).to.equal('SIGKILL');
    outputs.push(killed.stdout, killed.stderr);
    const logged = turnLines(log);
    const l3Turns = wholeSummary.episodes[1].turns as number;
    expect(logged).to.be.within(1, l3Turns - 1);

    const n2 = server.requests.length;
    const rerun = await cli(base('killed')).done;
    expect(rerun.code, rerun.stderr).to.equal(0);
    outputs.push(rerun.stdout, rerun.stderr);
    const { resumed, ...resumedSummary } = JSON.parse(readFileSync(join(tmp, 'killed', 'summary.json'), 'utf8'));
    expect(resumedSummary).to.deep.equal(wholeSummary);
    // The summary says what the rerun took over: the finished episode and the one cut short.
    expect(resumed).to.deep.equal({ finished: 1, continued: 1 });
    expect(rerun.stdout).to.include('resumed: 1 finished episode(s) reused, 1 unfinished one(s) continued');
    // The finished episode was not asked again; the unfinished one only from where the log ended
    // (plus, at most, the turn that was in flight).
    expect(server.requests.length - n2).to.be.within(l3Turns - logged, l3Turns - logged + 1);
    // Every question the interrupted-and-resumed run asked is one the uninterrupted run asked:
    // history, note and images after the resume are exactly what they would have been.
    const resumedDigests = new Set(server.requests.slice(n1).map((r) => r.digest));
    expect([...resumedDigests].filter((d) => !wholeDigests.has(d))).to.deep.equal([]);
    expect(resumedDigests.size).to.equal(wholeDigests.size);
  });

  it('no file a run writes holds the API key, even when the endpoint echoes a wrong one', async () => {
    const cached = await cli([...base('cached', ['P6-L1-s100']), '--cache', join(tmp, 'cache')]).done;
    expect(cached.code, cached.stderr).to.equal(0);
    outputs.push(cached.stdout, cached.stderr);
    // A wrong key: the server answers 401 with a masked echo of it; the run stops at once with
    // one line and a non-zero exit, and the episode stays unfinished (nothing is abandoned).
    const wrongKey = 'sk-Wr0ng-fake-Hd2Lp9Ze6Tn3';
    const wrong = await cli(base('wrong', ['P6-L1-s100']), { SPACEACT_TEST_KEY: wrongKey }).done;
    expect(wrong.code, wrong.stderr).to.equal(2);
    expect(wrong.stderr.trim().split('\n')).to.have.length(1);
    expect(wrong.stderr).to.match(/^spaceact: the endpoint refused the API key from SPACEACT_TEST_KEY \(HTTP 401.*the run stopped/);
    outputs.push(wrong.stdout, wrong.stderr);
    const wrongSummary = JSON.parse(readFileSync(join(tmp, 'wrong', 'summary.json'), 'utf8'));
    expect(wrongSummary.episodes).to.deep.equal([]);
    expect(wrongSummary.unfinished).to.deep.equal(['P6-L1-s100']);
    expect(wrongSummary.stopped.reason).to.equal('error');
    // The folder is not poisoned: the rerun with the right key asks the endpoint and solves.
    const n0 = server.requests.length;
    const right = await cli(base('wrong', ['P6-L1-s100'])).done;
    expect(right.code, right.stderr).to.equal(0);
    outputs.push(right.stdout, right.stderr);
    expect(server.requests.length).to.be.greaterThan(n0);
    const rightSummary = JSON.parse(readFileSync(join(tmp, 'wrong', 'summary.json'), 'utf8'));
    expect(rightSummary.episodes.map((e: { solved: boolean }) => e.solved)).to.deep.equal([true]);
    expect(rightSummary.stopped).to.equal(undefined);

    const files = filesUnder(tmp);
    expect(files.some((f) => f.endsWith('.png'))).to.equal(true);
    expect(files.some((f) => f.includes(`${join(tmp, 'cache')}/`))).to.equal(true);
    const secrets = [KEY, KEY.slice(-10), wrongKey, wrongKey.slice(-10), wrongKey.slice(-4), 'Rb8Yt5Up1Wq7'];
    for (const f of files) {
      const content = readFileSync(f);
      for (const s of secrets) expect(content.includes(s), `${f} contains ${s}`).to.equal(false);
    }
    for (const text of outputs) for (const s of secrets) expect(text.includes(s)).to.equal(false);
  });
});
