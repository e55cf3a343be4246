import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { Renderer } from '../render/renderer.ts';
import { sheetHtml, writeContactSheet } from '../report/contact-sheet.ts';

describe('contact sheet', function () {
  this.timeout(300000);

  it('escapes every text on the page', () => {
    const html = sheetHtml([
      {
        id: 'X1-L3-s1"><script>',
        family: 'X1',
        title: '<img src=x onerror=alert(1)>',
        dynamic: false,
        first: [{ file: 'a "b".png', kind: 'view', caption: '</figcaption><script>alert(1)</script>' }],
        rollback: null,
        rollbackNote: '<b>no</b>',
        framing: '& more',
      },
    ]);
    expect(html).to.not.match(/<script>|<img src=x|<b>no/);
    expect(html).to.include('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).to.include('&amp; more');
  });

  it('writes the first view, a random agent\'s first rollback image and the page for an instance; says when a family has no tool to violate', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spaceact-sheet-'));
    const renderer = new Renderer({ width: 256, height: 256 });
    try {
      const { page, rows } = await writeContactSheet(['P6-L3-s100', 'V1-L3-s100'], dir, renderer);
      const [p6, v1] = rows;
      expect(p6.first).to.have.length(1);
      expect(p6.rollback, p6.rollbackNote).to.not.equal(null);
      const meta = await sharp(join(dir, p6.rollback!.file)).metadata();
      // Split image: two 256 px panels side by side, with the caption under them.
      expect(meta.width).to.equal(2 * 256 + 8);
      expect(p6.rollback!.caption).to.match(/^Rule broken\. /);
      expect(v1.rollback).to.equal(null);
      expect(v1.rollbackNote).to.match(/no physical or discrete tool/);
      const html = readFileSync(page, 'utf8');
      for (const r of rows) for (const img of r.first) expect(existsSync(join(dir, img.file))).to.equal(true);
      expect(html).to.include('id="P6-L3-s100"').and.to.include(`src="${p6.rollback!.file}"`);
    } finally {
      await renderer.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
