import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Command } from 'commander';
import { createFamily } from '../../verify/new-family.ts';
import { PACKAGE_ROOT } from '../../core/package-root.ts';

/** The CLI's own entry point, run again to write the new family's fixtures. */
const BIN = join(PACKAGE_ROOT, 'bin', 'spaceact.mjs');

/** `spaceact new-family ID [--category C] [--title T] [--no-register]`: a family folder from the template. */
export function register(program: Command): void {
  program
    .command('new-family')
    .description(
      'write a new task family folder from the template (a small real task that passes the check-suite) and register ' +
        'it in tasks/registry.ts; then follow AUTHORING.md',
    )
    .argument('<id>', 'family id: the category letter and a number, e.g. P7')
    .option('--category <c>', "category: B, P, M, A, V or T (default: the id's letter)")
    .option('--title <title>', 'short title; also names the folder', 'New family')
    .option('--no-register', 'do not edit tasks/registry.ts; print the lines to add instead')
    .action((id: string, opts: { category?: string; title: string; register: boolean }) => {
      // The id names its category (B7 is a construction family); --category only has to agree.
      const r = createFamily({ id, category: opts.category ?? String(id).slice(0, 1), title: opts.title, register: opts.register });
      const out = process.stdout;
      out.write(`created ${r.dir}/\n${r.files.map((f) => `  ${f}\n`).join('')}`);
      if (r.registered) {
        out.write(`registered ${r.id} in tasks/registry.ts (${r.exportName})\n`);
        // Its released fixtures, so scripts/check-family.sh passes as it stands. A fresh process:
        // this one loaded the registry before the family was in it.
        const w = spawnSync(process.execPath, [BIN, 'fixtures', '--write', '--family', r.id], { stdio: ['ignore', 'inherit', 'inherit'] });
        if (w.status !== 0) out.write(`writing the fixtures failed (exit ${w.status}); fix what it says, then: npx spaceact fixtures --write --family ${r.id}\n`);
      } else out.write(`to register it, add to tasks/registry.ts:\n  ${r.importLine}\n  and ${r.exportName} to the FAMILIES array\n`);
      out.write(
        `next: declare what the first view must show (viewParts in episode.ts, AUTHORING.md step 4a); scripts/check-family.sh ${r.id} ` +
          `(the check-suite with the view rule); npx spaceact contact-sheet --family ${r.id} --out DIR (look at the pictures); ` +
          `npx spaceact verify --family ${r.id} (the full battery: green in the check-suite is not yet sound); ` +
          `npx spaceact fixtures --write --family ${r.id} after every change to the generator; see AUTHORING.md\n`,
      );
    });
}
