import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import sharp from 'sharp';
import { EpisodeLog, type LogTurn } from '../agents/episode-log.ts';
import { fsErrorLine, namingFile } from '../agents/fs-errors.ts';
import { SpaceActError } from '../core/errors.ts';
import { escapeXml, wrapText } from '../render/compose.ts';

/** Animated formats `replay` writes, by file extension. */
export const REPLAY_FORMATS = ['webp', 'gif'] as const;
/** One of {@link REPLAY_FORMATS}. */
export type ReplayFormat = (typeof REPLAY_FORMATS)[number];

/** Seconds each frame stays on screen unless told otherwise. */
export const DEFAULT_SECONDS_PER_FRAME = 1.5;

/** One frame of a replay: a logged picture and the words drawn under it. */
export interface ReplayFrame {
  /** The turn whose observation the picture was (null for the final state). */
  turn: number | null;
  kind: string;
  /** Image file name beside the log (a plain name: the log reader refuses anything else). */
  file: string;
  /** First line of the bar: turn number, picture kind, frame count. */
  title: string;
  /** The caption logged with the picture. */
  caption: string;
  /** The calls the agent made after seeing the picture, shortened, with their outcome. */
  calls: string;
}

/** Most calls listed under one frame; the rest are counted. */
const CALLS_SHOWN = 6;
/** Longest argument value shown in a call, characters. */
const ARG_CHARS = 24;
/** Longest text taken from the log for a bar, characters (a hostile log cannot blow up the SVG). */
const TEXT_CHARS = 600;
/** Lines of the bar: the title, up to three of caption, up to two of calls. */
const CAPTION_LINES = 3;
const CALL_LINES = 2;

/** The format named by `out`'s extension, or a one-line error naming the ones there are. */
export function replayFormat(out: string): ReplayFormat {
  const ext = extname(out).slice(1).toLowerCase();
  if (!(REPLAY_FORMATS as readonly string[]).includes(ext)) {
    throw new SpaceActError('invalid-argument', `--out ${JSON.stringify(out)}: a replay is written as ${REPLAY_FORMATS.map((f) => `.${f}`).join(' or ')} (animated), not ${ext ? `.${ext}` : 'a file without an extension'}`, {
      out,
      formats: [...REPLAY_FORMATS],
    });
  }
  return ext as ReplayFormat;
}

/**
 * Text as it may go into an SVG: no control characters (XML 1.0 forbids them; librsvg would
 * refuse the whole picture), no lone surrogates, at most {@link TEXT_CHARS} characters. The
 * caller still escapes it ({@link escapeXml}).
 */
export function drawableText(text: string): string {
  const clean = String(text)
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffe\uffff]/g, ' ')
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
    .replace(/\s+/g, ' ')
    .trim();
  return clean.length <= TEXT_CHARS ? clean : `${clean.slice(0, TEXT_CHARS - 1)}…`;
}

/** A value as a short string: strings bare, the rest as JSON, clipped to {@link ARG_CHARS}. */
function shortValue(value: unknown): string {
  const s = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return s.length <= ARG_CHARS ? s : `${s.slice(0, ARG_CHARS - 1)}…`;
}

/** What became of a call, in a word or two. */
const OUTCOME: Record<string, string> = { ok: 'ok', violation: 'rolled back', invalid: 'refused', 'not-run': 'not run' };

/** The calls of a turn as one line: `move(from: C, to: B) → rolled back; …`. */
export function shortCalls(turn: LogTurn): string {
  const actions = turn.reply.actions;
  if (turn.reply.gaveUp) return 'Gave up.';
  if (turn.reply.abandoned) return 'No reply: the episode was abandoned.';
  if (actions.length === 0) return turn.reply.refused ? 'No valid reply: no calls ran.' : 'No calls.';
  const parts = actions.slice(0, CALLS_SHOWN).map((a, i) => {
    const args = Object.entries(a.args ?? {})
      .slice(0, 4)
      .map(([k, v]) => `${k}: ${shortValue(v)}`)
      .join(', ');
    const status = turn.results[i]?.status;
    return `${a.tool}(${args})${status ? ` → ${OUTCOME[status] ?? status}` : ''}`;
  });
  if (actions.length > CALLS_SHOWN) parts.push(`+${actions.length - CALLS_SHOWN} more`);
  // Said as the reply to the turn's pictures: a rollback picture shows the turn before's call, not these.
  return `Then called: ${parts.join('; ')}`;
}

/** Episode folders of a run that hold a log, for the "unknown instance" line. */
function loggedEpisodes(dir: string): string[] {
  const root = join(dir, 'episodes');
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'log.jsonl')))
    .sort();
}

/**
 * The frames of one logged episode, read from the log alone: every observation picture of
 * every turn in order (rollback split images included), then the final state's pictures.
 * Throws a one-line {@link SpaceActError} for a missing folder, an instance the run did not
 * log, a log without pictures, or a picture file that is missing.
 */
export function replayFrames(dir: string, instance: string): { frames: ReplayFrame[]; episodeDir: string } {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new SpaceActError('io', `${dir} is not a folder (a run's --out folder)`, { dir });
  const log = new EpisodeLog(dir, instance);
  if (!existsSync(log.file)) {
    const known = loggedEpisodes(dir);
    const list = known.length === 0 ? 'it holds no episode logs (is it a run folder?)' : `it holds ${known.slice(0, 8).join(', ')}${known.length > 8 ? ` and ${known.length - 8} more` : ''}`;
    throw new SpaceActError('unknown-instance', `instance ${instance} was not logged in ${dir}: ${list}`, { dir, instance, known });
  }
  const { header, turns, end } = log.read();
  const totalTurns = turns.length;
  const frames: ReplayFrame[] = [];
  for (const t of turns) {
    const calls = shortCalls(t);
    t.images.forEach((img, i) => {
      const of = t.images.length > 1 ? ` (picture ${i + 1} of ${t.images.length})` : '';
      // The renderer draws a rollback image's caption into the picture itself (tasks/env.ts): said once.
      const caption = img.kind === 'rollback' ? 'A call of the turn before was rolled back; the picture says why.' : img.caption;
      frames.push({ turn: t.turn, kind: img.kind, file: img.file, title: `Turn ${t.turn} of ${totalTurns} · ${img.kind}${of}`, caption, calls });
    });
  }
  const finals = end?.finalImages ?? [];
  const verdict = !end ? 'unfinished' : end.outcome.solved ? 'solved' : `not solved (${end.outcome.endReason})`;
  finals.forEach((img, i) => {
    const of = finals.length > 1 ? ` (picture ${i + 1} of ${finals.length})` : '';
    frames.push({ turn: null, kind: img.kind, file: img.file, title: `Final state after ${totalTurns} turn${totalTurns === 1 ? '' : 's'} · ${verdict}${of}`, caption: img.caption, calls: '' });
  });
  const id = header?.instance.id ?? instance;
  if (frames.length === 0) throw new SpaceActError('invalid-state', `the log of ${id} in ${dir} lists no pictures (a run with --render never or in blind mode has none to replay)`, { dir, instance });
  const episodeDir = dirname(log.file);
  for (const f of frames) {
    if (!existsSync(join(episodeDir, f.file))) throw new SpaceActError('io', `${join(episodeDir, f.file)} is missing: the log of ${id} names it (${f.title})`, { file: join(episodeDir, f.file) });
  }
  return { frames, episodeDir };
}

/** Lines of text for a bar `perLine` characters wide: words longer than a line are cut into pieces. */
function lines(text: string, perLine: number, most: number): string[] {
  const words = text.split(' ').flatMap((w) => (w.length <= perLine ? [w] : (w.match(new RegExp(`.{1,${perLine}}`, 'gu')) ?? [w])));
  let out = wrapText(words.join(' '), perLine);
  if (out.length > most) out = [...out.slice(0, most - 1), `${out[most - 1].slice(0, perLine - 1)}…`];
  return out;
}

/** Colour behind the pictures (where a frame is wider or taller than its picture). */
const BACKGROUND = '#101214';

/**
 * The bar under a frame as PNG: its title in bold, the caption, the calls; all escaped and
 * wrapped to `width`. Every bar has the same height, so all frames are the same size.
 */
export async function replayBar(frame: Pick<ReplayFrame, 'title' | 'caption' | 'calls'>, width: number): Promise<Buffer> {
  const size = Math.max(12, Math.min(20, Math.round(width / 64)));
  const perLine = Math.max(8, Math.floor((width - size) / (0.6 * size)));
  const lineHeight = Math.round(size * 1.35);
  const rows: Array<{ text: string; style: string }> = [
    { text: lines(drawableText(frame.title), perLine, 1)[0] ?? '', style: 'font-weight="bold" fill="#1b1b1b"' },
    ...lines(drawableText(frame.caption), perLine, CAPTION_LINES).map((text) => ({ text, style: 'fill="#1b1b1b"' })),
    ...lines(drawableText(frame.calls), perLine, CALL_LINES).map((text) => ({ text, style: 'fill="#3a4a7a"' })),
  ];
  const height = lineHeight * (1 + CAPTION_LINES + CALL_LINES) + Math.round(size * 0.8);
  const texts = rows
    .map((r, i) => `<text x="${Math.round(size / 2)}" y="${Math.round(size * 0.4) + lineHeight * (i + 1) - Math.round(size * 0.3)}" ${r.style}>${escapeXml(r.text)}</text>`)
    .join('');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<rect width="100%" height="100%" fill="#f4f1e8"/>` +
    `<g font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="${size}">${texts}</g></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/**
 * One frame as PNG: the picture centred at the top of a `width` × `pictureHeight` area, the bar
 * under it.
 */
export async function replayFramePng(frame: ReplayFrame, episodeDir: string, width: number, pictureHeight: number): Promise<Buffer> {
  const picture = await sharp(join(episodeDir, frame.file)).flatten({ background: BACKGROUND }).removeAlpha().png().toBuffer();
  const meta = await sharp(picture).metadata();
  const bar = await replayBar(frame, width);
  const barHeight = (await sharp(bar).metadata()).height!;
  return sharp({ create: { width, height: pictureHeight + barHeight, channels: 3, background: BACKGROUND } })
    .composite([
      { input: picture, left: Math.floor((width - meta.width!) / 2), top: 0 },
      { input: bar, left: 0, top: pictureHeight },
    ])
    .png()
    .toBuffer();
}

/** What {@link writeReplay} wrote. */
export interface ReplayWritten {
  out: string;
  format: ReplayFormat;
  frames: number;
  width: number;
  height: number;
}

/**
 * Writes an animated replay of one logged episode of the run in `dir`: one frame per logged
 * picture (see {@link replayFrames}), each with its turn, caption and calls drawn under it,
 * `secondsPerFrame` apiece, looping. The format follows `out`'s extension.
 */
export async function writeReplay(opts: { dir: string; instance: string; out: string; secondsPerFrame?: number }): Promise<ReplayWritten> {
  const format = replayFormat(opts.out);
  const seconds = opts.secondsPerFrame ?? DEFAULT_SECONDS_PER_FRAME;
  if (!Number.isFinite(seconds) || seconds < 0.02 || seconds > 60) {
    throw new SpaceActError('invalid-argument', `--seconds-per-frame must be a number of seconds from 0.02 to 60, got ${JSON.stringify(opts.secondsPerFrame)}`);
  }
  const parent = dirname(opts.out);
  if (!existsSync(parent) || !statSync(parent).isDirectory()) throw new SpaceActError('io', `cannot write ${opts.out}: the folder ${parent} does not exist`, { out: opts.out });
  if (existsSync(opts.out) && statSync(opts.out).isDirectory()) throw new SpaceActError('io', `cannot write ${opts.out}: it is a folder, not a file`, { out: opts.out });
  const { frames, episodeDir } = replayFrames(opts.dir, opts.instance);
  const sizes = await Promise.all(frames.map((f) => sharp(join(episodeDir, f.file)).metadata()));
  const width = Math.max(...sizes.map((m) => m.width!));
  const pictureHeight = Math.max(...sizes.map((m) => m.height!));
  const pngs: Buffer[] = [];
  // One at a time: frames are large and the machine may be busy.
  for (const f of frames) pngs.push(await replayFramePng(f, episodeDir, width, pictureHeight));
  const height = (await sharp(pngs[0]).metadata()).height!;
  const delay = frames.map(() => Math.round(seconds * 1000));
  const joined = sharp(pngs, { join: { animated: true } });
  const bytes = format === 'webp' ? await joined.webp({ delay, loop: 0, quality: 90 }).toBuffer() : await joined.gif({ delay, loop: 0 }).toBuffer();
  try {
    namingFile(opts.out, () => writeFileSync(opts.out, bytes));
  } catch (err) {
    const line = fsErrorLine(err);
    if (line) throw new SpaceActError('io', line, { out: opts.out });
    throw err;
  }
  return { out: opts.out, format, frames: frames.length, width, height };
}
