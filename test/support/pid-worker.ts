/**
 * A process-pool worker for tests: answers a job with its own process id and the init it was
 * sent; job -1 fails, job -2 never answers (until the process is killed).
 */
import { serveJobs } from '../../agents/process-pool.ts';

serveJobs<string, number, { pid: number; init: string }>((job, ctx) => {
  if (job === -1) throw new Error('job -1 fails on purpose');
  if (job === -2) return new Promise(() => {});
  return Promise.resolve({ pid: process.pid, init: ctx.init });
});
