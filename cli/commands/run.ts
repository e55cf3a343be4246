import { resolve } from 'node:path';
import type { Command } from 'commander';
import { flagName, numberOption, stringOption } from '../../core/options.ts';
import type { AgentOptions } from '../../agents/types.ts';
import { agentFactory, AGENTS, describeAgent } from '../../agents/agent-registry.ts';
import { parseMode } from '../../agents/modes.ts';
import { RENDER_WHEN, RUN_DEFAULTS, type RenderWhen } from '../../agents/run-defaults.ts';
import { moveRunAside, runInstances, staleRunReason, type SummaryEntry } from '../../agents/runner.ts';
import { SpaceActError } from '../../core/errors.ts';
import { selectInstances, suiteNames } from '../../tasks/suites.ts';
import { writeReport } from '../../report/html.ts';
import { RunProgress } from '../../report/progress.ts';
import { checkRedisUrl } from '../../agents/queue/protocol.ts';

/** Which command-line options each agent reads (anything else given for it is an error). */
export const AGENT_OPTIONS: Record<string, readonly string[]> = {
  reference: [],
  null: [],
  random: ['seed'],
  greedy: ['seed', 'greedySamples'],
  openai: [
    'baseUrl', 'model', 'apiKeyEnv', 'temperature', 'maxOutputTokens', 'maxTokensField', 'reasoningEffort', 'timeout',
    'apiAttempts', 'backoffBase', 'backoffCap', 'replyRetries', 'historyTurns', 'seed', 'cache', 'prices',
  ],
};
const ALL_AGENT_OPTIONS = new Set(Object.values(AGENT_OPTIONS).flat());
/** Options naming files or folders: made absolute so worker processes find them too. */
const PATH_OPTIONS = new Set(['cache', 'prices']);

/** The agent's own options out of the command line's. */
export function agentOptions(agent: string, opts: Record<string, unknown>): AgentOptions {
  const reads = new Set(AGENT_OPTIONS[agent] ?? [...ALL_AGENT_OPTIONS]);
  const out: AgentOptions = {};
  for (const key of ALL_AGENT_OPTIONS) {
    if (opts[key] === undefined) continue;
    if (!reads.has(key)) throw new SpaceActError('invalid-argument', `${flagName(key)} does not apply to --agent ${agent}`, { option: key });
    out[key] = PATH_OPTIONS.has(key) ? resolve(String(opts[key])) : opts[key];
  }
  return out;
}

function line(e: SummaryEntry): string {
  const score = e.score === null ? (e.solved ? 'pass' : 'fail') : e.score.toFixed(1);
  const tokens = e.inputTokens || e.outputTokens ? `  tokens ${e.inputTokens}/${e.outputTokens}` : '';
  const cost = e.cost !== undefined ? `  $${e.cost.toFixed(4)}` : '';
  return `${e.instance.padEnd(14)} ${e.solved ? 'solved  ' : e.abandoned ? 'abandon ' : 'unsolved'} score ${score.padStart(5)}  turns ${String(e.turns).padStart(3)}  actions ${String(e.actions).padStart(4)} (ref ${e.referenceActions})  violations ${e.violations}${tokens}${cost}\n`;
}

/** `spaceact run`: run an agent over instances, writing logs and DIR/summary.json. */
export function register(program: Command): void {
  program
    .command('run')
    .description('run an agent over instances; writes DIR/episodes/*/log.jsonl and DIR/summary.json')
    .requiredOption('--agent <name>', `agent: ${Object.keys(AGENTS).join(', ')} (a person plays with \`spaceact play\`)`)
    .option('--instance <ids>', 'instance id(s), comma-separated')
    .option('--family <ids>', "family id(s), comma-separated: the family's released instances")
    .option('--suite <name>', `${suiteNames().join(', ')} (main: hardest tier of each family; all: the released set; levers: each released L5 instance and the same seed with each lever its family supports; the others: the seed benchmarks' own sets)`)
    .requiredOption('--out <dir>', 'output folder (rerunning with the same folder resumes)')
    .option('--mode <mode>', 'diagnostic mode(s): plan, state, no-camera, blind, nonote, nosplit, cap1 (join with +)', 'default')
    .option('--render <when>', 'always | auto (only when the agent looks) | never', RUN_DEFAULTS.render)
    .option('--history-images <m>', 'images of the last m turns kept in the history', String(RUN_DEFAULTS.historyImages))
    .option('--concurrency <n>', 'episodes run in parallel worker processes', String(RUN_DEFAULTS.concurrency))
    .option('--queue <url>', 'redis://HOST:PORT: enqueue the episodes for `spaceact worker` processes on any machine (started with the same agent flags: a job names only the agent\'s kind); they send every turn here, and this folder is written as by a local run')
    .option('--cost-limit <dollars>', 'stop after the turn in flight once this much is recorded in --out (needs --prices)')
    .option('--seed <n>', 'random/greedy: seed (with the instance id); openai: retry jitter seed')
    .option('--greedy-samples <n>', 'greedy: calls drawn from the schemas per turn, besides enumerable ones')
    .option('--model <name>', 'openai: model name')
    .option('--base-url <url>', 'openai: endpoint root (default $OPENAI_BASE_URL or https://api.openai.com/v1)')
    .option('--api-key-env <NAME>', 'openai: environment variable holding the key (default OPENAI_API_KEY)')
    .option('--temperature <t>', 'openai: sampling temperature (default: the endpoint\'s)')
    .option('--max-output-tokens <n>', 'openai: output-token limit per request')
    .option('--max-tokens-field <field>', 'openai: max_completion_tokens (default) or max_tokens for older endpoints')
    .option('--reasoning-effort <level>', 'openai: none, minimal, low, medium, high or xhigh (only for endpoints that take it)')
    .option('--timeout <seconds>', 'openai: per-request deadline, body included (default 300)')
    .option('--api-attempts <n>', 'openai: requests per answer before the episode is abandoned (default 6)')
    .option('--backoff-base <seconds>', 'openai: first retry delay, doubling (default 1)')
    .option('--backoff-cap <seconds>', 'openai: longest retry delay (default 30)')
    .option('--reply-retries <n>', 'openai: re-asks after an invalid reply (default 2)')
    .option('--history-turns <k>', 'openai: earlier turns shown as text (default 8)')
    .option('--prices <file>', 'openai: JSON price table {model: {input_per_mtok, output_per_mtok}}')
    .option('--cache <dir>', 'openai: response cache folder')
    .option('--repair', 'cut a damaged episode log after its last good line (saying what is dropped, keeping a copy) instead of stopping')
    .option('--keep-abandoned', 'reuse abandoned episodes as they are instead of retrying them from the failed turn')
    .option('--abandon-limit <n>', 'stop the run after n episodes in a row are abandoned (0: never)', '3')
    .option('--no-report', 'do not write DIR/report.html at the end')
    .option('--replace-stale', 'when --out holds a run that cannot be resumed (an instance changed since, another agent or mode), move it aside to DIR.stale-N (nothing is deleted) and start afresh')
    .action(async (opts: Record<string, string | undefined>) => {
      const ids = selectInstances(opts);
      const mode = parseMode(opts.mode);
      const agentName = opts.agent!;
      const factory = agentFactory(agentName);
      const render = stringOption(opts, 'render', RENDER_WHEN) as RenderWhen;
      const historyImages = numberOption(opts, 'historyImages', { min: 0, max: 20, integer: true })!;
      const concurrency = numberOption(opts, 'concurrency', { min: 1, max: 64, integer: true })!;
      const costLimit = numberOption(opts, 'costLimit', { min: 0 });
      const abandonLimit = numberOption(opts, 'abandonLimit', { min: 0, max: 1_000_000, integer: true })!;
      const flags = opts as { repair?: boolean; keepAbandoned?: boolean };
      const options = agentOptions(agentName, opts);
      // Build one agent now, so bad options fail before anything runs (a queue run's coordinator
      // needs no key: its workers read theirs).
      const queue = opts.queue !== undefined ? checkRedisUrl(stringOption(opts, 'queue')!) : undefined;
      const probe = queue !== undefined ? describeAgent(agentName, options) : factory(options);
      await probe.close?.();
      if (costLimit !== undefined && agentName === 'openai' && probe.settings.price === undefined) {
        throw new SpaceActError('invalid-argument', `--cost-limit needs a price for model ${String(options.model)}: give --prices with an entry for it`);
      }
      if ((opts as { replaceStale?: boolean }).replaceStale) {
        const why = staleRunReason(opts.out!, ids, probe.name, mode);
        if (why) process.stderr.write(`spaceact: ${why}; moved the old run to ${moveRunAside(opts.out!)}\n`);
      }
      const progress = new RunProgress(ids.length, { concurrency });
      const say = (m: string): void => (progress.live ? progress.log(`spaceact: ${m}`) : void process.stderr.write(`spaceact: ${m}\n`));
      // Ctrl-C: the episodes in flight end after their turn in flight, the summary and the report
      // are written for what finished, and the same command continues the run; a second Ctrl-C
      // leaves at once (the turns in flight are lost, nothing logged before them).
      let interrupted = false;
      const onInterrupt = (): void => {
        if (interrupted) {
          say(`left at once; every turn logged in ${opts.out} is kept; rerun the same command to continue`);
          process.exit(130);
        }
        interrupted = true;
        say('stopping after the turn in flight (Ctrl-C again to leave at once)');
      };
      process.on('SIGINT', onInterrupt);
      let summary: Awaited<ReturnType<typeof runInstances>>;
      try {
        summary = await runInstances({
          instances: ids,
          agent: { name: agentName, options },
          mode,
          out: opts.out!,
          render,
          historyImages,
          concurrency,
          ...(queue !== undefined ? { queue } : {}),
          ...(costLimit !== undefined ? { costLimit } : {}),
          onEpisodeStart: (id) => progress.episodeStarted(id),
          onTurn: (id, turn) => progress.turnDone(turn, id),
          repair: flags.repair === true,
          keepAbandoned: flags.keepAbandoned === true,
          abandonLimit,
          shouldStop: () => interrupted,
          // What was repaired or dropped is never silent.
          onNotice: (m) => (progress.live ? progress.log(`spaceact: ${m}`) : process.stderr.write(`spaceact: ${m}\n`)),
          onEpisode: (e, _done, _total, info) => {
            progress.log(line(e));
            progress.episodeDone(e, info);
          },
        });
      } finally {
        process.removeListener('SIGINT', onInterrupt);
        progress.close();
      }
      const t = summary.totals;
      const cost = t.cost !== undefined ? `, $${t.cost.toFixed(4)}` : '';
      process.stdout.write(
        `${t.solved}/${t.episodes} solved; tokens in/out ${t.inputTokens}/${t.outputTokens}${cost}; summary in ${opts.out}/summary.json\n`,
      );
      if (summary.resumed) {
        process.stdout.write(`resumed: ${summary.resumed.finished} finished episode(s) reused, ${summary.resumed.continued} unfinished one(s) continued from their logs\n`);
      }
      if (summary.stopped) {
        process.stdout.write(`stopped: ${summary.stopped.message}; ${summary.unfinished.length} episode(s) unfinished\n`);
      }
      if ((opts as { report?: boolean }).report !== false) process.stdout.write(`report: ${await writeReport(opts.out!)}\n`);
      // Interrupted: the "stopped:" line above says what is saved and how to continue.
      if (interrupted) process.exitCode = 130;
      if (summary.stopped?.reason === 'abandonments') {
        // The circuit breaker: the run did not do its job, and scripts must see that.
        process.stderr.write(`spaceact: ${summary.stopped.message}\n`);
        process.exitCode = 3;
      }
    });
}
