/**
 * Tables for papers: one plain table model and four writers (CSV, Markdown, LaTeX, JSON), so
 * that `leaderboard --format` and `analyze --format` give the same numbers in every format (and
 * as the HTML and text views: the cells are computed once, from the same records).
 */
import { SpaceActError } from '../core/errors.ts';
import type { Cell, Table } from '../core/table.ts';

export type { Cell, Table } from '../core/table.ts';

/** Formats {@link writeTables} writes. */
export const TABLE_FORMATS = ['csv', 'md', 'tex', 'json'] as const;
/** A table format. */
export type TableFormat = (typeof TABLE_FORMATS)[number];

/** Whether `s` names a table format. */
export function isTableFormat(s: string): s is TableFormat {
  return (TABLE_FORMATS as readonly string[]).includes(s);
}

/** The `--format` option checked: a table format, undefined when absent; anything else is one clear error. */
export function tableFormatOption(value: string | undefined): TableFormat | undefined {
  if (value === undefined) return undefined;
  if (!isTableFormat(value)) throw new SpaceActError('invalid-argument', `--format must be one of ${TABLE_FORMATS.join(', ')}, not ${JSON.stringify(value).slice(0, 40)}`);
  return value;
}

/** A number as written in tables: integers as they are, others with up to six significant digits, never exponent form for ordinary sizes. */
function num(v: number): string {
  if (!Number.isFinite(v)) return '';
  if (Number.isInteger(v)) return String(v);
  return String(Number(v.toPrecision(6)));
}

/** RFC 4180: a field with a comma, a quote or a line break is quoted, quotes doubled. */
function csvField(c: Cell): string {
  const s = c === null ? '' : typeof c === 'number' ? num(c) : c;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A Markdown cell: pipes escaped, line breaks as spaces; null as an en dash. */
function mdCell(c: Cell): string {
  const s = c === null ? '–' : typeof c === 'number' ? num(c) : c;
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** LaTeX special characters escaped (text mode). */
export function texEscape(s: string): string {
  return s.replace(/[\\{}$&#^_%~]/g, (ch) => {
    switch (ch) {
      case '\\':
        return '\\textbackslash{}';
      case '^':
        return '\\textasciicircum{}';
      case '~':
        return '\\textasciitilde{}';
      default:
        return `\\${ch}`;
    }
  });
}

function texCell(c: Cell): string {
  if (c === null) return '--';
  if (typeof c === 'number') return num(c);
  return texEscape(c.replace(/\r?\n/g, ' '));
}

/** One table as CSV (header row first; CRLF line ends as RFC 4180 says). */
export function toCsv(t: Table): string {
  return [t.columns, ...t.rows].map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** One table as a Markdown pipe table under a `### name` heading (and its caption). */
export function toMarkdown(t: Table): string {
  const head = `| ${t.columns.map(mdCell).join(' | ')} |`;
  const rule = `|${t.columns.map((_, i) => (t.rows.some((r) => typeof r[i] === 'number') ? '---:' : '---')).join('|')}|`;
  const body = t.rows.map((r) => `| ${r.map(mdCell).join(' | ')} |`);
  return [`### ${t.name}`, ...(t.caption ? ['', t.caption] : []), '', head, rule, ...body, ''].join('\n');
}

/** One table as a LaTeX `table` with a `tabular` (booktabs rules; numbers right-aligned). */
export function toLatex(t: Table): string {
  const align = t.columns.map((_, i) => (t.rows.length && t.rows.every((r) => typeof r[i] === 'number' || r[i] === null) ? 'r' : 'l')).join('');
  return [
    '\\begin{table}[t]',
    '\\centering',
    ...(t.caption ? [`\\caption{${texEscape(t.caption)}}`] : []),
    `\\label{tab:${t.name.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase()}}`,
    `\\begin{tabular}{${align}}`,
    '\\toprule',
    `${t.columns.map((c) => texEscape(c)).join(' & ')} \\\\`,
    '\\midrule',
    ...t.rows.map((r) => `${r.map(texCell).join(' & ')} \\\\`),
    '\\bottomrule',
    '\\end{tabular}',
    '\\end{table}',
    '',
  ].join('\n');
}

/** One table as JSON: `{name, caption, columns, rows: [{column: cell}]}`. */
export function toJsonTable(t: Table): { name: string; caption?: string; columns: string[]; rows: Array<Record<string, Cell>> } {
  return { name: t.name, ...(t.caption ? { caption: t.caption } : {}), columns: t.columns, rows: t.rows.map((r) => Object.fromEntries(t.columns.map((c, i) => [c, r[i] ?? null]))) };
}

/**
 * Tables in one format. CSV holds one table per file, so several tables are separated by a
 * line `# name` before each (readers that take one table take the first); LaTeX needs
 * `\usepackage{booktabs}` in the document.
 */
export function writeTables(tables: readonly Table[], format: TableFormat): string {
  if (format === 'json') return JSON.stringify(tables.map(toJsonTable), null, 2) + '\n';
  if (format === 'md') return tables.map(toMarkdown).join('\n');
  if (format === 'tex') return `% needs \\usepackage{booktabs}\n${tables.map(toLatex).join('\n')}`;
  if (tables.length === 1) return toCsv(tables[0]);
  return tables.map((t) => `# ${t.name}\r\n${toCsv(t)}`).join('\r\n');
}

/**
 * Parses CSV as {@link toCsv} writes it (RFC 4180: quoted fields, doubled quotes, CRLF or LF):
 * rows of strings. For checking a round trip and for readers without a CSV library.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
