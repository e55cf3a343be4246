import type { Command } from 'commander';
import { numberOption } from '../../core/options.ts';
import { DEFAULT_MAX_LIVE, startServe } from '../../play/serve.ts';

/** `spaceact serve [--port P] [--out DIR] [--mode M] [--agent LABEL] [--max-live N]`: episodes over HTTP/JSON for agents in any language. */
export function register(program: Command): void {
  program
    .command('serve')
    .description('serve episodes over HTTP/JSON on 127.0.0.1 for agents in any language (docs/serve.md): create an episode, read observations, send SAPA replies; logged like a run into --out')
    .option('--port <n>', 'port on 127.0.0.1 (0: any free port)', '8642')
    .option('--out <dir>', 'run folder every episode is logged into (report, analyze and leaderboard read it); one agent and one mode per folder', 'runs/serve')
    .option('--mode <mode>', 'mode of episodes whose request names none: plan, state, no-camera, blind, nonote, nosplit, cap1 (join with +)', 'default')
    .option('--agent <label>', 'agent label of episodes whose request names none; logged as agent http:<label> (default: http)')
    .option('--max-live <n>', 'episodes in play at once', String(DEFAULT_MAX_LIVE))
    .action(async (opts: { port: string; out: string; mode: string; agent?: string; maxLive: string }) => {
      const port = numberOption(opts, 'port', { min: 0, max: 65535, integer: true })!;
      const maxLive = numberOption(opts, 'maxLive', { min: 1, max: 64, integer: true })!;
      const server = await startServe({ out: opts.out, port, mode: opts.mode, maxLive, ...(opts.agent !== undefined ? { agent: opts.agent } : {}) });
      process.stdout.write(`spaceact serve: listening on ${server.url}api (log folder ${server.out}; Ctrl-C stops)\n`);
      await new Promise<void>((resolve) => {
        const stop = (): void => {
          process.removeListener('SIGINT', stop);
          process.removeListener('SIGTERM', stop);
          resolve();
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
      await server.close();
      const s = server.summary;
      process.stdout.write(s ? `stopped; ${s.totals.episodes} episode(s) finished (${s.totals.solved} solved), ${s.unfinished.length} unfinished; summary: ${server.out}/summary.json\n` : 'stopped; no episode was played\n');
    });
}
