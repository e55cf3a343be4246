/**
 * The play page's script (bundled by esbuild, inlined into the page). It draws the state the
 * server sends and builds each tool's form from its field descriptions. All text goes in as
 * text (`textContent`, `value`), never as markup.
 */
import type { FormField, ToolForm } from '../form.ts';
import type { PlayImage, PlayState } from '../state.ts';

interface Call {
  tool: string;
  args: Record<string, unknown>;
}

let state: PlayState | null = null;
let shownVersion = -1;
let queue: Call[] = [];
let busy = false;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: Array<Node | string>): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  Object.assign(e, props);
  e.append(...children);
  return e;
}

function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

function setStatus(text: string, status: string): void {
  byId('status').textContent = text;
  document.body.className = `st-${status}`;
}

const STATUS_TEXT: Record<string, string> = {
  starting: 'Starting the episode (building the world and the first picture)…',
  waiting: 'Your turn',
  running: 'Running your calls…',
  finished: 'The episode has ended',
  failed: 'The episode failed',
  stopped: 'Stopped',
};

function figure(img: PlayImage): HTMLElement {
  const kind = img.kind === 'rollback' ? 'Rollback (left: the violation; right: the state it was undone to)' : img.kind === 'strobe' ? 'Strobe: five frames 0.25 s apart' : 'View';
  return el('figure', { className: `img-${img.kind}` }, el('img', { src: img.url, alt: img.caption }), el('figcaption', {}, el('b', {}, kind), ` ${img.caption}`));
}

function describeCall(c: Call): string {
  return `${c.tool} ${JSON.stringify(c.args)}`;
}

// ---- forms --------------------------------------------------------------------------------

function numberInput(f: { integer: boolean; min?: number; max?: number }, name: string): HTMLInputElement {
  const input = el('input', { type: 'number', name });
  input.step = f.integer ? '1' : 'any';
  if (f.min !== undefined) input.min = String(f.min);
  if (f.max !== undefined) input.max = String(f.max);
  input.placeholder = f.min !== undefined && f.max !== undefined ? `${f.min}…${f.max}` : f.integer ? 'whole number' : 'number';
  return input;
}

function readNumber(input: HTMLInputElement, label: string): number | undefined {
  if (input.value.trim() === '') return undefined;
  const n = Number(input.value);
  if (!Number.isFinite(n)) throw new Error(`${label}: not a number`);
  return n;
}

/** Builds one field; returns its element and a reader giving its value (undefined = left out). */
function field(tool: string, f: FormField): { node: HTMLElement; read(): unknown; reset(): void } {
  const label = `${f.name}${f.required ? '' : ' (optional)'}`;
  const box = el('div', { className: 'field' });
  box.dataset.field = f.name;
  const lab = el('label', {}, label);
  if (f.description) lab.title = f.description;
  box.append(lab);
  switch (f.control) {
    case 'choice': {
      let chosen = -1;
      if (f.style === 'buttons') {
        const group = el('span', { className: 'choice' });
        const buttons = f.options.map((o, i) => {
          const b = el('button', { type: 'button' }, o.label);
          b.dataset.label = o.label;
          b.setAttribute('aria-pressed', 'false');
          b.addEventListener('click', () => {
            chosen = chosen === i && !f.required ? -1 : i;
            buttons.forEach((x, j) => x.setAttribute('aria-pressed', String(j === chosen)));
          });
          return b;
        });
        group.append(...buttons);
        box.append(group);
        return {
          node: box,
          read: () => (chosen >= 0 ? f.options[chosen].value : undefined),
          reset: () => {
            chosen = -1;
            buttons.forEach((x) => x.setAttribute('aria-pressed', 'false'));
          },
        };
      }
      const select = el('select', { name: `${tool}.${f.name}` }, el('option', { value: '-1' }, '(choose)'), ...f.options.map((o, i) => el('option', { value: String(i) }, o.label)));
      box.append(select);
      return {
        node: box,
        read: () => (Number(select.value) >= 0 ? f.options[Number(select.value)].value : undefined),
        reset: () => {
          select.value = '-1';
        },
      };
    }
    case 'number': {
      const input = numberInput(f, `${tool}.${f.name}`);
      box.append(input);
      return { node: box, read: () => readNumber(input, f.name), reset: () => (input.value = '') };
    }
    case 'checkbox': {
      const input = el('input', { type: 'checkbox', name: `${tool}.${f.name}` });
      box.append(input);
      // An optional flag left unticked is left out (its default applies).
      return { node: box, read: () => (input.checked ? true : f.required ? false : undefined), reset: () => (input.checked = false) };
    }
    case 'text': {
      const input = el('input', { type: 'text', name: `${tool}.${f.name}` });
      if (f.maxLength !== undefined) input.maxLength = f.maxLength;
      box.append(input);
      return { node: box, read: () => (input.value === '' && !f.required ? undefined : input.value), reset: () => (input.value = '') };
    }
    case 'vector': {
      const inputs = Array.from({ length: f.length }, (_, i) => numberInput(f, `${tool}.${f.name}.${i}`));
      box.append(...inputs);
      return {
        node: box,
        read: () => {
          const values = inputs.map((x) => readNumber(x, f.name));
          if (values.every((v) => v === undefined)) return undefined;
          if (values.some((v) => v === undefined)) throw new Error(`${f.name}: fill all ${f.length} numbers`);
          return values;
        },
        reset: () => inputs.forEach((x) => (x.value = '')),
      };
    }
    default: {
      const input = el('input', { type: 'text', name: `${tool}.${f.name}`, placeholder: 'JSON value' });
      box.append(input);
      return {
        node: box,
        read: () => {
          if (input.value.trim() === '') return undefined;
          try {
            return JSON.parse(input.value) as unknown;
          } catch {
            throw new Error(`${f.name}: not valid JSON`);
          }
        },
        reset: () => (input.value = ''),
      };
    }
  }
}

function toolCard(t: ToolForm): HTMLElement {
  const card = el('div', { className: `tool kind-${t.kind}` });
  card.dataset.tool = t.name;
  const fields = t.fields.map((f) => field(t.name, f));
  const error = el('div', { className: 'error' });
  const add = el('button', { type: 'button' }, `Add ${t.name}`);
  add.dataset.add = t.name;
  const read = (): Record<string, unknown> => {
    const args: Record<string, unknown> = {};
    t.fields.forEach((f, i) => {
      const v = fields[i].read();
      if (v === undefined) {
        if (f.required) throw new Error(`${f.name}: required`);
      } else args[f.name] = v;
    });
    return args;
  };
  add.addEventListener('click', () => {
    error.textContent = '';
    if (!state) return;
    if (queue.length >= state.actionCap) {
      error.textContent = `at most ${state.actionCap} call(s) per turn`;
      return;
    }
    try {
      queue.push({ tool: t.name, args: read() });
    } catch (e) {
      error.textContent = (e as Error).message;
      return;
    }
    fields.forEach((f) => f.reset());
    drawQueue();
  });
  card.append(el('h3', {}, `${t.name} `, el('span', { className: 'muted' }, `[${t.kind}]`)), el('div', { className: 'desc' }, t.description), ...fields.map((f) => f.node), add, error);
  return card;
}

function drawQueue(): void {
  const list = byId('queue');
  list.replaceChildren(
    ...queue.map((c, i) => {
      const remove = el('button', { type: 'button' }, 'remove');
      remove.addEventListener('click', () => {
        queue.splice(i, 1);
        drawQueue();
      });
      return el('li', {}, el('code', {}, describeCall(c)), ' ', remove);
    }),
  );
  const cap = state?.actionCap ?? 0;
  byId('cap').textContent = `(${queue.length} of at most ${cap})`;
  const full = queue.length >= cap;
  document.querySelectorAll<HTMLButtonElement>('button[data-add]').forEach((b) => (b.disabled = full || busy || state?.status !== 'waiting'));
  byId<HTMLButtonElement>('submit').disabled = queue.length === 0 || busy || state?.status !== 'waiting';
  byId<HTMLButtonElement>('give-up').disabled = busy || state?.status !== 'waiting';
}

// ---- drawing the state --------------------------------------------------------------------

function drawHistory(s: PlayState): void {
  const items = [...s.history].reverse().map((h) => {
    const box = el('div', { className: 'turn' }, el('b', {}, `Turn ${h.turn}`));
    if (h.refused) box.append(el('div', { className: 'error' }, `No valid reply; problems: ${h.refused.join('; ')}`));
    if (h.rationale) box.append(el('div', { className: 'text' }, h.rationale));
    const list = el('ol');
    for (const r of h.results) {
      const text = `${r.tool} ${r.args} → ${r.status}${r.violation ? ` (${r.violation})` : ''}: ${r.message}${r.data ? ` data: ${r.data}` : ''}`;
      list.append(el('li', { className: `r-${r.status}` }, text));
    }
    box.append(list);
    return box;
  });
  byId('history').replaceChildren(...(items.length ? items : [el('p', { className: 'muted' }, 'No turns yet.')]));
}

function drawOutcome(s: PlayState): void {
  const box = byId('outcome');
  const o = s.outcome;
  if (!o) {
    box.hidden = s.status !== 'failed' && s.status !== 'stopped';
    box.replaceChildren(el('b', {}, STATUS_TEXT[s.status] ?? s.status), s.message ? ` — ${s.message}` : '');
    return;
  }
  box.hidden = false;
  box.className = o.solved ? 'solved' : 'unsolved';
  const score = o.score === null ? (o.solved ? 'pass' : 'fail') : `score ${o.score}`;
  box.replaceChildren(
    el('h2', {}, o.solved ? 'Solved' : 'Not solved'),
    el('p', {}, `${score} · ${o.endText} · ${o.turns} turns · ${o.actions} actions (reference ${o.referenceActions}) · ${o.violations} violations`),
    el('p', { className: 'muted' }, `Log: ${o.logFile}`),
    el('p', { className: 'muted' }, `Summary: ${o.summaryFile}`),
  );
}

function draw(s: PlayState): void {
  setStatus(STATUS_TEXT[s.status] ?? s.status, s.status);
  document.body.dataset.version = String(s.version);
  // Moves first: the action budget (refused calls count) is what ends most episodes.
  const moves = s.actionBudget !== undefined && s.actionsLeft !== undefined ? `moves used ${s.actionBudget - s.actionsLeft} of ${s.actionBudget} (${s.actionsLeft} left) · ` : '';
  const turns = s.turn ? `turn ${s.turn} of ${s.turnBudget} (${Math.max(0, s.turnBudget - s.turn)} left after this) · ` : '';
  byId('turn-info').textContent = `${moves}${turns}world time ${s.worldTime.toFixed(2)} s · mode ${s.mode}`;
  byId('task-title').textContent = `${s.instance.id}: ${s.instance.title}`;
  byId('rules').textContent = s.instance.rules;
  byId('conditions').replaceChildren(...s.conditions.map((c) => el('li', {}, c)));
  for (const [box, pre, text] of [
    ['plan-box', 'plan', s.plan],
    ['state-box', 'state', s.stateText],
    ['extra-box', 'extra', s.extraText],
  ] as const) {
    byId(box).hidden = text === undefined;
    byId(pre).textContent = text ?? '';
  }
  drawOutcome(s);
  drawHistory(s);
  byId('turn-section').hidden = s.status === 'finished' || s.status === 'failed' || s.status === 'stopped';
  if (s.version !== shownVersion && s.status === 'finished') {
    shownVersion = s.version;
    // The end screen shows the final state.
    byId('images').replaceChildren(...(s.images.length ? s.images.map(figure) : [el('p', { className: 'muted' }, 'No pictures in this condition.')]));
    byId('prev-section').hidden = true;
  }
  if (s.version !== shownVersion && s.status === 'waiting') {
    shownVersion = s.version;
    queue = [];
    byId('images').replaceChildren(...(s.images.length ? s.images.map(figure) : [el('p', { className: 'muted' }, 'No pictures in this condition.')]));
    const prev = s.history.flatMap((h) => h.images);
    byId('prev-section').hidden = prev.length === 0;
    byId('prev-images').replaceChildren(...prev.map(figure));
    byId('prompt').textContent = s.promptText;
    byId('tools').replaceChildren(...s.tools.map(toolCard));
    byId<HTMLTextAreaElement>('rationale').value = '';
    byId<HTMLTextAreaElement>('note').value = s.note;
    byId('note-box').hidden = !s.noteEnabled;
    byId('problems').replaceChildren();
  }
  drawQueue();
}

async function load(): Promise<void> {
  try {
    const res = await fetch('/api/state', { cache: 'no-store' });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    state = (await res.json()) as PlayState;
    draw(state);
    if (state.status === 'starting' || state.status === 'running') setTimeout(() => void load(), 600);
  } catch {
    if (state && ['finished', 'failed', 'stopped'].includes(state.status)) return;
    setStatus('The play server is not answering (it closes when the episode ends).', 'stopped');
  }
}

async function submit(): Promise<void> {
  if (!state || busy || queue.length === 0) return;
  busy = true;
  byId('problems').replaceChildren();
  setStatus(STATUS_TEXT.running, 'running');
  drawQueue();
  const reply: Record<string, unknown> = { rationale: byId<HTMLTextAreaElement>('rationale').value, actions: queue };
  if (state.noteEnabled) reply.note = byId<HTMLTextAreaElement>('note').value;
  await post('/api/turn', { version: state.version, reply });
}

/**
 * Posts a turn or a give-up and draws the state the server answers with; a refusal is listed
 * under the turn (nothing ran) and the page stays where it was.
 */
async function post(path: string, payload: unknown): Promise<void> {
  if (!state) return;
  try {
    const res = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(payload) });
    const body = (await res.json()) as PlayState & { error?: string; problems?: string[] };
    busy = false;
    if (!res.ok) {
      byId('problems').replaceChildren(el('li', {}, body.error ?? `HTTP ${res.status}`), ...(body.problems ?? []).map((p) => el('li', {}, p)));
      setStatus(STATUS_TEXT[state.status] ?? state.status, state.status);
      drawQueue();
      return;
    }
    state = body;
    draw(state);
  } catch {
    busy = false;
    setStatus('The play server did not answer.', 'failed');
  }
}

/** Set by a first click on "Give up": a second click within a few seconds gives up. */
let giveUpArmed: ReturnType<typeof setTimeout> | null = null;

async function giveUp(): Promise<void> {
  if (!state || busy || state.status !== 'waiting') return;
  const button = byId<HTMLButtonElement>('give-up');
  // Two clicks, not a dialog: the episode ends for good, and a stray click must not end it.
  if (giveUpArmed === null) {
    button.textContent = 'Click again to give up (the episode ends unsolved)';
    giveUpArmed = setTimeout(() => {
      giveUpArmed = null;
      button.textContent = 'Give up';
    }, 5000);
    return;
  }
  clearTimeout(giveUpArmed);
  giveUpArmed = null;
  button.textContent = 'Give up';
  busy = true;
  byId('problems').replaceChildren();
  setStatus(STATUS_TEXT.running, 'running');
  drawQueue();
  await post('/api/give-up', { version: state.version });
}

byId('submit').addEventListener('click', () => void submit());
byId('give-up').addEventListener('click', () => void giveUp());
void load();
