/**
 * The plain table model behind every table SpaceAct writes for papers (`--format csv|md|tex|json`):
 * column names and rows of cells. It lives in `core` so that task families can offer tables of
 * their own run statistics (`RunStatistics.tables`); the writers are in `report/tables.ts`.
 */

/** A cell: a number (written in full, not rounded), text, or null (nothing to show). */
export type Cell = number | string | null;

/** One table: column names and rows of cells, with an optional caption (LaTeX and Markdown). */
export interface Table {
  name: string;
  caption?: string;
  columns: string[];
  rows: Cell[][];
}
