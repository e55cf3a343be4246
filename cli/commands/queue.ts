import type { Command } from 'commander';
import { stringOption } from '../../core/options.ts';
import { dropQueueRun, LIVENESS_SECONDS, listQueueRuns, purgeQueue, type DropResult } from '../../agents/queue/admin.ts';
import { checkRedisUrl } from '../../agents/queue/protocol.ts';

function dropLine(d: DropResult): string {
  const active = d.active ? `; ${d.active} held by a worker, which stops ${d.active === 1 ? 'it' : 'them'} after the turn in flight` : '';
  return `dropped run ${d.run}: ${d.removed} job${d.removed === 1 ? '' : 's'} removed${active}\n`;
}

/** `spaceact queue ls|drop RUN|purge --queue URL`: see and remove queue runs' jobs. */
export function register(program: Command): void {
  const queue = program
    .command('queue')
    .description("see and remove queue runs' jobs: `ls` lists runs, `drop RUN` removes one run's jobs, `purge` removes every run with no live coordinator");
  const url = (opts: Record<string, string | undefined>): string => checkRedisUrl(stringOption(opts, 'queue')!);

  queue
    .command('ls')
    .description('list the runs in the queue: whether a coordinator is alive, and their jobs by state')
    .requiredOption('--queue <url>', 'the Redis of the queue, e.g. redis://10.0.0.5:6379')
    .action(async (opts: Record<string, string | undefined>) => {
      const runs = await listQueueRuns(url(opts));
      if (!runs.length) {
        process.stdout.write('no runs in the queue\n');
        return;
      }
      const states = ['waiting', 'delayed', 'prioritized', 'active', 'failed', 'completed'] as const;
      const rows = [['RUN', 'COORDINATOR', ...states.map((s) => s.toUpperCase())]];
      for (const r of runs) rows.push([r.run, r.coordinator === null ? 'none' : `alive (pid ${r.coordinator.slice(0, 12)})`, ...states.map((s) => String(r.jobs[s] ?? 0))]);
      const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
      for (const row of rows) process.stdout.write(`${row.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd()}\n`);
      process.stdout.write(`(a coordinator counts as alive for ${LIVENESS_SECONDS} s after its last sign of life; \`spaceact queue purge\` drops every run without one)\n`);
    });

  queue
    .command('drop <run>')
    .description("remove one run's jobs and keys (a run with a live coordinator only with --force)")
    .requiredOption('--queue <url>', 'the Redis of the queue')
    .option('--force', 'drop it even though its coordinator is alive (the coordinator then stops, saying the run is gone)')
    .action(async (run: string, opts: Record<string, string | undefined>) => {
      process.stdout.write(dropLine(await dropQueueRun(url(opts), run, { force: (opts as { force?: boolean }).force === true })));
    });

  queue
    .command('purge')
    .description('remove the jobs and keys of every run with no live coordinator (and jobs that name no run)')
    .requiredOption('--queue <url>', 'the Redis of the queue')
    .action(async (opts: Record<string, string | undefined>) => {
      const dropped = await purgeQueue(url(opts));
      if (!dropped.length) process.stdout.write('nothing to purge: every run in the queue has a live coordinator\n');
      for (const d of dropped) process.stdout.write(dropLine(d));
    });
}
