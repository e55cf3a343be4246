/**
 * V8 settings every SpaceAct Node process runs with: the CLI, the worker processes of parallel
 * runs and verification, and the benchmarks.
 *
 * Why: verification runs hundreds of short episodes through a large code base (the engine,
 * every family's generator, solver and checks). With V8's default interrupt budget a function
 * is handed to the optimising compiler after little work, so most of that code is compiled
 * with TurboFan — much of it for functions that then run for a few milliseconds. Measured on
 * `spaceact verify --suite all` (66 instances, 2-core machine, 2026-12-01): 2,047 TurboFan
 * compilations, about 12.5 s of background-thread CPU beside 49 s on the main thread. With
 * the budget 8 times the default: 976 compilations, 7.6 s in the background, the main thread
 * unchanged within noise (hot loops still reach optimised code; a budget 16 or 32 times the
 * default cut compiling a little more but slowed the main thread by 1–2 s).
 *
 * A serial run hardly notices (its compiler threads run on an otherwise idle core); a parallel
 * run does, because there every core is busy with a worker and each worker compiles the same
 * engine code again.
 */
import v8 from 'node:v8';

/** V8's default `--interrupt-budget` in Node 20 (V8 11.3), in bytes of bytecode executed. */
const DEFAULT_INTERRUPT_BUDGET = 67584;

/** Flags for every process (each may also be set at run time, see {@link applyV8Flags}). */
export const SPACEACT_V8_FLAGS: readonly string[] = [`--interrupt-budget=${8 * DEFAULT_INTERRUPT_BUDGET}`];

/**
 * Extra flags for worker processes when the workers fill every core: no background compiler
 * thread (it would only take time from the other workers; compiling on the main thread also
 * skips the hand-over between threads — measured 1.7 s less CPU over a 2-worker verification, one run).
 */
export const FULL_MACHINE_WORKER_V8_FLAGS: readonly string[] = ['--no-concurrent-recompilation'];

/**
 * Sets {@link SPACEACT_V8_FLAGS} in this process (V8 reads the budget as it counts, so setting
 * it at run time works; worker processes get the flags on their command line instead). Call it
 * before the work starts. Idempotent.
 */
export function applyV8Flags(): void {
  for (const flag of SPACEACT_V8_FLAGS) v8.setFlagsFromString(flag);
}
