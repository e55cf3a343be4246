import type { Command } from 'commander';
import { CALIBRATION_TOLERANCE, runCalibration, type CalibrationResult } from '../../sim/calibration.ts';

function fmt(v: number): string {
  return Math.abs(v) >= 1e-3 || v === 0 ? v.toFixed(4) : v.toExponential(2);
}

/** A fixed-width table of the calibration results. */
function table(results: CalibrationResult[]): string {
  const rows = results.map((r) => [r.scene, r.case, r.quantity, fmt(r.measured), fmt(r.expected), r.relError === null ? '—' : `${(r.relError * 100).toFixed(2)} %`, r.pass ? 'pass' : 'FAIL', r.detail ?? '']);
  const head = ['scene', 'case', 'quantity', 'measured', 'expected', 'rel. error', 'result', 'note'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** `spaceact calibrate [--json]`: the physics world against analytic mechanics. */
export function register(program: Command): void {
  program
    .command('calibrate')
    .description(
      `run the calibration scenes (free fall, incline at atan μ ± 3°, harmonic overhang at 95 %/105 %, physical ` +
        `pendulum, a group turn's contact angle, a gear pair's ratio, prismatic limits, a lateral push's tipping force) ` +
        `and print measured vs expected values; exits 1 if any fails its check`,
    )
    .option('--json', 'print the results as JSON')
    .action(async (opts: { json?: boolean }) => {
      const results = await runCalibration();
      const pass = results.every((r) => r.pass);
      if (opts.json) process.stdout.write(`${JSON.stringify({ tolerance: CALIBRATION_TOLERANCE, pass, results }, null, 2)}\n`);
      else process.stdout.write(`${table(results)}\n\n${pass ? 'all scenes within' : 'FAILED: not all scenes within'} ${CALIBRATION_TOLERANCE * 100} %\n`);
      if (!pass) process.exitCode = 1;
    });
}
