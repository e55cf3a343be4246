import { accessSync, constants } from 'node:fs';
import { SpaceActError } from '../core/errors.ts';

function executable(path: string | undefined): path is string {
  if (!path) return false;
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The Chromium to launch: an explicit path (which must exist), else `PUPPETEER_EXECUTABLE_PATH`,
 * then the usual system paths (`/usr/bin/chromium` first: what `scripts/ensure-chromium.sh`
 * installs). Never downloads one (the project depends on `puppeteer-core`, which has no browser
 * download).
 */
export function resolveChromium(explicit?: string): string {
  if (explicit !== undefined) {
    if (executable(explicit)) return explicit;
    throw new SpaceActError('browser', `the Chromium executable ${explicit} does not exist or is not executable; run scripts/ensure-chromium.sh or pass another path`, {
      executablePath: explicit,
    });
  }
  const tried: string[] = [];
  const candidates = [process.env.PUPPETEER_EXECUTABLE_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome-stable', '/usr/bin/google-chrome'];
  for (const c of candidates) {
    if (c === undefined || c === '') continue;
    if (executable(c)) return c;
    tried.push(c);
  }
  throw new SpaceActError(
    'browser',
    'no Chromium found to render with; run scripts/ensure-chromium.sh (installs Debian\'s chromium) or set PUPPETEER_EXECUTABLE_PATH',
    { tried },
  );
}
