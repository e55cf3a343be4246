import type { Command } from 'commander';
import { EpisodeLog } from '../../agents/episode-log.ts';
import { loadSummary } from '../../report/run-data.ts';
import { SpaceActError } from '../../core/errors.ts';
import { questionSlot } from '../../tasks/perception/v6-object-rotation/questions.ts';
import type { V6Scene } from '../../tasks/perception/v6-object-rotation/scene.ts';
import { formatRotationStats, rotationStats, type RotationRun } from '../../tasks/perception/v6-object-rotation/stats.ts';
import { parseInstanceId } from '../../core/catalog.ts';
import { instanceFromId } from '../../tasks/registry.ts';
import type { Instance } from '../../tasks/types.ts';

/**
 * The answer an episode committed (the `answer` call that ran), from its log: null when the
 * log shows none ran, undefined when there is no log to tell.
 */
function committedAnswer(dir: string, id: string): Record<string, unknown> | null | undefined {
  const { header, turns } = new EpisodeLog(dir, id).read();
  if (!header) return undefined;
  for (const t of turns) for (const r of t.results) if (r.call?.tool === 'answer' && r.status === 'ok') return r.call.args;
  return null;
}

/**
 * Reads a run folder's V6 questions: summary.json for right/wrong, each episode's log (where
 * there is one) for the committed answer, and each regenerated instance for its question type
 * and options.
 */
export function readRotationRun(dir: string): RotationRun & { agent: string; mode: string; unfinished: string[] } {
  const summary = loadSummary(dir);
  const exactAngles = new Map<string, number>();
  const unanswered = new Set<string>();
  for (const e of summary.episodes) {
    const id = parseInstanceId(e.instance);
    if (id.family !== 'V6') continue;
    const instance = instanceFromId(e.instance).instance as Instance<V6Scene>;
    const q = instance.scene.question;
    if (q.type !== questionSlot(id.seed, id.tier).type) {
      throw new SpaceActError('invalid-state', `${e.instance} regenerates as a ${q.type} question, not the one its seed names: was the run made by another version of V6?`);
    }
    const args = committedAnswer(dir, e.instance);
    if (args === null) unanswered.add(e.instance);
    if (!args) continue;
    if (q.type === 'exact_open' && typeof args.angle_deg === 'number') exactAngles.set(e.instance, args.angle_deg);
    if (q.type === 'exact_mcq') {
      const text = q.options?.find((o) => o.letter === args.choice)?.text;
      if (text) exactAngles.set(e.instance, Number.parseFloat(text));
    }
  }
  const unfinished = summary.unfinished.filter((id) => parseInstanceId(id).family === 'V6');
  return { episodes: summary.episodes, exactAngles, unanswered, agent: summary.agent.name, mode: summary.mode, unfinished };
}

/** `spaceact rotation-stats DIR [--json]`: the object-rotation figures of a run. */
export function register(program: Command): void {
  program
    .command('rotation-stats')
    .description('object-rotation (V6) figures of a run: accuracy per question type, Macro-8 (mean of the 8 type accuracies) and Micro-8 (all questions), per tier')
    .argument('<dir>', 'run folder (spaceact run --out)')
    .option('--json', 'print the figures as JSON')
    .action((dir: string, opts: { json?: boolean }) => {
      const run = readRotationRun(dir);
      const stats = rotationStats(run);
      if (opts.json) {
        process.stdout.write(JSON.stringify({ dir, agent: run.agent, mode: run.mode, ...stats, unfinished: run.unfinished }, null, 2) + '\n');
        return;
      }
      let text = formatRotationStats(stats, `Object-rotation questions in ${dir} (agent ${run.agent}, mode ${run.mode})`);
      if (run.unfinished.length) text += `${run.unfinished.length} V6 question(s) unfinished and not counted.\n`;
      process.stdout.write(text);
    });
}
