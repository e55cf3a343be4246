import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Command, CommanderError } from 'commander';
import { fsErrorLine } from '../agents/fs-errors.ts';
import { SpaceActError } from '../core/errors.ts';
import { packageVersion } from '../core/package-info.ts';

/** A CLI command module: each file in `cli/commands/` exports one. */
export interface CommandModule {
  register(program: Command): void;
}

/**
 * Entry point of the `spaceact` command. Every file in `cli/commands/` registers one
 * sub-command, so adding a command never touches this file.
 */
export async function main(argv: string[]): Promise<void> {
  // A reader that stops early (`spaceact show … | head`) is not an error.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
  const program = new Command('spaceact')
    .description('SpaceAct: closed-loop 3D spatial and temporal reasoning benchmark')
    .version(packageVersion())
    // A short pointer, not 50 lines of help that would bury the error and its "Did you mean".
    .showHelpAfterError('(add --help for usage)')
    .exitOverride();
  const dir = join(dirname(fileURLToPath(import.meta.url)), 'commands');
  // `.ts` from the sources, `.js` from an installed package's compiled `dist/` (never its `.d.ts`).
  const ext = import.meta.url.endsWith('.js') ? '.js' : '.ts';
  const all = readdirSync(dir).filter((f) => f.endsWith(ext) && !f.endsWith('.d.ts')).sort();
  // Each command's file is named after it: load only that one when the command is named (a
  // command's imports cost a second or more of start-up); all of them for general help and
  // for an unknown command's "Did you mean".
  const named = argv[2] !== undefined ? `${argv[2]}${ext}` : '';
  const files = all.includes(named) ? [named] : all;
  for (const f of files) {
    const mod = (await import(pathToFileURL(join(dir, f)).href)) as CommandModule;
    mod.register(program);
  }
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode;
      return;
    }
    // One line a person can act on; the structured details are for programs, not for people.
    if (err instanceof SpaceActError) {
      process.stderr.write(`spaceact: ${err.message}\n`);
      process.exitCode = 2;
      return;
    }
    const fsLine = fsErrorLine(err);
    if (fsLine) {
      process.stderr.write(`spaceact: ${fsLine}\n`);
      process.exitCode = 2;
      return;
    }
    throw err;
  }
}
