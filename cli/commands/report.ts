import type { Command } from 'commander';
import { numberOption } from '../../core/options.ts';
import { writeReport } from '../../report/html.ts';

/** `spaceact report DIR [--out FILE] [--embed] [--replays]`: the HTML report of a run. */
export function register(program: Command): void {
  program
    .command('report')
    .description('write the HTML report of a run: summary tables, charts and a replay of every episode (no network, one file)')
    .argument('<dir>', 'run folder (spaceact run --out)')
    .option('--out <file>', 'where to write the page (default DIR/report.html)')
    .option('--embed', 'put every image into the page (portable single file; large) instead of linking DIR/episodes/…')
    .option('--page-size <n>', 'episode replays per page', '25')
    .option('--replays', 'also write each episode\'s animated replay (WebP, as `spaceact replay`) to DIR/replays/ and show it at the top of the episode')
    .action(async (dir: string, opts: { out?: string; embed?: boolean; pageSize: string; replays?: boolean }) => {
      const pageSize = numberOption(opts, 'pageSize', { min: 1, max: 10000, integer: true })!;
      const file = await writeReport(dir, { pageSize, ...(opts.out ? { out: opts.out } : {}), ...(opts.embed ? { embed: true } : {}), ...(opts.replays ? { replays: true } : {}) });
      process.stdout.write(`wrote ${file}\n`);
    });
}
