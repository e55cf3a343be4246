import type { Command } from 'commander';
import { numberOption } from '../../core/options.ts';
import { startPlay } from '../../play/play.ts';

/** `spaceact play --instance ID [--port P] [--out DIR] [--mode M]`: a person plays an instance in the browser. */
export function register(program: Command): void {
  program
    .command('play')
    .description('play an instance yourself in the browser (served on 127.0.0.1): same pictures, tools, checks, log and score as a model (agent "human")')
    .requiredOption('--instance <id>', 'instance id, e.g. P6-L1-s100')
    .option('--out <dir>', 'run folder for the log and summary.json (default runs/play-ID); the same folder continues an unfinished play')
    .option('--mode <mode>', 'diagnostic mode(s): plan, state, no-camera, blind, nonote, nosplit, cap1 (join with +)', 'default')
    .option('--port <n>', 'port on 127.0.0.1 (0: any free port)', '0')
    .action(async (opts: { instance: string; out?: string; mode: string; port: string }) => {
      const port = numberOption(opts, 'port', { min: 0, max: 65535, integer: true })!;
      const handle = await startPlay({ instance: opts.instance, mode: opts.mode, out: opts.out ?? `runs/play-${opts.instance}`, port });
      process.stdout.write(`play ${opts.instance}: open ${handle.url} in a browser on this machine (Ctrl-C stops; the same command continues)\n`);
      const onSignal = (): void => handle.stop();
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      try {
        const outcome = await handle.done;
        const e = outcome.entry;
        if (e) {
          const score = e.score === null ? (e.solved ? 'pass' : 'fail') : `score ${e.score}`;
          process.stdout.write(`${e.instance}: ${e.solved ? 'solved' : 'not solved'}, ${score}, ${e.turns} turns, ${e.actions} actions (reference ${e.referenceActions}), ${e.violations} violations\n`);
        } else {
          process.stdout.write('stopped before the episode ended; run the same command to continue\n');
        }
        process.stdout.write(`log: ${outcome.logFile}\nsummary: ${outcome.summaryFile}\n`);
      } finally {
        process.removeListener('SIGINT', onSignal);
        process.removeListener('SIGTERM', onSignal);
      }
    });
}
