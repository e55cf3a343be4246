import type { ChatCompletionContentPart, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { CallResult } from '../tasks/env.ts';
import type { ToolKind, ToolSpec } from '../tasks/types.ts';
import { clipProblem } from './reply-parser.ts';
import type { HistoryEntry, Observation, ObservationImage } from './types.ts';

/** How much of the past a turn prompt shows. */
export interface PromptOptions {
  /** Earlier turns shown as text (k). */
  historyTurns: number;
}

/** Section headings of the turn prompt (exported so test servers can find their way in it). */
export const HEADINGS = {
  task: '## Task',
  tools: '## Tools',
  mode: '## Conditions of this episode',
  plan: '## Reference plan',
  state: '## Exact state',
  history: '## Earlier turns',
  note: '## Your note',
  now: '## This turn',
} as const;

/** Longest rationale kept per history entry, characters: the history is a summary, not a transcript. */
const RATIONALE_CHARS = 600;
/** Longest rendering of one call's arguments or data in the history. */
const JSON_CHARS = 300;
/** Longest result message of one call in the history, characters. */
const MESSAGE_CHARS = 600;
/** Problems of a refused reply repeated in a prompt, at most. */
const MAX_PROBLEMS_SHOWN = 20;

const KIND_TEXT: Record<ToolKind, string> = {
  perception: 'camera only: no world time passes and it is not counted as an action',
  physical: 'moves things in the world; swept for collisions and checked for stability',
  discrete: 'a discrete move carried out physically; checked like any motion',
  timed: 'lets world time run',
  final: 'ends the episode',
};

/** Cuts text to `max` characters, saying so. */
function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters cut]`;
}

/**
 * Problems as repeated to the model: each clipped (long echoed names cut, their length
 * stated), at most {@link MAX_PROBLEMS_SHOWN}. Replies are checked by this build, but a log
 * replayed from an older one may hold anything.
 */
function shownProblems(problems: string[]): string[] {
  const shown = problems.slice(0, MAX_PROBLEMS_SHOWN).map((p) => clipProblem(String(p)));
  if (problems.length > MAX_PROBLEMS_SHOWN) shown.push(`(${problems.length - MAX_PROBLEMS_SHOWN} more problems not shown)`);
  return shown;
}

function json(value: unknown): string {
  let s: string;
  try {
    s = JSON.stringify(value) ?? 'null';
  } catch {
    s = '(unprintable)';
  }
  return clip(s, JSON_CHARS);
}

function seconds(t: number): string {
  return `${t.toFixed(2)} s`;
}

/** The fixed instructions of every turn: what the agent is and how to answer. */
export function systemText(obs: Pick<Observation, 'mode' | 'actionCap'>): string {
  const { mode, actionCap } = obs;
  const calls = actionCap === 1 ? 'exactly 1 call' : `1 to ${actionCap} calls`;
  const seeing = mode.blind
    ? 'In this episode you get no pictures: you learn about the scene only from the rules and from what your calls report. No coordinates are given.'
    : `You perceive the scene only through rendered pictures. No coordinates are ever given: to judge sizes and positions, use the rulers drawn in the scene${mode.noCamera ? '' : ' and your own camera moves'}.`;
  const lines = [
    `You are operating in a physics simulation of a small 3D scene. You act only through the tools listed in each turn. ${seeing}`,
    '',
    'How a turn works:',
    `- You send ${calls}. They run one after another.`,
    '- Every motion is checked while it happens (collisions, forbidden contacts, stability, task rules). The first call that fails a check is undone and the remaining calls of that turn are skipped.',
    mode.nosplit || mode.blind
      ? '- After such a failure you are told what went wrong.'
      : '- After such a failure you get a split picture: on the left the moment of the failure with the offending parts highlighted, on the right the state it was undone to.',
    '- The clock of the world stands still while you think. It moves only while your actions run, and camera calls never move it.',
    '',
    'Answer with one JSON object and nothing else (no other text, no comments):',
    mode.nonote
      ? '{"rationale": string, "actions": [{"tool": string, "args": object}, ...]}'
      : '{"rationale": string, "note": string, "actions": [{"tool": string, "args": object}, ...]}',
    '- "rationale": what you see and why you choose these calls, in a few sentences.',
  ];
  if (!mode.nonote) {
    lines.push('- "note": your memory. It replaces your previous note and is shown to you on every later turn; keep in it what you have learned and your plan. Older turns drop out of view, the note does not.');
  }
  lines.push(
    `- "actions": ${calls}. Each "args" must match that tool's argument schema exactly: numbers as JSON numbers (never strings, NaN or Infinity), only the listed fields.`,
    'A reply that breaks these rules is sent back to you with the problems listed.',
  );
  return lines.join('\n');
}

function toolsText(tools: ToolSpec[]): string {
  const out = ['Call a tool as {"tool": "<name>", "args": {...}}; the arguments follow the JSON Schema given for each tool.'];
  for (const t of tools) {
    out.push(`- ${t.name} [${t.kind}]: ${t.description}`);
    out.push(`  (${KIND_TEXT[t.kind]})`);
    out.push(`  args schema: ${JSON.stringify(t.parameters)}`);
  }
  return out.join('\n');
}

function modeText(obs: Observation): string[] {
  const { mode } = obs;
  const out: string[] = [];
  if (mode.blind) out.push('- You get no pictures in this episode. Work from the rules, the results of your calls and your note.');
  if (mode.noCamera) out.push('- The camera is fixed in this episode: there are no camera tools.');
  if (mode.nosplit && !mode.blind) out.push('- After a failed call you see only the state it was undone to, not the moment of the failure.');
  if (mode.nonote) out.push('- Notes are switched off in this episode: nothing you write is carried to the next turn except what the history shows.');
  if (mode.cap1) out.push('- One call per turn.');
  if (mode.state) out.push('- You are given the exact state of the scene as text every turn (below).');
  else if (mode.plan) out.push('- You are given a reference plan (below). It is correct, but you still have to carry it out.');
  return out;
}

function resultText(r: CallResult, i: number): string {
  const call = `${i + 1}. ${r.call?.tool ?? '?'} ${json(r.call?.args ?? {})}`;
  const when = r.timeAfter > r.timeBefore ? ` (world time ${seconds(r.timeBefore)} → ${seconds(r.timeAfter)})` : '';
  let what: string;
  const message = clip(String(r.message ?? ''), MESSAGE_CHARS);
  switch (r.status) {
    case 'ok':
      what = `done: ${message}`;
      break;
    case 'violation':
      what = `FAILED, undone (${r.violation?.kind ?? 'violation'}): ${message}`;
      break;
    case 'invalid':
      what = `refused, nothing changed: ${message}`;
      break;
    default:
      what = message;
  }
  const data = r.data ? ` data: ${json(r.data)}` : '';
  return `  ${call} → ${what}${when}${data}`;
}

function historyEntryText(h: HistoryEntry): string {
  const lines = [`Turn ${h.turn}:`];
  if (h.refused) {
    lines.push('  No valid reply, so no calls ran. Problems with your last reply:');
    for (const p of shownProblems(h.refused)) lines.push(`    - ${p}`);
    return lines.join('\n');
  }
  lines.push(`  Your rationale: ${JSON.stringify(clip(h.rationale, RATIONALE_CHARS))}`);
  if (h.results.length === 0) lines.push('  (no calls)');
  h.results.forEach((r, i) => lines.push(resultText(r, i)));
  return lines.join('\n');
}

function imagePart(img: ObservationImage): ChatCompletionContentPart {
  return { type: 'image_url', image_url: { url: `data:image/png;base64,${img.png.toString('base64')}` } };
}

/**
 * Builds the messages of one turn: fixed instructions, then one user message with the task,
 * tools, conditions, the last k turns (with the images the loop kept), the note, and the
 * current observation. Pure: the same observation always gives the same messages, so a
 * resumed episode asks exactly what the first run asked.
 */
export function buildTurnMessages(obs: Observation, opts: PromptOptions): ChatCompletionMessageParam[] {
  const parts: ChatCompletionContentPart[] = [];
  let text: string[] = [];
  const flush = (): void => {
    if (text.length) parts.push({ type: 'text', text: text.join('\n') });
    text = [];
  };
  const section = (heading: string, body: string): void => {
    text.push(heading, body, '');
  };

  section(HEADINGS.task, `${obs.instance.title}\n${obs.instance.rules}`);
  section(HEADINGS.tools, toolsText(obs.tools));
  const conditions = modeText(obs);
  if (conditions.length) section(HEADINGS.mode, conditions.join('\n'));
  if (obs.plan !== undefined) section(HEADINGS.plan, obs.plan);
  if (obs.state !== undefined) section(HEADINGS.state, obs.state);

  const k = Math.max(0, opts.historyTurns);
  const shown = k > 0 ? obs.history.slice(-k) : [];
  const hidden = obs.history.length - shown.length;
  text.push(HEADINGS.history);
  if (obs.history.length === 0) text.push('None yet: this is the first turn.');
  else if (hidden > 0) text.push(`(${hidden} older turn${hidden === 1 ? '' : 's'} not shown.)`);
  for (const h of shown) {
    text.push(historyEntryText(h));
    if (h.images?.length && !obs.mode.blind) {
      text.push(`  Pictures you had at the start of turn ${h.turn}:`);
      for (const img of h.images) {
        text.push(`  [${img.caption}]`);
        flush();
        parts.push(imagePart(img));
      }
    }
  }
  text.push('');

  if (!obs.mode.nonote) section(HEADINGS.note, obs.note ? obs.note : '(empty: you have not written a note yet)');

  const now = [
    `Turn ${obs.turn}; ${obs.turnsLeft} turn${obs.turnsLeft === 1 ? '' : 's'} left including this one.` +
      (obs.actionsLeft !== undefined ? ` ${obs.actionsLeft} action${obs.actionsLeft === 1 ? '' : 's'} left in the whole episode (every move counts, including one that is rolled back; looking around costs none).` : '') +
      (obs.refusalsLeft !== undefined
        ? obs.refusalsLeft === 0
          ? ' A call that is refused or rolled back now ends the episode, unsolved.'
          : ` ${obs.refusalsLeft} refused or rolled-back call${obs.refusalsLeft === 1 ? '' : 's'} allowed; the one after ends the episode, unsolved.`
        : ''),
    `World time: ${seconds(obs.worldTime)}.`,
    obs.actionCap === 1 ? 'Send exactly 1 call this turn.' : `Send 1 to ${obs.actionCap} calls this turn.`,
  ];
  if (obs.extraText) now.push(`Read-out: ${obs.extraText}`);
  text.push(HEADINGS.now, ...now);
  if (obs.mode.blind) {
    text.push('No pictures (blind condition).');
  } else if (obs.images.length === 0) {
    text.push('No picture this turn.');
  } else {
    text.push('What you see now:');
    for (const img of obs.images) {
      text.push(`[${img.caption}]`);
      flush();
      parts.push(imagePart(img));
    }
  }
  text.push('', 'Reply with the JSON object only.');
  flush();

  return [
    { role: 'system', content: systemText(obs) },
    { role: 'user', content: parts },
  ];
}

/** The message sent back after a refused reply: every problem, then what to do. */
export function refusalText(problems: string[], attemptsLeft: number): string {
  return [
    'Your reply was refused and nothing was run. Problems:',
    ...shownProblems(problems).map((p) => `- ${p}`),
    `Send the corrected JSON object only (${attemptsLeft} more attempt${attemptsLeft === 1 ? '' : 's'} this turn).`,
  ].join('\n');
}
