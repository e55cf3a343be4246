/**
 * HTML escaping for everything the report and the play page write. Model text (rationales,
 * notes, raw replies, tool arguments) is hostile input: it reaches a page only through
 * {@link escapeHtml}, usually by way of the {@link html} template tag, which escapes every
 * interpolated value unless it is already {@link Html}.
 */

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * The one escaping function: makes any value safe as HTML (or SVG) text and as a quoted
 * attribute value. `null` and `undefined` become the empty string.
 */
export function escapeHtml(value: unknown): string {
  if (value === null || value === undefined) return '';
  return String(value).replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** Markup that is already safe: built by {@link html} or from escaped text. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** Interpolated values: markup is kept, lists are joined, anything else is escaped. */
export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

function part(v: HtmlValue): string {
  if (v instanceof Html) return v.text;
  if (Array.isArray(v)) return (v as readonly HtmlValue[]).map(part).join('');
  // `false`, null and undefined vanish, so `${cond && html`...`}` reads naturally.
  if (v === false || v === null || v === undefined) return '';
  return escapeHtml(v);
}

/** Template tag: `html\`<b>${text}</b>\`` escapes `text` and returns {@link Html}. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += part(values[i]) + strings[i + 1];
  return new Html(out);
}

/**
 * A `<script>` or `<style>` element around code written by this program (never model text).
 * A `</` inside the code is broken up so that it cannot close the element early.
 */
export function inlineElement(tag: 'script' | 'style', code: string): Html {
  return new Html(`<${tag}>${code.replace(/<\//g, '<\\/')}</${tag}>`);
}
