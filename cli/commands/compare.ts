import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { SpaceActError } from '../../core/errors.ts';
import { writeComparisonPage } from '../../report/compare-html.ts';
import { REPORT_CSP } from '../../report/html.ts';
import { numberOption } from '../../core/options.ts';
import { compareBehaviour, formatBehaviourComparison } from '../../report/analysis/compare-behaviour.ts';
import { compareRuns, formatComparison } from '../../report/compare.ts';
import { comparisonTables } from '../../report/analysis/tables.ts';
import { tableFormatOption, writeTables } from '../../report/tables.ts';

/** `spaceact compare DIR_A DIR_B [--json] [--seed N] [--html FILE]`: paired statistics of two runs. */
export function register(program: Command): void {
  program
    .command('compare')
    .description('compare two runs instance by instance: B − A in success and mean score with bootstrap 95% intervals, Wilson intervals per side')
    .argument('<dirA>', 'run folder A (the baseline)')
    .argument('<dirB>', 'run folder B')
    .option('--json', 'print the comparison as JSON')
    .option('--seed <n>', 'seed of the bootstrap resampling (same seed, same intervals)', '0')
    .option('--resamples <n>', 'bootstrap resamples', '10000')
    .option('--analysis', 'add behaviour metrics and failure labels of both runs (as spaceact analyze) over the paired instances')
    .option('--format <f>', 'print tables for a paper instead: csv, md, tex (LaTeX, booktabs) or json — B − A per scope with its intervals, and the pairs')
    .option('--html <file>', 'also write the comparison as one HTML page (no network, strict CSP): the scope table, charts, failure labels per side and the paired per-instance table')
    .action((dirA: string, dirB: string, opts: { json?: boolean; seed: string; resamples: string; analysis?: boolean; format?: string; html?: string }) => {
      const format = tableFormatOption(opts.format);
      const seed = numberOption(opts, 'seed', { min: 0, max: 2 ** 31, integer: true })!;
      const resamples = numberOption(opts, 'resamples', { min: 100, max: 1_000_000, integer: true })!;
      const page = opts.html ? resolve(opts.html) : null;
      if (page && !existsSync(dirname(page))) throw new SpaceActError('io', `the folder of ${opts.html} does not exist`, { out: opts.html });
      const c = compareRuns(dirA, dirB, { seed, resamples });
      if (page) {
        // Failure labels need the logs; a run folder whose logs cannot be read still gets its page, which says why they are missing.
        let behaviour: ReturnType<typeof compareBehaviour> | string;
        try {
          behaviour = compareBehaviour(dirA, dirB);
        } catch (err) {
          if (!(err instanceof SpaceActError)) throw err;
          behaviour = err.message;
        }
        writeComparisonPage(page, c, behaviour, REPORT_CSP);
        process.stderr.write(`wrote ${page}\n`);
      }
      if (format) {
        process.stdout.write(writeTables(comparisonTables(c), format));
        return;
      }
      const behaviour = opts.analysis ? compareBehaviour(dirA, dirB) : null;
      if (opts.json) process.stdout.write(JSON.stringify(behaviour ? { ...c, behaviour } : c, null, 2) + '\n');
      else process.stdout.write(formatComparison(c) + (behaviour ? `\n${formatBehaviourComparison(behaviour)}` : ''));
    });
}
