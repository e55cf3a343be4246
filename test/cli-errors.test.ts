import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EpisodeLog } from '../agents/episode-log.ts';
import { suiteNames } from '../tasks/suites.ts';
import { referenceScript, ScriptedOpenAIServer } from './support/openai-server.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'bin', 'spaceact.mjs');

function spaceact(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The error output is exactly one line starting with `spaceact: `. */
function oneLine(stderr: string): string {
  const lines = stderr.split('\n').filter((l) => l !== '');
  expect(lines, stderr).to.have.length(1);
  expect(lines[0]).to.match(/^spaceact: /);
  return lines[0];
}

describe('command line: every error is one clear line and a non-zero exit', function () {
  this.timeout(300_000);
  let tmp: string;
  const run = ['run', '--agent', 'reference', '--render', 'never', '--no-report'];

  before(() => {
    tmp = mkdtempSync(join(tmpdir(), 'spaceact-cli-errors-'));
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('names the tiers of a family for an id with a tier it lacks, with no raw details line', async () => {
    const r = await spaceact([...run, '--instance', 'P6-L9-s100', '--out', join(tmp, 'tier')]);
    expect(r.code).to.equal(2);
    expect(oneLine(r.stderr)).to.equal('spaceact: P6 has no tier L9; tiers: L1, L3, L5, L7');
    expect(existsSync(join(tmp, 'tier'))).to.equal(false);
  });

  it('an id in other capitals is refused naming the id meant', async () => {
    const r = await spaceact([...run, '--instance', 'p6-l3-s100', '--out', join(tmp, 'caps')]);
    expect(r.code).to.equal(2);
    expect(oneLine(r.stderr)).to.equal('spaceact: "p6-l3-s100" is not an instance id (did you mean P6-L3-s100?)');
    expect(existsSync(join(tmp, 'caps'))).to.equal(false);
  });

  it('an output folder on a special file system (/proc, /sys, /dev) is refused at once in one line', async () => {
    for (const [out, kind] of [['/proc/spaceact-x', 'proc'], ['/sys/spaceact-y/z', 'sysfs'], ['/dev/spaceact-z', 'devtmpfs']]) {
      const r = await spaceact([...run, '--instance', 'P6-L1-s100', '--out', out]);
      expect(r.code, out).to.equal(2);
      expect(oneLine(r.stderr)).to.match(new RegExp(`^spaceact: --out ${out}: /\\w+ is on a special file system \\(${kind}\\), where nothing can be written; choose a folder on a disk$`));
    }
  });

  it('Ctrl-C stops a run after the turn in flight: the report is written, the line says how to continue, and the same command finishes it', async () => {
    const out = join(tmp, 'interrupted');
    // M2's random episodes run to their action budget (P6's now end at the first refused move).
    const args = ['run', '--agent', 'random', '--seed', '3', '--render', 'never', '--instance', 'M2-L5-s100,M2-L7-s100,M2-L3-s100', '--out', out];
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Interrupted once the first turn of an episode is logged.
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        const logs = ['M2-L5-s100', 'M2-L7-s100', 'M2-L3-s100'].map((id) => join(out, 'episodes', id, 'log.jsonl'));
        if (logs.some((f) => existsSync(f) && readFileSync(f, 'utf8').includes('"type":"turn"'))) {
          clearInterval(poll);
          resolve();
        }
      }, 20);
    });
    child.kill('SIGINT');
    expect(await exited).to.equal(130);
    expect(stderr).to.include('spaceact: stopping after the turn in flight (Ctrl-C again to leave at once)');
    expect(stdout).to.match(/stopped: stopped on request; rerun with the same --out to continue; [1-3] episode\(s\) unfinished/);
    expect(stdout).to.include(`report: ${join(out, 'report.html')}`);
    expect(existsSync(join(out, 'report.html'))).to.equal(true);
    const again = await spaceact(args);
    expect(again.code, again.stderr).to.equal(0);
    expect(again.stdout).to.match(/^0\/3 solved|^[0-3]\/3 solved/m);
    expect(again.stdout).to.match(/resumed: \d+ finished episode\(s\) reused, [1-3] unfinished one\(s\) continued from their logs/);
  });

  it('a run folder that cannot be resumed is refused in one line; --replace-stale moves it aside whole and starts afresh', async () => {
    const out = join(tmp, 'stale');
    const args = [...run, '--instance', 'P6-L1-s100', '--out', out];
    expect((await spaceact(args)).code).to.equal(0);
    // As if the family had changed since: the log names another digest of its instance.
    const log = new EpisodeLog(out, 'P6-L1-s100');
    const lines = readFileSync(log.file, 'utf8').split('\n');
    const header = JSON.parse(lines[0]) as { instance: { digest: string } };
    header.instance.digest = '0000000000000000';
    writeFileSync(log.file, [JSON.stringify(header), ...lines.slice(1)].join('\n'));
    const refused = await spaceact(args);
    expect(refused.code).to.not.equal(0);
    expect(oneLine(refused.stderr)).to.match(/holds a different run .*digest 0000000000000000/);
    const replaced = await spaceact([...args, '--replace-stale']);
    expect(replaced.code, replaced.stderr).to.equal(0);
    expect(replaced.stderr).to.match(/ran another version of P6-L1-s100 .*moved the old run to .*stale-1/);
    expect(readFileSync(join(`${out}.stale-1`, 'episodes', 'P6-L1-s100', 'log.jsonl'), 'utf8')).to.contain('0000000000000000');
    expect(new EpisodeLog(out, 'P6-L1-s100').read().header?.instance.digest).to.not.equal('0000000000000000');
    // A run that fits is resumed, not moved.
    const again = await spaceact([...args, '--replace-stale']);
    expect(again.code).to.equal(0);
    expect(again.stdout).to.match(/resumed: 1 finished/);
    expect(existsSync(`${out}.stale-2`)).to.equal(false);
  });

  it('a mistyped command shows "Did you mean" in a few lines, not buried above the help', async () => {
    const r = await spaceact(['rn', '--agent', 'reference']);
    expect(r.code).to.not.equal(0);
    expect(r.stderr).to.match(/unknown command 'rn'/);
    expect(r.stderr).to.match(/Did you mean run\?/);
    expect(r.stderr.trim().split('\n').length).to.be.at.most(4);
    const opt = await spaceact(['run', '--agent', 'reference', '--instanse', 'P6-L1-s100', '--out', join(tmp, 'typo')]);
    expect(opt.stderr).to.match(/unknown option '--instanse'/);
    expect(opt.stderr).to.match(/Did you mean --instance\?/);
    expect(opt.stderr.trim().split('\n').length).to.be.at.most(4);
  });

  it('run --help lists every suite', async () => {
    const r = await spaceact(['run', '--help']);
    expect(r.code).to.equal(0);
    const names = suiteNames();
    expect(names.length).to.be.at.least(5);
    for (const s of names) expect(r.stdout, s).to.include(s);
  });

  it('--out naming a file: one line, exit 2, the file untouched', async () => {
    const file = join(tmp, 'a-file');
    writeFileSync(file, 'precious');
    const r = await spaceact([...run, '--instance', 'P6-L1-s100', '--out', file]);
    expect(r.code).to.equal(2);
    expect(oneLine(r.stderr)).to.equal(`spaceact: --out ${file} is a file, not a folder`);
    expect(readFileSync(file, 'utf8')).to.equal('precious');
  });

  it('an episode log that is a folder: one line, exit 2', async () => {
    const out = join(tmp, 'log-dir');
    mkdirSync(new EpisodeLog(out, 'P6-L1-s100').file, { recursive: true });
    const r = await spaceact([...run, '--instance', 'P6-L1-s100', '--out', out]);
    expect(r.code).to.equal(2);
    expect(oneLine(r.stderr)).to.match(/log\.jsonl is a folder, not an episode log; move it away$/);
  });

  it('a folder that cannot be created: one line naming the path and the reason', async () => {
    // As root permissions do not bind, so use a file system that refuses new folders.
    const root = process.getuid?.() === 0;
    const parent = join(tmp, 'read-only');
    // Root may write anywhere that is not special (refused by its own line, tested above): a
    // path through a file cannot be created by anyone.
    const target = root ? join(tmp, 'a-file', 'sub') : join(parent, 'sub');
    if (root) writeFileSync(join(tmp, 'a-file'), 'not a folder');
    if (!root) {
      mkdirSync(parent);
      const { chmodSync } = await import('node:fs');
      chmodSync(parent, 0o555);
    }
    const r = await spaceact([...run, '--instance', 'P6-L1-s100', '--out', target]);
    expect(r.code).to.equal(2);
    expect(oneLine(r.stderr)).to.match(new RegExp(`^spaceact: cannot create the folder ${target}: (operation not permitted \\(EPERM\\)|permission denied \\(EACCES\\)|the file system is read-only \\(EROFS\\)|a part of the path is a file, not a folder \\(ENOTDIR\\))$`));
  });

  it('a summary that cannot be written mid-run: one line, exit 2, and the finished episode is kept', async () => {
    const out = join(tmp, 'summary-dir');
    mkdirSync(join(out, 'summary.json'), { recursive: true });
    const r = await spaceact([...run, '--instance', 'P6-L1-s100,P6-L3-s100', '--out', out]);
    expect(r.code).to.equal(2);
    expect(oneLine(r.stderr)).to.match(/^spaceact: cannot rename .*summary\.json\.tmp to .*summary\.json: it is a folder, not a file \(EISDIR\)$/);
    expect(new EpisodeLog(out, 'P6-L1-s100').read().end?.outcome.solved).to.equal(true);
  });

  it('a response cache that is a file: one line, exit 2, not an API fault', async () => {
    const key = 'sk-Cli3-fake-Gh7Jk2Lm9Np4';
    const server = await ScriptedOpenAIServer.start(referenceScript(['P6-L1-s100']), { apiKey: key });
    try {
      const cache = join(tmp, 'cache-file');
      writeFileSync(cache, 'not a folder');
      const r = await spaceact(
        ['run', '--agent', 'openai', '--base-url', server.url, '--model', 'scripted', '--api-key-env', 'SPACEACT_CLI_KEY', '--mode', 'blind', '--no-report', '--instance', 'P6-L1-s100', '--cache', cache, '--out', join(tmp, 'cache-run')],
        { SPACEACT_CLI_KEY: key },
      );
      expect(r.code).to.equal(2);
      expect(oneLine(r.stderr)).to.match(/^spaceact: cannot create the folder .*cache-file\/[0-9a-f]{2}: a part of the path is a file, not a folder \(ENOTDIR\)$/);
    } finally {
      await server.close();
    }
  });

  it('the circuit breaker: exit 3 and one line saying why, after N episodes in a row are abandoned', async () => {
    const key = 'sk-Brk4-fake-Rt5Yu6Io7Pa8';
    const server = await ScriptedOpenAIServer.start(() => ({ status: 404, message: 'The model `scriptd` does not exist' }), { apiKey: key });
    try {
      const out = join(tmp, 'breaker');
      const r = await spaceact(
        ['run', '--agent', 'openai', '--base-url', server.url, '--model', 'scriptd', '--api-key-env', 'SPACEACT_CLI_KEY', '--mode', 'blind', '--no-report', '--instance', 'P6-L1-s100,P6-L3-s100,P6-L5-s100', '--abandon-limit', '2', '--out', out],
        { SPACEACT_CLI_KEY: key },
      );
      expect(r.code).to.equal(3);
      expect(oneLine(r.stderr)).to.match(/^spaceact: stopped after 2 episodes in a row were abandoned \(last: HTTP 404 .*does not exist\); the endpoint looks unusable/);
      expect(server.requests).to.have.length(2);
      const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { unfinished: string[]; stopped: { reason: string } };
      expect(summary.unfinished).to.deep.equal(['P6-L5-s100']);
      expect(summary.stopped.reason).to.equal('abandonments');
    } finally {
      await server.close();
    }
  });

  it('report of a path that is not a run: one line, exit 2', async () => {
    const r = await spaceact(['report', join(tmp, 'no-such-run')]);
    expect(r.code).to.equal(2);
    oneLine(r.stderr);
  });
});
