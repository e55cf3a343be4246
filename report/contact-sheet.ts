import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sampleCall } from '../agents/schema-sampler.ts';
import type { Renderer } from '../render/renderer.ts';
import { TaskEnv } from '../tasks/env.ts';
import { familyAndInstanceFromId } from '../tasks/registry.ts';
import { checkFirstView } from '../tasks/view-rule.ts';
import { Rng } from '../core/rng.ts';
import type { ObservationImage, ToolSpec } from '../tasks/types.ts';
import { escapeHtml } from '../core/html-escape.ts';

/** Most random calls tried per episode, and episodes per instance, while looking for a violation. */
const MAX_CALLS = 40;
const MAX_EPISODES = 3;

/** One picture of the sheet: a file beside the page and what it shows. */
export interface SheetImage {
  file: string;
  kind: ObservationImage['kind'];
  caption: string;
}

/** One instance's row of the contact sheet. */
export interface SheetRow {
  id: string;
  family: string;
  title: string;
  dynamic: boolean;
  /** The first observation (a view, a family's own panel, or the strobe strip of a moving world). */
  first: SheetImage[];
  /** The first rollback image a seeded random agent caused, if any. */
  rollback: SheetImage | null;
  /** How the rollback came about, or why there is none. */
  rollbackNote: string;
  /** Framing of the first view: the view rule's verdict, label states and bodies cut by the frame, per declared picture. */
  framing: string;
}

/** Tools a random agent can break something with: physical and discrete actions (no camera moves, no answer or commit). */
function violableTools(tools: ToolSpec[]): ToolSpec[] {
  return tools.filter((t) => t.kind === 'physical' || t.kind === 'discrete');
}

/**
 * Plays a seeded random agent on `id` until its first violation (at most {@link MAX_CALLS} calls
 * an episode, {@link MAX_EPISODES} episodes) and returns the rollback image the agent would see.
 */
async function firstRollback(id: string, renderer: Renderer): Promise<{ image: ObservationImage | null; note: string }> {
  const { family, instance } = familyAndInstanceFromId(id);
  const tools = violableTools(instance.tools);
  if (tools.length === 0) return { image: null, note: `no physical or discrete tool that can be violated (tools: ${instance.tools.map((t) => `${t.name} (${t.kind})`).join(', ')})` };
  for (let episode = 0; episode < MAX_EPISODES; episode++) {
    const env = await TaskEnv.create(family, instance);
    try {
      const rng = new Rng(`contact-sheet/${id}/${episode}`);
      for (let n = 1; n <= MAX_CALLS && !env.terminated; n++) {
        const call = sampleCall(rng.pick(tools), rng, env.tools);
        if (!call) continue;
        const result = env.execute(call);
        if (result.status === 'violation') {
          const images = await env.observe(renderer);
          const image = images.find((i) => i.kind === 'rollback') ?? null;
          return { image, note: `random call ${n} of episode ${episode + 1}: ${JSON.stringify(call)} → ${result.message}` };
        }
      }
    } finally {
      env.free();
    }
  }
  return { image: null, note: `no violation in ${MAX_EPISODES} × ${MAX_CALLS} random calls of ${tools.map((t) => t.name).join(', ')}` };
}

/**
 * A one-line summary of the first view's framing: the view rule's verdict on what the family
 * declares (`FamilyEnv.viewParts`), per picture its label states, and which drawn bodies are
 * cut by the frame.
 */
async function framingSummary(env: TaskEnv, renderer: Renderer): Promise<string> {
  const verdict = await checkFirstView(env, renderer);
  if (!verdict.declared) return `view rule: FAILS, ${env.family.id} declares no view parts.`;
  const rule = verdict.problems.length ? `view rule: FAILS: ${verdict.problems.map((p) => p.slice(p.indexOf(' ') + 1)).join('; ')}` : `view rule: passes (${verdict.views.length} picture${verdict.views.length === 1 ? '' : 's'})`;
  const pictures = verdict.views.map(({ label, measurement: m }) => {
    const states = new Map<string, number>();
    for (const l of m.labels) states.set(l.state, (states.get(l.state) ?? 0) + 1);
    const labels = m.labels.length ? [...states].map(([st, n]) => `${n} ${st}`).join(', ') : 'none';
    const cut = m.bodies.filter((b) => b.drawn && b.cut).map((b) => b.name);
    return `${label}: labels ${labels}; cut by the frame: ${cut.length ? cut.join(', ') : 'none'}`;
  });
  return `${rule}. ${pictures.join('. ')}.`;
}

async function save(dir: string, base: string, image: ObservationImage): Promise<SheetImage> {
  const file = `${base}.png`;
  await writeFile(join(dir, file), image.png);
  return { file, kind: image.kind, caption: image.caption };
}

/**
 * Makes a contact sheet in `dir`: for every instance, its first observation, the first rollback
 * image a seeded random agent causes (or why there is none) and a framing summary, as PNG files
 * beside one `index.html` of thumbnails with ids. All text on the page is escaped.
 */
export async function writeContactSheet(ids: string[], dir: string, renderer: Renderer, progress: (line: string) => void = () => undefined): Promise<{ page: string; rows: SheetRow[] }> {
  await mkdir(dir, { recursive: true });
  const rows: SheetRow[] = [];
  for (const id of ids) {
    const { family, instance } = familyAndInstanceFromId(id);
    const env = await TaskEnv.create(family, instance);
    let first: SheetImage[];
    let framing: string;
    try {
      const images = await env.observe(renderer);
      first = [];
      for (const [i, img] of images.entries()) first.push(await save(dir, `${id}-first-${i + 1}`, img));
      framing = await framingSummary(env, renderer);
    } finally {
      env.free();
    }
    const rb = await firstRollback(id, renderer);
    const rollback = rb.image ? await save(dir, `${id}-rollback`, rb.image) : null;
    rows.push({ id, family: family.id, title: instance.title, dynamic: instance.dynamic === true, first, rollback, rollbackNote: rb.note, framing });
    progress(`${id}: ${first.length} first image(s), ${rollback ? 'rollback' : 'no rollback'}`);
  }
  const page = join(dir, 'index.html');
  await writeFile(page, sheetHtml(rows));
  return { page, rows };
}

function figure(img: SheetImage): string {
  const src = escapeHtml(encodeURIComponent(img.file));
  return `<figure><a href="${src}"><img src="${src}" alt="${escapeHtml(img.kind)}" loading="eager"></a><figcaption><b>${escapeHtml(img.kind)}</b> ${escapeHtml(img.caption)}</figcaption></figure>`;
}

/** The contact sheet page: one row per instance, grouped by family. */
export function sheetHtml(rows: SheetRow[]): string {
  const body = rows
    .map((r) => {
      const rollback = r.rollback ? figure(r.rollback) : `<div class="none">no rollback image</div>`;
      return (
        `<section id="${escapeHtml(r.id)}"><h2>${escapeHtml(r.id)} <small>${escapeHtml(r.title)}${r.dynamic ? ' · moving world' : ''}</small></h2>` +
        `<div class="row">${r.first.map(figure).join('')}${rollback}</div>` +
        `<p class="note">Rollback: ${escapeHtml(r.rollbackNote)}</p><p class="note">Framing of the first view (the pictures the family declares for the view rule): ${escapeHtml(r.framing)}</p></section>`
      );
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>SpaceAct contact sheet</title>
<style>
body { font: 13px/1.4 "DejaVu Sans", sans-serif; margin: 16px; background: #fafafa; color: #1b1b1b; }
section { border-top: 1px solid #ccc; padding: 6px 0 10px; }
h2 { font-size: 15px; margin: 4px 0; } h2 small { font-weight: normal; color: #555; }
.row { display: flex; flex-wrap: wrap; gap: 10px; align-items: flex-start; }
figure { margin: 0; max-width: 420px; }
figure img { max-height: 200px; max-width: 420px; border: 1px solid #999; display: block; }
figcaption { font-size: 11px; color: #333; max-width: 420px; }
.none { width: 200px; height: 200px; border: 1px dashed #999; display: flex; align-items: center; justify-content: center; color: #777; }
.note { font-size: 11px; margin: 3px 0; color: #333; }
</style></head><body>
<h1>SpaceAct contact sheet</h1>
<p>${rows.length} instances: first observation, the first rollback image of a seeded random agent, and the view rule's verdict on the first view.</p>
${body}
</body></html>
`;
}
