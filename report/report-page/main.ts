/**
 * The report page's script: pages the episode replays and filters them by result and family,
 * so a run with hundreds of episodes stays usable. Without it every episode is shown (each
 * collapsed), so the page works with scripts off too. It only shows and hides elements the
 * page already has; it never builds markup from text.
 */

const pageSize = Math.max(1, Number(document.body.dataset.pageSize) || 25);
const episodes = Array.from(document.querySelectorAll<HTMLElement>('section.episode'));
const controls = document.getElementById('controls');
const pager = document.getElementById('pager');
const resultFilter = document.getElementById('filter-result') as HTMLSelectElement | null;
const familyFilter = document.getElementById('filter-family') as HTMLSelectElement | null;
let page = 0;

function shown(ep: HTMLElement): boolean {
  const r = resultFilter?.value ?? 'all';
  const f = familyFilter?.value ?? 'all';
  return (r === 'all' || ep.dataset.result === r) && (f === 'all' || ep.dataset.family === f);
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
  if (!pager) return;
  pager.replaceChildren();
  pager.append(button('‹ previous', page - 1, page === 0));
  const label = document.createElement('span');
  label.id = 'page-label';
  label.textContent = ` page ${page + 1} of ${pages} (${list.length} episode${list.length === 1 ? '' : 's'}) `;
  pager.append(label, button('next ›', page + 1, page >= pages - 1));
}

/** Opens the episode a `#ep-…` link points at, turning to its page first. */
function follow(): void {
  const id = decodeURIComponent(location.hash.slice(1));
  const target = id ? document.getElementById(id) : null;
  if (!target || !episodes.includes(target)) return;
  if (!shown(target)) {
    if (resultFilter) resultFilter.value = 'all';
    if (familyFilter) familyFilter.value = 'all';
  }
  page = Math.floor(episodes.filter(shown).indexOf(target) / pageSize);
  draw();
  const details = target.querySelector('details');
  if (details) details.open = true;
  target.scrollIntoView();
}

if (controls) controls.hidden = false;
for (const f of [resultFilter, familyFilter]) {
  f?.addEventListener('change', () => {
    page = 0;
    draw();
  });
}
window.addEventListener('hashchange', follow);
draw();
follow();
