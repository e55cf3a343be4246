/**
 * The V8 settings of `core/v8-flags.ts` reach pool workers: every worker gets the common flags
 * (the interrupt budget), and a pool's own extra flags come after them.
 */
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { runProcessPool } from '../agents/process-pool.ts';
import { FULL_MACHINE_WORKER_V8_FLAGS, SPACEACT_V8_FLAGS } from '../core/v8-flags.ts';

const ENTRY = fileURLToPath(new URL('./support/flags-worker.ts', import.meta.url));

async function workerFlags(v8Flags?: readonly string[]): Promise<string[]> {
  let got: string[] = [];
  await runProcessPool<null, number, string[]>({ entry: ENTRY, jobs: [0], workers: 1, init: null, ...(v8Flags ? { v8Flags } : {}), onResult: (_, r) => (got = r) });
  return got;
}

describe('V8 flags of SpaceAct processes', function () {
  it('the interrupt budget is larger than V8 default, and every pool worker starts with it', async function () {
    const budget = SPACEACT_V8_FLAGS.find((f) => f.startsWith('--interrupt-budget='));
    expect(Number(budget?.split('=')[1])).to.be.greaterThan(67584);
    const flags = await workerFlags();
    for (const f of SPACEACT_V8_FLAGS) expect(flags).to.include(f);
    expect(flags).to.not.include('--no-concurrent-recompilation');
  });

  it("a pool's own flags are passed too", async function () {
    const flags = await workerFlags(FULL_MACHINE_WORKER_V8_FLAGS);
    for (const f of [...SPACEACT_V8_FLAGS, ...FULL_MACHINE_WORKER_V8_FLAGS]) expect(flags).to.include(f);
  });
});
