import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EpisodeLog } from '../agents/episode-log.ts';
import { startPlay } from '../play/play.ts';
import type { PlayState } from '../play/state.ts';

const ID = 'P6-L1-s100';

function post(url: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL('/api/turn', url), { method: 'POST', headers: { 'Content-Type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('play server: a reply nested 40,000 deep is refused with 400, not a crash', function () {
  this.timeout(120000);
  let tmp: string;

  before(() => {
    tmp = mkdtempSync(join(tmpdir(), 'spaceact-play-deep-'));
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('answers 400 with the reason, runs nothing, and still takes a good turn', async () => {
    const out = join(tmp, 'deep');
    const handle = await startPlay({ instance: ID, out });
    try {
      let s: PlayState;
      for (;;) {
        s = (await (await fetch(new URL('/api/state', handle.url))).json()) as PlayState;
        if (s.status === 'waiting') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const depth = 40_000;
      const deep = `{"version":${s.version},"reply":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
      const refused = await post(handle.url, deep);
      expect(refused.status).to.equal(400);
      expect(JSON.parse(refused.body)).to.deep.equal({ error: 'the reply is nested deeper than 32 levels' });
      const arrays = await post(handle.url, `{"version":${s.version},"reply":{"rationale":"r","note":"n","actions":${'['.repeat(depth)}${']'.repeat(depth)}}}`);
      expect(arrays.status).to.equal(400);
      expect(new EpisodeLog(out, ID).read().turns).to.have.length(0);
      const ok = await post(handle.url, JSON.stringify({ version: s.version, reply: { rationale: 'r', note: 'n', actions: [{ tool: 'move', args: { from: 'A', to: 'C' } }] } }));
      expect(ok.status).to.equal(200);
    } finally {
      handle.stop();
      await handle.done.catch(() => undefined);
    }
  });
});
