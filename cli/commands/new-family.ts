import type { Command } from 'commander';
import { createFamily } from '../../verify/new-family.ts';

/** `spaceact new-family ID --category C [--title T] [--no-register]`: a family folder from the template. */
export function register(program: Command): void {
  program
    .command('new-family')
    .description(
      'write a new task family folder from the template (a small real task that passes the check-suite) and register ' +
        'it in tasks/registry.ts; then follow AUTHORING.md',
    )
    .argument('<id>', 'family id: the category letter and a number, e.g. P7')
    .requiredOption('--category <c>', 'category: B, P, M, A, V or T')
    .option('--title <title>', 'short title; also names the folder', 'New family')
    .option('--no-register', 'do not edit tasks/registry.ts; print the lines to add instead')
    .action((id: string, opts: { category: string; title: string; register: boolean }) => {
      const r = createFamily({ id, category: opts.category, title: opts.title, register: opts.register });
      const out = process.stdout;
      out.write(`created ${r.dir}/\n${r.files.map((f) => `  ${f}\n`).join('')}`);
      if (r.registered) out.write(`registered ${r.id} in tasks/registry.ts (${r.exportName})\n`);
      else out.write(`to register it, add to tasks/registry.ts:\n  ${r.importLine}\n  and ${r.exportName} to the FAMILIES array\n`);
      out.write(
        `next: declare what the first view must show (viewParts in episode.ts, AUTHORING.md step 4a); scripts/check-family.sh ${r.id} ` +
          `(the check-suite with the view rule); npx spaceact contact-sheet --family ${r.id} --out DIR (look at the pictures); ` +
          `npx spaceact verify --family ${r.id}; npx spaceact fixtures --write --family ${r.id}; see AUTHORING.md\n`,
      );
    });
}
