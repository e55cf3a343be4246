import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { resolveChromium } from '../../render/browser-path.ts';
import { CHROMIUM_ARGS } from '../../render/chromium.ts';

/**
 * A headless Chromium for page tests (report and play page), launched the way the renderer
 * launches its own: same executable resolution, same flags, never a download.
 */
export async function launchBrowser(): Promise<Browser> {
  return puppeteer.launch({ executablePath: resolveChromium(), args: CHROMIUM_ARGS, headless: true, pipe: true });
}

/** Everything a page did that a test must see: dialogs opened, network requests, errors. */
export interface PageWatch {
  dialogs: string[];
  requests: string[];
  errors: string[];
}

/**
 * Opens a page that records dialogs (dismissing them), every request it makes and page errors.
 */
export async function watchedPage(browser: Browser, opts: { width?: number; height?: number } = {}): Promise<{ page: Page; watch: PageWatch }> {
  const page = await browser.newPage();
  await page.setViewport({ width: opts.width ?? 1280, height: opts.height ?? 900 });
  const watch: PageWatch = { dialogs: [], requests: [], errors: [] };
  page.on('dialog', (d) => {
    watch.dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('request', (r) => watch.requests.push(r.url()));
  page.on('pageerror', (e) => watch.errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') watch.errors.push(m.text());
  });
  return { page, watch };
}
