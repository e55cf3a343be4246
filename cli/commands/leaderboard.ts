import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { categoryLabel } from '../../report/analysis/analyze.ts';
import { leaderboardPage } from '../../report/analysis/html.ts';
import { buildLeaderboard, type Leaderboard } from '../../report/analysis/leaderboard.ts';
import { REPORT_CSP } from '../../report/html.ts';
import { SpaceActError } from '../../core/errors.ts';
import { leaderboardLeverTable, leaderboardTable } from '../../report/analysis/tables.ts';
import { tableFormatOption, writeTables } from '../../report/tables.ts';

function pct(x: number | null): string {
  return x === null ? '–' : `${(100 * x).toFixed(1)}%`;
}

/** The leaderboard as a plain-text table. */
export function formatLeaderboard(lb: Leaderboard): string {
  const head = ['#', 'agent', 'mode', 'score', 'success [Wilson 95%]', ...lb.categories.map((c) => `${c} success`), 'graded', 'ungraded', 'abandoned', 'tokens/solved', 'cost/solved'];
  const rows = lb.rows.map((r) => [
    String(r.rank),
    r.agent,
    r.mode,
    r.meanScore === null ? '–' : r.meanScore.toFixed(1),
    `${pct(r.success.rate)} ${r.success.solved}/${r.success.episodes}${r.success.wilson95 ? ` [${(100 * r.success.wilson95.lo).toFixed(0)}, ${(100 * r.success.wilson95.hi).toFixed(0)}]` : ''}`,
    ...lb.categories.map((c) => {
      const s = r.categories.find((x) => x.category === c);
      return s ? `${s.solved}/${s.episodes}` : '–';
    }),
    String(r.graded),
    String(r.ungraded),
    String(r.abandoned),
    r.tokensPerSolved === null ? '–' : String(Math.round(r.tokensPerSolved)),
    r.costPerSolved === undefined || r.costPerSolved === null ? '–' : `$${r.costPerSolved.toFixed(4)}`,
  ]);
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const line = (r: string[]): string => r.map((x, c) => (c === 1 || c === 2 ? x.padEnd(widths[c]) : x.padStart(widths[c]))).join('  ');
  const legend = lb.categories.map((c) => categoryLabel(c)).join('; ');
  const sets = [...new Set(lb.rows.map((r) => r.instanceSet.name))];
  const studies = lb.rows.flatMap((r) => r.leverDeltas.map((d) => `  ${r.agent} (${r.mode}) ${d.lever}: ${d.delta === null ? '–' : `${d.delta >= 0 ? '+' : ''}${d.delta.toFixed(1)}`}${d.interval ? ` [${d.interval.lo.toFixed(1)}, ${d.interval.hi.toFixed(1)}]` : ''} over ${d.pairs} pair(s) (${d.families.join(', ')})`));
  const leverText = studies.length ? `lever studies (score delta lever − L5, paired bootstrap 95 %):\n${studies.join('\n')}\n` : '';
  return [line(head), ...rows.map(line)].join('\n') + `\n\ninstances: ${sets.join('; ')}\ncategories: ${legend}\nscore: mean tiered score over graded episodes (abandoned as 0); success over every episode\n` + leverText;
}

/** `spaceact leaderboard DIR … [--json] [--out FILE]`: one row per agent and mode, like the paper's main table. */
export function register(program: Command): void {
  program
    .command('leaderboard')
    .description('a leaderboard over runs: one row per agent (model) and mode; score, success with Wilson intervals overall and per category, graded/ungraded, abandoned, tokens and cost per solved episode')
    .argument('<dirs...>', 'run folders (spaceact run --out)')
    .option('--json', 'print the leaderboard as JSON')
    .option('--allow-mixed', 'rank runs over different instance sets anyway (refused by default: their rows would not be comparable); each row names its set')
    .option('--format <f>', 'print the table for a paper instead: csv, md, tex (LaTeX, booktabs) or json — the same numbers as the page (rates as fractions, Wilson 95 % ends, scores 0–100)')
    .option('--out <file>', 'write the leaderboard as an HTML page (no network, one file); with --format, the table in that format')
    .action((dirs: string[], opts: { json?: boolean; out?: string; format?: string; allowMixed?: boolean }) => {
      const format = tableFormatOption(opts.format);
      const out = opts.out ? resolve(opts.out) : null;
      if (out && !existsSync(dirname(out))) throw new SpaceActError('io', `the folder of ${opts.out} does not exist`, { out: opts.out });
      const lb = buildLeaderboard(dirs, { allowMixed: opts.allowMixed === true });
      if (format) {
        const levers = leaderboardLeverTable(lb);
        const text = writeTables(levers ? [leaderboardTable(lb), levers] : [leaderboardTable(lb)], format);
        if (out) writeFileSync(out, text);
        process.stdout.write(text);
        return;
      }
      if (out) {
        const tmp = `${out}.${process.pid}.tmp`;
        writeFileSync(tmp, leaderboardPage(lb, REPORT_CSP));
        renameSync(tmp, out);
      }
      process.stdout.write(opts.json ? JSON.stringify(lb, null, 2) + '\n' : formatLeaderboard(lb));
      if (out && !opts.json) process.stdout.write(`wrote ${out}\n`);
    });
}
