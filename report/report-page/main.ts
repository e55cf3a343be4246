/**
 * The report page's script: filters the episode list (its table rows and its replays) by the
 * values the page wrote on each (`data-family`, `data-tier`, `data-solved`, `data-result`,
 * `data-end`, `data-label`), searches each episode's rationales and call text, says how many
 * episodes are shown ("N of M episodes"), and pages the replays, so a run with hundreds of
 * episodes stays usable. Without it every episode is shown (each collapsed), so the page works
 * with scripts off too. It only shows and hides elements the page already has and sets text
 * with `textContent`; it never builds markup from text, and it asks the network for nothing.
 */

const pageSize = Math.max(1, Number(document.body.dataset.pageSize) || 25);
const episodes = Array.from(document.querySelectorAll<HTMLElement>('section.episode'));
const rows = Array.from(document.querySelectorAll<HTMLElement>('table.episodes tbody tr'));
const controls = document.getElementById('controls');
const pagerRow = document.getElementById('pager-row');
const pager = document.getElementById('pager');
const count = document.getElementById('filter-count');
const search = document.getElementById('filter-search') as HTMLInputElement | null;
const clear = document.getElementById('filter-clear');
const selects = Array.from(document.querySelectorAll<HTMLSelectElement>('#controls select[data-filter]'));
let page = 0;

/**
 * What the search looks through, per episode, lower-cased once: the text of its rationales and
 * of its calls tables (tool, arguments, status, result), read from the page's own (escaped) text.
 */
const searchText = new Map<string, string>(
  episodes.map((ep) => {
    const parts = Array.from(ep.querySelectorAll('.rationale .text, table.calls tbody')).map((el) => el.textContent ?? '');
    return [ep.dataset.instance ?? '', parts.join('\n').toLowerCase()];
  }),
);

/** The search box's words: an episode matches when its text holds every one of them. */
function searchWords(): string[] {
  return (search?.value ?? '').toLowerCase().split(/\s+/).filter((w) => w.length > 0);
}

/** Whether an episode (its row or its replay, which carry the same attributes) passes the filters. */
function shown(el: HTMLElement): boolean {
  for (const s of selects) {
    const attr = s.dataset.filter ?? '';
    if (s.value !== 'all' && el.dataset[attr] !== s.value) return false;
  }
  const words = searchWords();
  if (words.length === 0) return true;
  const text = searchText.get(el.dataset.instance ?? '') ?? '';
  return words.every((w) => text.includes(w));
}

function button(text: string, target: number, disabled: boolean): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  b.disabled = disabled;
  b.addEventListener('click', () => {
    page = target;
    draw();
  });
  return b;
}

function draw(): void {
  const list = episodes.filter(shown);
  const pages = Math.max(1, Math.ceil(list.length / pageSize));
  page = Math.min(Math.max(0, page), pages - 1);
  const visible = new Set(list.slice(page * pageSize, (page + 1) * pageSize));
  for (const ep of episodes) ep.hidden = !visible.has(ep);
  for (const row of rows) row.hidden = !shown(row);
  if (count) count.textContent = `${list.length} of ${episodes.length} episode${episodes.length === 1 ? '' : 's'}`;
  if (!pager) return;
  pager.replaceChildren();
  pager.append(button('‹ previous', page - 1, page === 0));
  const label = document.createElement('span');
  label.id = 'page-label';
  label.textContent = ` page ${page + 1} of ${pages} (${list.length} episode${list.length === 1 ? '' : 's'}) `;
  pager.append(label, button('next ›', page + 1, page >= pages - 1));
}

/** Every filter back to "all" and the search box emptied. */
function reset(): void {
  for (const s of selects) s.value = 'all';
  if (search) search.value = '';
}

/** Opens the episode a `#ep-…` link points at, turning to its page first. */
function follow(): void {
  const id = decodeURIComponent(location.hash.slice(1));
  const target = id ? document.getElementById(id) : null;
  if (!target || !episodes.includes(target)) return;
  if (!shown(target)) reset();
  page = Math.floor(episodes.filter(shown).indexOf(target) / pageSize);
  draw();
  const details = target.querySelector('details');
  if (details) details.open = true;
  target.scrollIntoView();
}

if (controls) controls.hidden = false;
if (pagerRow) pagerRow.hidden = false;
for (const s of selects) {
  s.addEventListener('change', () => {
    page = 0;
    draw();
  });
}
search?.addEventListener('input', () => {
  page = 0;
  draw();
});
clear?.addEventListener('click', () => {
  reset();
  page = 0;
  draw();
});
window.addEventListener('hashchange', follow);
draw();
follow();
