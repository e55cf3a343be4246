import { existsSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { SpaceActError } from '../../core/errors.ts';
import { analyzeRuns, formatAnalysis } from '../../report/analysis/analyze.ts';
import { analysisTables } from '../../report/analysis/tables.ts';
import { tableFormatOption, writeTables } from '../../report/tables.ts';

/** `spaceact analyze DIR [DIR …] [--json] [--out FILE]`: behaviour metrics, failure labels, diagnostic deltas. */
export function register(program: Command): void {
  program
    .command('analyze')
    .description('behaviour metrics (batching, camera use, collision responses, notes, violations), a failure label for every unsolved episode, and diagnostic deltas across runs')
    .argument('<dirs...>', 'run folders (spaceact run --out)')
    .option('--json', 'print the analysis as JSON')
    .option('--format <f>', 'print tables for a paper instead: csv, md, tex (LaTeX, booktabs) or json — behaviour per run and failure labels per category, the same numbers as the text')
    .option('--out <file>', 'also write it to FILE (JSON with --json, tables with --format, else text)')
    .action((dirs: string[], opts: { json?: boolean; out?: string; format?: string }) => {
      const format = tableFormatOption(opts.format);
      if (opts.out && !existsSync(dirname(resolve(opts.out)))) throw new SpaceActError('io', `the folder of ${opts.out} does not exist`, { out: opts.out });
      const analysis = analyzeRuns(dirs);
      const text = format ? writeTables(analysisTables(analysis), format) : opts.json ? JSON.stringify(analysis, null, 2) + '\n' : formatAnalysis(analysis);
      if (opts.out) writeFileSync(opts.out, text);
      process.stdout.write(text);
    });
}
