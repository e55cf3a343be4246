/**
 * Screenshots a report page (or any local HTML file) in the same headless Chromium the tests
 * use, to look at it by eye:
 *
 *   npx tsx test/support/report-screenshot.ts runs/demo/report.html /tmp/report.png [#ep-P6-L7-s100]
 *
 * With an episode anchor, that replay is opened and the visible part of the page is captured;
 * without one, the whole page.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchBrowser, watchedPage } from './report-browser.ts';

const [file, png, hash] = process.argv.slice(2);
if (!file || !png) {
  process.stderr.write('usage: npx tsx test/support/report-screenshot.ts REPORT.html OUT.png [#anchor]\n');
  process.exit(2);
}
const browser = await launchBrowser();
try {
  const { page, watch } = await watchedPage(browser, { height: hash ? 1400 : 900 });
  await page.goto(pathToFileURL(resolve(file)).href + (hash ?? ''), { waitUntil: 'load' });
  // Wait for the pictures that are drawn (those in closed replays never load), five seconds at most.
  await page.evaluate(() =>
    Promise.race([
      Promise.all(Array.from(document.images).filter((i) => i.getBoundingClientRect().height > 0).map((i) => i.decode().catch(() => undefined))),
      new Promise((r) => setTimeout(r, 5000)),
    ]),
  );
  await page.screenshot({ path: png, fullPage: !hash });
  process.stdout.write(`wrote ${png}; requests ${watch.requests.length}, dialogs ${watch.dialogs.length}, errors ${watch.errors.length}\n`);
} finally {
  await browser.close();
}
