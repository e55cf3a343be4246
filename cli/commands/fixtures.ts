import type { Command } from 'commander';
import { SpaceActError } from '../../core/errors.ts';
import { listOption } from '../../core/options.ts';
import { checkFixtures, writeFixtures, type FixtureReport } from '../../verify/fixtures.ts';

/** `spaceact fixtures --write | --check [--family IDS]`: the checked-in released set. */
export function register(program: Command): void {
  program
    .command('fixtures')
    .description(
      'write or check the released instances under fixtures/instances/<FAMILY>/<id>.json (instance, reference ' +
        'solution, golden final state hash). --check regenerates every file and exits 1 on the first differing field.',
    )
    .option('--write', 'regenerate and write the fixture files')
    .option('--check', 'regenerate and compare with the files on disk')
    .option('--family <ids>', 'only these families (comma-separated)')
    .action(async (opts: { write?: boolean; check?: boolean; family?: string }) => {
      if (Boolean(opts.write) === Boolean(opts.check)) throw new SpaceActError('invalid-argument', 'give exactly one of --write and --check');
      const fams = listOption(opts, 'family');
      const print = (r: FixtureReport): void => {
        process.stdout.write(r.ok ? `${opts.write ? 'wrote' : 'ok   '} ${r.id}\n` : `FAIL  ${r.problem}\n`);
      };
      const reports = opts.write
        ? await writeFixtures({ ...(fams ? { families: fams } : {}), onReport: print })
        : await checkFixtures({ ...(fams ? { families: fams } : {}), onReport: print });
      const bad = reports.filter((r) => !r.ok);
      process.stdout.write(`${reports.length - bad.length}/${reports.length} fixtures ${opts.write ? 'written' : 'match'}\n`);
      if (bad.length) process.exitCode = 1;
    });
}
