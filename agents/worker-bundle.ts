/**
 * A worker entry and the project modules it imports as one plain JavaScript file, so a worker
 * process starts with plain Node instead of through the tsx loader. Through tsx every one of a
 * verify worker's ~650 modules goes through the loader's resolve and transform hooks in a
 * thread of their own: about 1.6 s of CPU per worker before its first job, against about
 * 0.55 s for the bundle (measured 2026-12-01) — paid by every worker of every parallel run.
 *
 * Packages stay outside the bundle (Node loads them as usual), so the file must live inside
 * the package for their imports to resolve: `node_modules/.cache/spaceact/`. It is built with
 * esbuild (already the page bundler, and the transform tsx itself uses) and reused while every
 * project file that went into it is unchanged: a manifest beside it records each input's
 * SHA-256, checked before each use (a few milliseconds). Each module's `import.meta.url` is
 * replaced by its own source file's URL, so files found relative to a module (fixtures, the
 * pocket-cube table cache) are found as under tsx.
 */
import { createHash } from 'node:crypto';
import { access, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, version as esbuildVersion, type Plugin } from 'esbuild';
import { PACKAGE_ROOT } from '../core/package-root.ts';

/** The package root (the folder holding `package.json` and `node_modules`). */


/** What a bundle was built from: esbuild's version and every project input's digest. */
interface BundleManifest {
  esbuild: string;
  entry: string;
  bundle: string;
  inputs: Record<string, string>;
}

function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Each project module's `import.meta.url` as the literal URL of its source file. */
const keepModuleUrls: Plugin = {
  name: 'keep-module-urls',
  setup(b) {
    b.onLoad({ filter: /\.[cm]?ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      return { contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: 'ts' };
    });
  },
};

async function manifestIsCurrent(m: BundleManifest, entry: string): Promise<boolean> {
  if (m.esbuild !== esbuildVersion || m.entry !== entry) return false;
  try {
    for (const [file, digest] of Object.entries(m.inputs)) if (sha256(await readFile(file)) !== digest) return false;
    await access(m.bundle);
    return true;
  } catch {
    return false;
  }
}

const memo = new Map<string, Promise<string>>();

/**
 * The bundled form of the TypeScript worker entry `entry` (an absolute path), built or reused
 * as above; resolves to the bundle's path. Rejects when esbuild cannot build it (the caller
 * then starts the worker through tsx).
 */
export function workerBundle(entry: string): Promise<string> {
  let p = memo.get(entry);
  if (!p) {
    p = buildOrReuse(entry);
    memo.set(entry, p);
    p.catch(() => memo.delete(entry));
  }
  return p;
}

async function buildOrReuse(entry: string): Promise<string> {
  const dir = join(PACKAGE_ROOT, 'node_modules', '.cache', 'spaceact');
  // One manifest per entry file of each checkout: checkouts sharing node_modules keep theirs apart.
  const stem = `worker-${relative(PACKAGE_ROOT, entry).replace(/[^A-Za-z0-9]+/g, '-').replace(/-ts$/, '')}-${sha256(entry).slice(0, 12)}`;
  const manifestFile = join(dir, `${stem}.json`);
  let previous: string | null = null;
  try {
    const m = JSON.parse(await readFile(manifestFile, 'utf8')) as BundleManifest;
    if (await manifestIsCurrent(m, entry)) return m.bundle;
    previous = m.bundle;
  } catch {
    // No manifest yet, or an unreadable one: build.
  }
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: PACKAGE_ROOT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node}`,
    packages: 'external',
    // Function and class names as in the sources (a name can reach a message or a record).
    keepNames: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [keepModuleUrls],
    outfile: join(dir, `${stem}.mjs`),
  });
  const code = result.outputFiles[0].contents;
  const inputs: Record<string, string> = {};
  for (const input of Object.keys(result.metafile.inputs)) {
    const file = resolve(PACKAGE_ROOT, input);
    inputs[file] = sha256(await readFile(file));
  }
  const bundle = join(dir, `${stem}-${sha256(Buffer.from(code)).slice(0, 16)}.mjs`);
  await mkdir(dirname(bundle), { recursive: true });
  // Written beside the target and renamed: a worker never loads half a file, and two parents
  // building at once each rename a whole one.
  await writeFile(`${bundle}.${process.pid}.tmp`, code);
  await rename(`${bundle}.${process.pid}.tmp`, bundle);
  const manifest: BundleManifest = { esbuild: esbuildVersion, entry, bundle, inputs };
  await writeFile(`${manifestFile}.${process.pid}.tmp`, JSON.stringify(manifest));
  await rename(`${manifestFile}.${process.pid}.tmp`, manifestFile);
  // The outdated bundle goes (a worker that already loaded it is unaffected).
  if (previous && previous !== bundle && dirname(previous) === dir) await rm(previous, { force: true });
  return bundle;
}
