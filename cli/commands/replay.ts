import { resolve } from 'node:path';
import type { Command } from 'commander';
import { SpaceActError } from '../../core/errors.ts';
import { DEFAULT_SECONDS_PER_FRAME, writeReplay } from '../../report/replay.ts';

/**
 * `spaceact replay DIR --instance ID --out FILE.webp|gif [--seconds-per-frame S]`: an animated
 * replay of one logged episode, from its log and images alone — every observation picture in
 * order (rollback split images included), then the final state, each with its turn, caption and
 * the turn's calls drawn under it.
 */
export function register(program: Command): void {
  program
    .command('replay')
    .description("an animated WebP or GIF of one logged episode: each turn's pictures (rollbacks included) and the final state, with turn, caption and calls")
    .argument('<dir>', "a run's --out folder")
    .requiredOption('--instance <id>', 'the episode to replay (an instance id of that run)')
    .requiredOption('--out <file>', 'the animated file to write: .webp or .gif')
    .option('--seconds-per-frame <s>', 'how long each frame shows', String(DEFAULT_SECONDS_PER_FRAME))
    .action(async (dir: string, opts: { instance: string; out: string; secondsPerFrame: string }) => {
      const text = opts.secondsPerFrame.trim();
      const seconds = text === '' ? NaN : Number(text);
      if (!Number.isFinite(seconds)) throw new SpaceActError('invalid-argument', `--seconds-per-frame must be a number of seconds, got ${JSON.stringify(opts.secondsPerFrame)}`);
      const w = await writeReplay({ dir: resolve(dir), instance: opts.instance, out: resolve(opts.out), secondsPerFrame: seconds });
      process.stdout.write(`wrote ${w.out} (${w.format}, ${w.frames} frames of ${w.width}×${w.height}, ${seconds} s each)\n`);
    });
}
