import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EpisodeLog } from '../agents/episode-log.ts';
import { modeName, parseMode, type Mode } from '../agents/modes.ts';
import { RUN_DEFAULTS } from '../agents/run-defaults.ts';
import { runInstances, writeSummary, type SummaryEntry } from '../agents/runner.ts';
import { packageVersion } from '../core/package-info.ts';
import { pageScript, pageSource } from '../render/page-bundle.ts';
import { SpaceActError } from '../core/errors.ts';
import { familyAndInstanceFromId } from '../tasks/registry.ts';
import { HumanAgent, PlayInterrupted, PlaySession } from './human-agent.ts';
import { playPageHtml } from './page.ts';
import { PlayServer } from './server.ts';
import { PlayStateBuilder } from './state.ts';


/** The play page's script, bundled by esbuild from `play/client/`. */
const PLAY_PAGE = pageSource('play-page', import.meta.url, 'client');

/** Options of {@link startPlay}. */
export interface PlayOptions {
  /** Instance id, e.g. `P6-L1-s100`. */
  instance: string;
  /** Diagnostic mode text (`plan`, `blind+cap1`, …) or a parsed mode; default the main condition. */
  mode?: string | Mode;
  /** Run folder: the log goes to `out/episodes/<id>/`, the summary to `out/summary.json`. */
  out: string;
  /** Port on 127.0.0.1 (default 0: any free port). */
  port?: number;
}

/** How a play session ended. */
export interface PlayOutcome {
  status: 'finished' | 'stopped';
  /** The summary row, when the episode finished. */
  entry: SummaryEntry | null;
  logFile: string;
  summaryFile: string;
}

/** A running play session. */
export interface PlayHandle {
  /** The page's URL (http://127.0.0.1:PORT/). */
  url: string;
  session: PlaySession;
  /** Resolves when the episode ended (or was stopped) and the server has closed. */
  done: Promise<PlayOutcome>;
  /** Stops playing: the turns played so far stay in the log, and the same command continues them. */
  stop(): void;
}

/**
 * Serves the play page of one instance on 127.0.0.1 and runs the episode with a person as
 * the agent (`human`): the same loop, observations, tools, checks, log and scoring as a
 * model run. The server closes when the episode ends or {@link PlayHandle.stop} is called.
 * An unfinished log of an earlier play in `out` is continued; a finished one is refused.
 */
export async function startPlay(opts: PlayOptions): Promise<PlayHandle> {
  const { instance } = familyAndInstanceFromId(opts.instance);
  const mode = typeof opts.mode === 'object' ? opts.mode : parseMode(opts.mode);
  const out = resolve(opts.out);
  const log = new EpisodeLog(out, instance.id);
  const earlier = log.read();
  if (earlier.end) {
    throw new SpaceActError('invalid-state', `${log.file} already holds a finished episode of ${instance.id}; give another --out`, { log: log.file });
  }
  if (earlier.header && (earlier.header.agent.name !== 'human' || earlier.header.mode !== modeName(mode))) {
    throw new SpaceActError(
      'invalid-state',
      `${log.file} holds an unfinished run of agent ${earlier.header.agent.name} in mode ${earlier.header.mode}; give another --out`,
      { log: log.file },
    );
  }
  const summaryFile = join(out, 'summary.json');
  const session = new PlaySession();
  const states = new PlayStateBuilder(session, {
    instance: {
      id: instance.id,
      title: instance.title,
      family: instance.family,
      tier: instance.tier,
      rules: instance.rules,
      turns: instance.budgets.turns,
      ...(instance.budgets.actions !== undefined ? { actions: instance.budgets.actions } : {}),
    },
    mode: modeName(mode),
    logFile: log.file,
    summaryFile,
    loggedTurns: () => log.read().turns,
    finalImages: () =>
      (log.read().end?.finalImages ?? []).flatMap((f) => {
        // A plain file name in the episode's folder, nothing else (the log is data, not a path to follow).
        const file = join(log.dir, f.file);
        return /^[A-Za-z0-9_.-]+\.png$/.test(f.file) && existsSync(file) ? [{ kind: f.kind, caption: f.caption, png: readFileSync(file) }] : [];
      }),
  });
  const server = new PlayServer(session, states, playPageHtml(await pageScript(PLAY_PAGE), instance.id));
  const url = await server.listen(opts.port ?? 0);

  const done = (async (): Promise<PlayOutcome> => {
    try {
      const summary = await runInstances({
        instances: [instance.id],
        makeAgent: () => new HumanAgent(session),
        mode,
        out,
        render: RUN_DEFAULTS.render,
        historyImages: RUN_DEFAULTS.historyImages,
      });
      const entry = summary.episodes[0] ?? null;
      if (entry) session.finish(entry);
      else session.interrupt('the episode was stopped before it ended');
      return { status: entry ? 'finished' : 'stopped', entry, logFile: log.file, summaryFile };
    } catch (err) {
      if (err instanceof PlayInterrupted) {
        writeSummary(out, {
          package: { name: 'spaceact', version: packageVersion() },
          agent: { name: 'human', settings: new HumanAgent(session).settings },
          mode: modeName(mode),
          episodes: [],
          totals: { episodes: 0, solved: 0, abandoned: 0, inputTokens: 0, outputTokens: 0 },
          unfinished: [instance.id],
          stopped: { reason: 'requested', message: 'play stopped; run the same play command with the same --out to continue' },
        });
        return { status: 'stopped', entry: null, logFile: log.file, summaryFile };
      }
      session.fail(err instanceof Error ? err.message : String(err));
      throw err;
    } finally {
      await server.close();
    }
  })();
  // The caller awaits `done`; this keeps an early failure from also being reported as unhandled.
  done.catch(() => undefined);
  return { url, session, done, stop: () => session.interrupt('stopped by the operator') };
}
