import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Command, CommanderError } from 'commander';
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
    .showHelpAfterError()
    .exitOverride();
  const dir = join(dirname(fileURLToPath(import.meta.url)), 'commands');
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts')).sort();
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
    if (err instanceof SpaceActError) {
      process.stderr.write(`spaceact: ${err.message}\n`);
      if (Object.keys(err.details).length) process.stderr.write(`${JSON.stringify(err.details)}\n`);
      process.exitCode = 2;
      return;
    }
    throw err;
  }
}
