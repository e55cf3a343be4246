import { existsSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { SpaceActError } from '../../core/errors.ts';
import { analyzeRuns, formatAnalysis } from '../../report/analysis/analyze.ts';

/** `spaceact analyze DIR [DIR …] [--json] [--out FILE]`: behaviour metrics, failure labels, diagnostic deltas. */
export function register(program: Command): void {
  program
    .command('analyze')
    .description('behaviour metrics (batching, camera use, collision responses, notes, violations), a failure label for every unsolved episode, and diagnostic deltas across runs')
    .argument('<dirs...>', 'run folders (spaceact run --out)')
    .option('--json', 'print the analysis as JSON')
    .option('--out <file>', 'also write it to FILE (JSON with --json, else text)')
    .action((dirs: string[], opts: { json?: boolean; out?: string }) => {
      if (opts.out && !existsSync(dirname(resolve(opts.out)))) throw new SpaceActError('io', `the folder of ${opts.out} does not exist`, { out: opts.out });
      const analysis = analyzeRuns(dirs);
      const text = opts.json ? JSON.stringify(analysis, null, 2) + '\n' : formatAnalysis(analysis);
      if (opts.out) writeFileSync(opts.out, text);
      process.stdout.write(text);
    });
}
