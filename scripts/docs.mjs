#!/usr/bin/env node
// `npm run docs`: the API reference of the installed package, as Markdown pages in docs/api/.
//
// Why API Extractor and API Documenter rather than TypeDoc: TypeDoc runs on the JavaScript API of
// TypeScript 5–6, and this project compiles with TypeScript 7 (the native compiler, which has no
// such API). API Extractor carries its own TypeScript 6 and reads the `.d.ts` files that
// `npm run build` writes to dist/ — exactly what an installed package exposes, TSDoc comments
// included. Both package entries are documented: `spaceact` and `spaceact/verify` (the latter as
// the namespace `verify` on the reference's front page).
//
//   npm run docs                 build dist/, then the pages
//   node scripts/docs.mjs --no-build   pages from the dist/ already built
//   node scripts/docs.mjs --out DIR   the pages somewhere else than docs/api/
//   node scripts/docs.mjs --verbose    every API Extractor note (types used but not exported, …)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const outAt = process.argv.indexOf('--out');
const out = outAt > 0 && process.argv[outAt + 1] ? resolve(process.argv[outAt + 1]) : join(root, 'docs', 'api');
const require = createRequire(import.meta.url);
const verbose = process.argv.includes('--verbose');

if (!process.argv.includes('--no-build')) {
  const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
if (!existsSync(join(dist, 'index.d.ts')) || !existsSync(join(dist, 'verify', 'index.d.ts'))) {
  console.error('docs: dist/ has no index.d.ts or verify/index.d.ts; run `npm run build` first');
  process.exit(1);
}

const { Extractor, ExtractorConfig } = require('@microsoft/api-extractor');
const work = mkdtempSync(join(tmpdir(), 'spaceact-docs-'));
// One entry for both package entries: `spaceact` itself, and `spaceact/verify` as a namespace.
const entry = join(dist, '__docs-entry.d.ts');
writeFileSync(
  entry,
  [
    '/**',
    ' * SpaceAct: physically simulated 3D tasks (Rapier) shown to a model only as rendered pictures',
    ' * (three.js in headless Chromium), the SAPA agent loop, and the checks that certify a task set.',
    ' * `spaceact` runs agents and reports; `spaceact/verify` (the namespace `verify` here) is the',
    " * family author's toolkit. Guide: docs/library.md in the repository.",
    ' *',
    ' * @packageDocumentation',
    ' */',
    "export * from './index.ts';",
    "export * as verify from './verify/index.ts';",
    '',
  ].join('\n'),
);
let status = 0;
try {
  const model = join(work, 'model');
  mkdirSync(model);
  const configObject = {
    projectFolder: root,
    mainEntryPointFilePath: entry,
    // The emitted declarations import each other with `.ts` extensions, as the sources do.
    compiler: {
      overrideTsconfig: {
        compilerOptions: { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', allowImportingTsExtensions: true, noEmit: true, skipLibCheck: true, strict: true, types: ['node'] },
        include: [join(dist, '**', '*.d.ts')],
      },
    },
    apiReport: { enabled: false },
    docModel: { enabled: true, apiJsonFilePath: join(model, 'spaceact.api.json') },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
  };
  const config = ExtractorConfig.prepare({ configObject, configObjectFullPath: join(work, 'api-extractor.json'), packageJsonFullPath: join(root, 'package.json') });
  const notes = new Map();
  const result = Extractor.invoke(config, {
    localBuild: true,
    messageCallback(message) {
      // Warnings about the API's shape (a type used but not exported, a TSDoc tag it does not
      // know) are counted and summarised, not printed one by one; errors stop the run.
      if (message.logLevel === 'error') return;
      notes.set(message.messageId, (notes.get(message.messageId) ?? 0) + 1);
      if (verbose) console.error(`${message.messageId}: ${message.text}`);
      message.handled = true;
    },
  });
  if (!result.succeeded) {
    console.error(`docs: API Extractor failed (${result.errorCount} errors)`);
    status = 1;
  } else {
    rmSync(out, { recursive: true, force: true });
    const documenter = join(dirname(require.resolve('@microsoft/api-documenter/package.json')), 'bin', 'api-documenter');
    const md = spawnSync(process.execPath, [documenter, 'markdown', '-i', model, '-o', out], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    if (md.status !== 0) {
      console.error(md.stderr);
      status = md.status ?? 1;
    } else {
      const pages = readdirSync(out).filter((f) => f.endsWith('.md')).length;
      const summary = [...notes].map(([id, n]) => `${id} ×${n}`).join(', ');
      console.error(`docs: wrote ${pages} pages to ${relative(process.cwd(), out) || '.'}/ (start at index.md)${summary ? `; notes: ${summary}` : ''}`);
    }
  }
} finally {
  rmSync(entry, { force: true });
  rmSync(work, { recursive: true, force: true });
}
process.exit(status);
