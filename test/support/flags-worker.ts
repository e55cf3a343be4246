/**
 * A process-pool worker for tests: answers every job with the V8 flags its process was started
 * with (`process.execArgv`), to check what the pool passes to its workers.
 */
import { serveJobs } from '../../agents/process-pool.ts';

serveJobs<null, number, string[]>(async () => process.execArgv);
