import { resolve } from 'node:path';
import type { Command } from 'commander';
import { Renderer } from '../../render/renderer.ts';
import { writeContactSheet } from '../../report/contact-sheet.ts';
import { familyAndInstanceFromId } from '../../tasks/registry.ts';
import { selectInstances, suiteInstances } from '../../tasks/suites.ts';

/**
 * `spaceact contact-sheet --out DIR [--instance IDS | --family IDS]`: every released instance's
 * first observation, a rollback image and (moving worlds) the strobe strip, as thumbnails with
 * ids on one page, `DIR/index.html`, the images beside it.
 */
export function register(program: Command): void {
  program
    .command('contact-sheet')
    .description('one HTML page of every released instance: first view (strobe strip for moving worlds), a rollback image, framing')
    .requiredOption('--out <dir>', 'folder for index.html and the images')
    .option('--instance <ids>', 'instance ids separated by commas (default: every released instance)')
    .option('--family <ids>', 'family ids separated by commas: their released instances')
    .option('--suite <name>', 'a suite: main, all, or one a family offers')
    .action(async (opts: { out: string; instance?: string; family?: string; suite?: string }) => {
      const ids = selectInstances(opts, () => suiteInstances('all'));
      // Unknown ids fail here, before any picture is drawn.
      for (const id of ids) familyAndInstanceFromId(id);
      const renderer = new Renderer();
      try {
        const { page } = await writeContactSheet(ids, resolve(opts.out), renderer, (line) => process.stderr.write(`${line}\n`));
        process.stdout.write(`wrote ${page} (${ids.length} instances)\n`);
      } finally {
        await renderer.close();
      }
    });
}
