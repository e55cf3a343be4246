#!/usr/bin/env node
// `npm run build`: the compiled package in dist/ — ESM JavaScript with .d.ts types, which an
// installed package runs with plain Node (no tsx). The checkout itself keeps running its sources
// through tsx, so there is no build step to forget during development; `npm pack` builds first.
//
// Besides tsc's output, dist/ gets every other file the code reads beside itself at run time: the
// new-family templates and data files (JSON pools). The browser pages are bundled by esbuild on
// first use from their compiled JavaScript, as a checkout bundles them from TypeScript.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const CODE_DIRS = ['core', 'sim', 'render', 'solvers', 'tasks', 'agents', 'verify', 'report', 'play', 'cli'];

rmSync(dist, { recursive: true, force: true });
const tsc = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')], { stdio: ['ignore', 2, 2] });
// Everything this script says goes to stderr: `npm pack --json` prints its JSON on stdout.
if (tsc.status !== 0) {
  console.error('build: tsc failed; dist/ is incomplete');
  process.exit(tsc.status ?? 1);
}

let copied = 0;
function copyAssets(dir) {
  for (const name of readdirSync(join(root, dir))) {
    const rel = join(dir, name);
    const abs = join(root, rel);
    if (statSync(abs).isDirectory()) {
      copyAssets(rel);
      continue;
    }
    if (name.endsWith('.ts')) continue;
    if (name === 'README.md') continue;
    mkdirSync(join(dist, dir), { recursive: true });
    cpSync(abs, join(dist, rel));
    copied++;
  }
}
for (const d of CODE_DIRS) copyAssets(d);
console.error(`build: dist/ compiled, ${copied} run-time files copied beside it (${relative(process.cwd(), dist) || '.'})`);
