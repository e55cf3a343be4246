/**
 * Entry of a worker process of a parallel verification (`verify/verify-all.ts` forks it through
 * the process pool). It runs the jobs it is handed one at a time with the same code as a serial
 * verification. It never starts a browser: nothing in verification renders.
 */
import { serveJobs } from '../agents/process-pool.ts';
import { runVerifyJob, type VerifyJob, type VerifyJobResult, type VerifySettings } from './verify-all.ts';

serveJobs<VerifySettings, VerifyJob, VerifyJobResult>((job, ctx) => runVerifyJob(job, ctx.init));
