import type { Command } from 'commander';
import { tierLabel } from '../../core/catalog.ts';
import { SpaceActError } from '../../core/errors.ts';
import { numberOption } from '../../core/options.ts';
import { getFamily } from '../../tasks/registry.ts';
import { DEFAULT_BATTERY_SEEDS, DEFAULT_BATTERY_TRAINING, type BatteryReport } from '../../verify/battery.ts';
import { DEFAULT_RANDOM_SEEDS, DEFAULT_RANDOM_TURNS, selectVerifyInstances, type VerifyResult } from '../../verify/verify.ts';
import { VERIFY_TEXT_SEEDS } from '../../verify/text-leak.ts';
import { VERIFY_VIEW_SEEDS } from '../../verify/view-sample.ts';
import { verifyAll } from '../../verify/verify-all.ts';
import { VERIFY_LIMITS } from '../../verify/verify-limits.ts';
import { checkRedisUrl } from '../../agents/queue/protocol.ts';

function yesNo(x: boolean | null): string {
  return x === null ? '-' : x ? 'yes' : 'no';
}

function row(r: VerifyResult): string {
  const s = r.shortcuts;
  const nul = s ? (s.null.passed ? 'ok' : 'SOLVES') : '-';
  const rnd = !s ? '-' : s.random.skipped ? 'skipped' : `${s.random.successes}/${s.random.seeds}${s.random.passed ? '' : '!'}`;
  const cells = [
    r.instance.padEnd(14),
    (r.verified ? 'verified' : 'FAILED').padEnd(9),
    String(r.referenceActions ?? '-').padStart(7),
    yesNo(r.optimal).padEnd(8),
    yesNo(r.unique).padEnd(7),
    nul.padEnd(7),
    rnd.padEnd(8),
    `${r.seconds.toFixed(1)}s`.padStart(7),
  ];
  return cells.join(' ');
}

function pct(x: number): string {
  return `${(x * 100).toFixed(0)}%`;
}

/** The battery's lines for one family × tier: one per agent, failures marked. */
function batteryLines(r: BatteryReport): string[] {
  const head = `${r.family}-${r.tier}: ${r.passed ? 'passed' : 'FAILED'} over ${r.seeds.length} seeds (${r.seconds.toFixed(1)} s)`;
  if (r.error) return [head, `    ✗ ${r.error}`];
  const lines = [head];
  for (const a of r.agents) {
    const fitted = a.training !== undefined ? `, fitted on ${a.training} seeds` : '';
    const cost =
      (a.gaveUp ? `, ${a.cpuSeconds.toFixed(2)} s CPU/episode, gave up on ${a.gaveUp} (${(a.gaveUpReasons ?? []).join('; ')})` : a.cpuSeconds >= 0.1 ? `, ${a.cpuSeconds.toFixed(2)} s CPU/episode` : '') +
      (a.unfiltered ? `, ${a.unfiltered} played unfiltered past the tier's shared-work cap` : '') +
      (a.precomputeSeconds ? `, ${a.precomputeSeconds.toFixed(0)} s CPU precomputed once for the tier` : '') +
      (a.transcripts ? `, its probes read ${a.transcripts.transcripts} way${a.transcripts.transcripts === 1 ? '' : 's'} over ${a.transcripts.pool} candidate worlds (largest alike ${a.transcripts.largest})` : '');
    const score = (a.meanScore === null ? '' : `, mean score ${a.meanScore.toFixed(1)}`) + fitted + cost;
    const interval = `[${pct(a.interval[0])}, ${pct(a.interval[1])}]`;
    const mark = a.verdict === 'fail' ? '✗' : a.verdict === 'inconclusive' ? '?' : ' ';
    const verdict = a.verdict === 'fail' ? ` — over its bound; solved seeds ${a.solvedSeeds.join(', ')}` : a.verdict === 'inconclusive' ? ' — inconclusive: over its bound, not significantly at this many seeds; add seeds (--battery-seeds)' : '';
    lines.push(`    ${mark} ${a.name.padEnd(20)} ${`${a.successes}/${a.episodes}`.padStart(7)} = ${pct(a.rate).padStart(4)} ${interval.padEnd(11)} (bound ${pct(a.bound)})${score}${verdict}`);
  }
  if (r.notApplicable.length) lines.push(`      not applicable: ${r.notApplicable.join(', ')}`);
  for (const f of r.referenceFailures ?? []) lines.push(`    ✗ reference fails on ${f.purpose} seed ${f.instance}: ${f.reason}`);
  if (r.referenceSeconds) lines.push(`      references certified on ${r.seeds.length + r.training.length} seeds (${r.referenceSeconds.toFixed(1)} s CPU)`);
  return lines;
}

/** Families whose battery a selection asks for: every family named or holding a selected instance. */
function batteryFamilies(ids: string[]): string[] {
  return [...new Set(ids.map((id) => id.split('-')[0].toUpperCase()))];
}

/** `spaceact verify`: check instances are solvable by their reference and free of known shortcuts. */
export function register(program: Command): void {
  program
    .command('verify')
    .description(
      'verify instances: the reference solution replayed through the episode loop (solved, no violation), optimality and ' +
        'uniqueness where required, and the shortcut filters (null policy, random baseline, family filters); then the ' +
        "shortcut battery: sightless agents (null, random, constant answer, first option, memorised plan, blind probing, " +
        "straight-line motion, the family's own) over many seeds per tier, each held to its bound. " +
        'Default: the released set and battery of every registered family. Exits 1 when any instance or battery agent fails.',
    )
    .option('--family <ids>', "family id(s), comma-separated: the family's released instances")
    .option('--instance <ids>', 'instance id(s), comma-separated')
    .option('--suite <name>', 'a suite: main, all, levers (the L5 lever studies), or one a family offers (e.g. rota, rotation, polycomp)')
    .option('--json', 'print one JSON object: {instances: [per-instance results], textLeaks: [per family × tier text-leak records], views: [per family × tier view-rule samples], battery: [per family × tier reports]}')
    .option('--random-seeds <n>', 'random-baseline episodes per instance (0 skips it)', String(DEFAULT_RANDOM_SEEDS))
    .option('--random-turns <n>', 'turn budget of each random-baseline episode', String(DEFAULT_RANDOM_TURNS))
    .option(
      '--battery-seeds <n>',
      `shortcut battery: seeds per tier each sightless agent is judged on (0 skips it; default ${DEFAULT_BATTERY_SEEDS}, or 0 with --instance or --suite)`,
    )
    .option('--battery-training <n>', 'shortcut battery: seeds per tier fitted agents learn from', String(DEFAULT_BATTERY_TRAINING))
    .option('--view-seeds <n>', `view-rule sample: seeds per tier (of the text-leak check's tiers) whose first view is rendered and held to the view rule (0 skips it; default: the battery's seeds, every one it judges, or ${VERIFY_VIEW_SEEDS} without a battery; with a battery its training seeds are checked too)`)
    .option('--agents <names>', 'shortcut battery: only these agents, comma-separated (e.g. reconstruct-then-plan,probe-and-map); default all')
    .option('--text-seeds <n>', `text-leak check: seeds per tier whose title, rules and tool text must read alike (0 skips it)`, String(VERIFY_TEXT_SEEDS))
    .option('--concurrency <n>', 'worker processes sharing the instances and the battery tiers (results as with 1, in the same order)', '1')
    .option('--checkpoint <file>', 'keep every finished record in FILE as it is made; run the same verification again with the same FILE after an interruption and it goes on where it stopped (a file of another checkout, other options or another selection is refused)')
    .option('--queue <url>', 'redis://HOST:PORT: hand the pieces (a family\'s instances, a family × tier\'s text check or battery) to `spaceact worker` processes on any machine with this checkout (results as a local run, in the same order)')
    .action(async (opts: { family?: string; instance?: string; suite?: string; json?: boolean; randomSeeds: string; randomTurns: string; batterySeeds?: string; batteryTraining: string; agents?: string; textSeeds: string; viewSeeds?: string; concurrency: string; queue?: string; checkpoint?: string }) => {
      const seeds = numberOption(opts, 'randomSeeds', { min: 0, max: VERIFY_LIMITS.randomSeeds, integer: true })!;
      const turns = numberOption(opts, 'randomTurns', { min: 1, max: VERIFY_LIMITS.randomTurns, integer: true })!;
      const explicitBattery = opts.batterySeeds !== undefined;
      const batterySeeds = explicitBattery ? numberOption(opts, 'batterySeeds', { min: 0, max: VERIFY_LIMITS.batterySeeds, integer: true })! : opts.instance !== undefined || opts.suite !== undefined ? 0 : DEFAULT_BATTERY_SEEDS;
      const batteryTraining = numberOption(opts, 'batteryTraining', { min: 1, max: VERIFY_LIMITS.batteryTraining, integer: true })!;
      const concurrency = numberOption(opts, 'concurrency', { min: 1, max: 64, integer: true })!;
      const queue = opts.queue !== undefined ? checkRedisUrl(opts.queue) : undefined;
      const ids = selectVerifyInstances(opts);
      const familiesToJudge = batterySeeds > 0 ? batteryFamilies(opts.family !== undefined ? opts.family.split(',').map((f) => f.trim()).filter(Boolean) : ids).map((f) => getFamily(f).id) : [];
      const out = process.stdout;
      if (!opts.json) {
        out.write(`Verifying ${ids.length} instance(s); random baseline: ${seeds} seed(s), ${turns}-turn budget each (reduced for speed).\n`);
        out.write(`${'instance'.padEnd(14)} ${'result'.padEnd(9)} ${'ref act'.padStart(7)} ${'optimal'.padEnd(8)} ${'unique'.padEnd(7)} ${'null'.padEnd(7)} ${'random'.padEnd(8)} ${'time'.padStart(7)}\n`);
      }
      let batteryHeader = false;
      let textHeader = false;
      const textSeeds = numberOption(opts, 'textSeeds', { min: 0, max: VERIFY_LIMITS.textSeeds, integer: true })!;
      const viewSeeds = opts.viewSeeds !== undefined ? numberOption(opts, 'viewSeeds', { min: 0, max: VERIFY_LIMITS.viewSeeds, integer: true })! : batterySeeds > 0 ? batterySeeds : VERIFY_VIEW_SEEDS;
      let viewHeader = false;
      const { instances: results, textLeaks, views, battery } = await verifyAll({
        textSeeds,
        viewSeeds,
        instances: ids,
        randomSeeds: seeds,
        randomTurns: turns,
        batterySeeds,
        batteryTraining,
        batteryFamilies: familiesToJudge,
        ...(opts.agents !== undefined ? { batteryAgents: opts.agents.split(',').map((a) => a.trim()).filter(Boolean) } : {}),
        concurrency,
        ...(opts.checkpoint !== undefined
          ? {
              checkpoint: opts.checkpoint,
              onResumed: (records: number, total: number) => {
                if (records > 0) process.stderr.write(`resumed ${records} of ${total} records from ${opts.checkpoint}\n`);
              },
            }
          : {}),
        ...(queue ? { queue, onNotice: (line: string) => process.stderr.write(`${line}\n`) } : {}),
        onResult: (r) => {
          if (opts.json) return;
          out.write(row(r) + '\n');
          for (const f of r.failures ?? []) out.write(`    ✗ ${f}\n`);
        },
        onTextReport: (r) => {
          if (opts.json) return;
          if (!textHeader) {
            textHeader = true;
            out.write(`\nText-leak check: title, rules and tool text alike over ${textSeeds} seed(s) per tier but for allow-listed values.\n`);
          }
          out.write(`${`${r.family} ${tierLabel(r.tier, r.lever)}`.padEnd(10)} ${r.passed ? 'ok' : 'FAILED'}\n`);
          for (const p of r.problems) out.write(`    ✗ ${p}\n`);
        },
        onViewReport: (r) => {
          if (opts.json) return;
          if (!viewHeader) {
            viewHeader = true;
            out.write(`\nView rule over ${viewSeeds} seed(s) per tier${batterySeeds > 0 ? ' and the battery\'s training seeds' : ''}: every first view held to the rule the released instances meet.\n`);
          }
          out.write(`${`${r.family} ${tierLabel(r.tier, r.lever)}`.padEnd(10)} ${r.passed ? `ok (${r.seeds} seeds)` : `FAILED on ${r.failures.length} of ${r.seeds}`}\n`);
          for (const f of r.failures.slice(0, 5)) out.write(`    ✗ ${f.problems.join('; ')}\n`);
          if (r.failures.length > 5) out.write(`    … and ${r.failures.length - 5} more\n`);
        },
        onBatteryReport: (r) => {
          if (opts.json) return;
          if (!batteryHeader) {
            batteryHeader = true;
            out.write(`\nShortcut battery: sightless agents on ${batterySeeds} seed(s) per tier, fitted on ${batteryTraining} other seed(s).\n`);
          }
          out.write(batteryLines(r).join('\n') + '\n');
        },
      });
      const failed = results.filter((r) => !r.verified);
      const batteryFailed = battery.filter((r) => !r.passed);
      const textFailed = textLeaks.filter((r) => !r.passed);
      const viewFailed = views.filter((r) => !r.passed);
      if (opts.json) {
        out.write(JSON.stringify({ instances: results, textLeaks, views, battery }, null, 2) + '\n');
      } else {
        const total = results.reduce((t, r) => t + r.seconds, 0);
        const skipped = results.find((r) => r.shortcuts?.random.skipped)?.shortcuts?.random.skipped;
        if (skipped) out.write(`note: random baseline skipped: ${skipped}\n`);
        out.write(`${results.length - failed.length}/${results.length} verified, ${failed.length} failed (${total.toFixed(1)} s)\n`);
        if (textLeaks.length) out.write(`text-leak check: ${textLeaks.length - textFailed.length}/${textLeaks.length} family tiers read alike over every seed\n`);
        if (views.length) out.write(`view rule: ${views.length - viewFailed.length}/${views.length} family tiers with every sampled first view passing\n`);
        if (battery.length) {
          const secs = battery.reduce((t, r) => t + r.seconds, 0);
          const inconclusive = battery.flatMap((r) => r.agents.filter((a) => a.verdict === 'inconclusive').map((a) => `${r.family}-${r.tier} ${a.name}`));
          out.write(`shortcut battery: ${battery.length - batteryFailed.length}/${battery.length} family tiers with no agent significantly over its bound (${secs.toFixed(1)} s)\n`);
          if (inconclusive.length) out.write(`inconclusive (over the bound, not significantly; add seeds): ${inconclusive.join(', ')}\n`);
        }
      }
      if (failed.length || batteryFailed.length || textFailed.length || viewFailed.length) process.exitCode = 1;
    });
}
