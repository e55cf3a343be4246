import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, version as esbuildVersion } from 'esbuild';
import { SpaceActError } from '../core/errors.ts';
import { packageVersion } from '../core/package-info.ts';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));

/** The page script's entry and the folder whose `.ts` files make up its cache key. */
export interface PageScriptSource {
  /** Short name used in the cache file name. */
  name: string;
  entry: string;
  sourceDir: string;
}

/**
 * The page script whose entry is `main` in `folder` beside the module whose `import.meta.url` is
 * `from`: `main.ts` from the sources, `main.js` from an installed package's compiled `dist/`
 * (esbuild bundles either; the compiled one imports compiled siblings, which exist there).
 */
export function pageSource(name: string, from: string, folder: string): PageScriptSource {
  const file = fileURLToPath(from);
  const sourceDir = join(dirname(file), folder);
  return { name, entry: join(sourceDir, `main${extname(file)}`), sourceDir };
}

/** The renderer's own page script. */
export const RENDER_PAGE: PageScriptSource = pageSource('render-page', import.meta.url, 'page');

/** The `node_modules` folder that holds the installed three.js. */
function nodeModulesDir(): string {
  const threeEntry = require.resolve('three');
  return threeEntry.slice(0, threeEntry.lastIndexOf(join('node_modules', 'three')) + 'node_modules'.length);
}

/** Where bundles are kept: `node_modules/.cache/spaceact/` beside the installed three.js. */
export function bundleCacheDir(): string {
  return join(nodeModulesDir(), '.cache', 'spaceact');
}

const memo = new Map<string, Promise<string>>();

/**
 * The page script as one IIFE, with three.js bundled from the installed package (never a CDN).
 * Built with esbuild on first use and cached on disk under a hash of the sources, the three.js
 * version and the esbuild version, so a changed source rebuilds and an unchanged one loads in
 * milliseconds. Page files may import code only from their own folder and from packages
 * (types from elsewhere are fine): other files are not part of the key.
 */
export function pageScript(source: PageScriptSource = RENDER_PAGE): Promise<string> {
  let p = memo.get(source.entry);
  if (!p) {
    p = buildCached(source);
    memo.set(source.entry, p);
    p.catch(() => memo.delete(source.entry));
  }
  return p;
}

async function buildCached(source: PageScriptSource): Promise<string> {
  const hash = createHash('sha256');
  const threePackage = join(nodeModulesDir(), 'three', 'package.json');
  const threeVersion = (JSON.parse(await readFile(threePackage, 'utf8')) as { version: string }).version;
  // The package's version too: a page may import a few files from outside its folder.
  hash.update(`three ${threeVersion}\nesbuild ${esbuildVersion}\nspaceact ${packageVersion()}\n`);
  const ext = extname(source.entry);
  const files = (await readdir(source.sourceDir)).filter((f) => f.endsWith(ext) && !f.endsWith('.d.ts')).sort();
  for (const f of files) {
    hash.update(`${f}\n`);
    hash.update(await readFile(join(source.sourceDir, f)));
  }
  const dir = bundleCacheDir();
  const file = join(dir, `${source.name}-${hash.digest('hex').slice(0, 16)}.js`);
  try {
    return await readFile(file, 'utf8');
  } catch {
    // not cached yet
  }
  let code: string;
  try {
    const out = await build({
      entryPoints: [source.entry],
      bundle: true,
      format: 'iife',
      platform: 'browser',
      target: 'es2022',
      minify: true,
      write: false,
      logLevel: 'silent',
      legalComments: 'none',
    });
    code = out.outputFiles[0].text;
  } catch (err) {
    throw new SpaceActError('browser', `could not bundle the page script ${source.entry}: ${(err as Error).message}`, {
      entry: source.entry,
    });
  }
  await mkdir(dir, { recursive: true });
  // Write then rename: a concurrent process never reads a half-written bundle.
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, code);
  await rename(tmp, file);
  // Older builds of the same script are stale now.
  for (const f of await readdir(dir)) {
    if (f.startsWith(`${source.name}-`) && f.endsWith('.js') && join(dir, f) !== file) await rm(join(dir, f), { force: true });
  }
  return code;
}
