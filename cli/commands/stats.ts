import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { SpaceActError } from '../../core/errors.ts';
import { listOption } from '../../core/options.ts';
import { formatRunStatistics, runStatistics } from '../../report/run-stats.ts';
import { tableFormatOption, writeTables } from '../../report/tables.ts';

/**
 * Prints the run statistics of `dir` (text, JSON with `--json`, or the families' tables in a
 * paper format with `--format`, also written to `--out`), limited to `families` when given.
 */
export function printRunStatistics(dir: string, opts: { json?: boolean; family?: string; format?: string; out?: string }): void {
  const fams = listOption(opts, 'family');
  const format = tableFormatOption(opts.format);
  const report = runStatistics(dir, fams ? { families: fams } : {});
  if (format) {
    const bare = report.families.filter((f) => !f.tables).map((f) => f.family);
    if (bare.length) throw new SpaceActError('invalid-argument', `${bare.join(', ')} offer${bare.length === 1 ? 's' : ''} no tables; use the text or --json`);
    if (report.families.length === 0) throw new SpaceActError('invalid-argument', `no family in ${dir} offers run statistics`);
    const text = writeTables(report.families.flatMap((f) => f.tables!), format);
    if (opts.out) writeFileSync(opts.out, text);
    process.stdout.write(text);
    return;
  }
  process.stdout.write(opts.json ? JSON.stringify(report, null, 2) + '\n' : formatRunStatistics(report));
}

/** `spaceact stats DIR [--family IDS] [--json | --format F [--out FILE]]`: the figures families offer over a run (e.g. V6's per-type accuracy). */
export function register(program: Command): void {
  program
    .command('stats')
    .description("figures the run's families offer over their episodes, e.g. V6's accuracy per question type with Macro-8 and Micro-8 per tier")
    .argument('<dir>', 'run folder (spaceact run --out)')
    .option('--family <ids>', 'only these families (comma-separated); each must offer run statistics')
    .option('--json', 'print the figures as JSON')
    .option('--format <f>', 'print the figures as tables for a paper: csv, md, tex (LaTeX, booktabs) or json — the same numbers as the text (rates as fractions)')
    .option('--out <file>', 'with --format, also write the tables to this file')
    .action((dir: string, opts: { json?: boolean; family?: string; format?: string; out?: string }) => printRunStatistics(dir, opts));
}
