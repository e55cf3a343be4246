import type { Command } from 'commander';
import { SpaceActError } from '../../core/errors.ts';
import { DEFAULT_RANDOM_SEEDS, DEFAULT_RANDOM_TURNS, selectVerifyInstances, verifyInstances, type VerifyResult } from '../../verify/verify.ts';

function yesNo(x: boolean | null): string {
  return x === null ? '-' : x ? 'yes' : 'no';
}

function row(r: VerifyResult): string {
  const s = r.shortcuts;
  const nul = s ? (s.null.passed ? 'ok' : 'SOLVES') : '-';
  const rnd = !s ? '-' : s.random.skipped ? 'skipped' : `${s.random.successes}/${s.random.seeds}${s.random.passed ? '' : '!'}`;
  const cells = [
    r.instance.padEnd(14),
    (r.verified ? 'verified' : 'FAILED').padEnd(9),
    String(r.referenceActions ?? '-').padStart(7),
    yesNo(r.optimal).padEnd(8),
    yesNo(r.unique).padEnd(7),
    nul.padEnd(7),
    rnd.padEnd(8),
    `${r.seconds.toFixed(1)}s`.padStart(7),
  ];
  return cells.join(' ');
}

/** `spaceact verify`: check instances are solvable by their reference and free of known shortcuts. */
export function register(program: Command): void {
  program
    .command('verify')
    .description(
      'verify instances: the reference solution replayed through the episode loop (solved, no violation), optimality and ' +
        'uniqueness where required, and the shortcut filters (null policy, random baseline, family filters). ' +
        'Default: the released set of every registered family. Exits 1 when any instance fails.',
    )
    .option('--family <ids>', "family id(s), comma-separated: the family's released instances")
    .option('--instance <ids>', 'instance id(s), comma-separated')
    .option('--json', 'print one JSON array of per-instance results')
    .option('--random-seeds <n>', 'random-baseline episodes per instance (0 skips it)', String(DEFAULT_RANDOM_SEEDS))
    .option('--random-turns <n>', 'turn budget of each random-baseline episode', String(DEFAULT_RANDOM_TURNS))
    .action(async (opts: { family?: string; instance?: string; json?: boolean; randomSeeds: string; randomTurns: string }) => {
      const seeds = Number(opts.randomSeeds);
      const turns = Number(opts.randomTurns);
      if (!/^\d+$/.test(opts.randomSeeds) || seeds > 1000) throw new SpaceActError('invalid-argument', '--random-seeds must be a whole number from 0 to 1000');
      if (!/^\d+$/.test(opts.randomTurns) || turns < 1 || turns > 1000) throw new SpaceActError('invalid-argument', '--random-turns must be a whole number from 1 to 1000');
      const ids = selectVerifyInstances(opts);
      const out = process.stdout;
      if (!opts.json) {
        out.write(`Verifying ${ids.length} instance(s); random baseline: ${seeds} seed(s), ${turns}-turn budget each (reduced for speed).\n`);
        out.write(`${'instance'.padEnd(14)} ${'result'.padEnd(9)} ${'ref act'.padStart(7)} ${'optimal'.padEnd(8)} ${'unique'.padEnd(7)} ${'null'.padEnd(7)} ${'random'.padEnd(8)} ${'time'.padStart(7)}\n`);
      }
      const results = await verifyInstances(ids, {
        randomSeeds: seeds,
        randomTurns: turns,
        onResult: (r) => {
          if (opts.json) return;
          out.write(row(r) + '\n');
          for (const f of r.failures ?? []) out.write(`    ✗ ${f}\n`);
        },
      });
      const failed = results.filter((r) => !r.verified);
      if (opts.json) {
        out.write(JSON.stringify(results, null, 2) + '\n');
      } else {
        const total = results.reduce((t, r) => t + r.seconds, 0);
        const skipped = results.find((r) => r.shortcuts?.random.skipped)?.shortcuts?.random.skipped;
        if (skipped) out.write(`note: random baseline skipped: ${skipped}\n`);
        out.write(`${results.length - failed.length}/${results.length} verified, ${failed.length} failed (${total.toFixed(1)} s)\n`);
      }
      if (failed.length) process.exitCode = 1;
    });
}
