/**
 * Entry of a worker process of a parallel verification (`verify/verify-all.ts` forks it through
 * the process pool). It runs the jobs it is handed one at a time with the same code as a serial
 * verification. It starts a headless browser only for the view rule's measurements, and
 * closes it when the pool shuts it down.
 */
import { serveJobs } from '../agents/process-pool.ts';
import { closeViewRenderer, runVerifyJob, type VerifyJob, type VerifyJobResult, type VerifySettings } from './verify-all.ts';

serveJobs<VerifySettings, VerifyJob, VerifyJobResult>((job, ctx) => runVerifyJob(job, ctx.init), { close: closeViewRenderer });
