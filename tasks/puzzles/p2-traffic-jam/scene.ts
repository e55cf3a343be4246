/**
 * P2 traffic jam: what an instance carries (see README.md for every field) and the fixed sizes
 * of the lot and the vehicles.
 */

/** One vehicle: its letter, its north-west cell, its length and the axis it drives along. */
export interface P2Vehicle {
  id: string;
  col: number;
  row: number;
  /** Cells: 2 for a car, 3 for a truck. */
  length: number;
  /** `ew`: lies east–west and drives east or west; `ns`: lies north–south. */
  axis: 'ew' | 'ns';
}

/** Parameters a P2 world is built from. */
export interface P2Scene {
  /** The lot is `size` × `size` cells. */
  size: number;
  /** Cell edge, m. */
  cell: number;
  /** Every vehicle, the red car A first. */
  vehicles: P2Vehicle[];
  /** The column A's west end must reach: its front then touches the exit gate in the east wall. */
  goalCol: number;
  /** Vehicles placed as decoys: a shortest solution exists that never moves them (proved by search). */
  decoys: string[];
  /** The vehicle built tall (hiding others from the first view), or null. */
  tall: string | null;
}

export const CELL = 0.05;
export const CAR_HEIGHT = 0.025;
export const TRUCK_HEIGHT = 0.032;
export const TALL_HEIGHT = 0.11;
export const WALL_HEIGHT = 0.035;
export const TARGET_COLOR = '#c0392b';
export const GOAL_COLOR = '#27ae60';
// No red, no green.
export const VEHICLE_COLORS = ['#2e86c1', '#d4ac0d', '#7d3c98', '#ca6f1e', '#5d6d7e', '#1abc9c', '#884ea0', '#34495e', '#a04000', '#2874a6', '#b7950b', '#6e2c00'];

/** The cells a vehicle covers, as `[col, row]`. */
export function vehicleCells(v: P2Vehicle): Array<[number, number]> {
  return Array.from({ length: v.length }, (_, k) => (v.axis === 'ew' ? [v.col + k, v.row] : [v.col, v.row + k]));
}

/**
 * Rows north of the tall vehicle that its shadow from the first view reaches: at the L7
 * camera's 42° a roof 8.5 cm above a car's roof hides about two cells behind it, and the
 * perspective of the far rows lengthens that into the third (P2-L7-s16: a roof letter three
 * rows north lay mostly behind the tall vehicle).
 */
export const TALL_SHADOW_ROWS = 3;

/** The rows and columns the tall vehicle `v` shadows from the first view: rows `[from, to]` (north is row 0) in `cols`. */
export function tallShadow(v: P2Vehicle): { cols: Set<number>; from: number; to: number } {
  const mine = vehicleCells(v);
  const north = Math.min(...mine.map((c) => c[1]));
  return { cols: new Set(mine.map((c) => c[0])), from: north - TALL_SHADOW_ROWS, to: north - 1 };
}

/**
 * The vehicles the tall one hides on purpose from the first view (which looks from the south):
 * every vehicle with a cell in its shadow (`tallShadow`), hidden wholly or in part. Empty when
 * no vehicle is tall.
 */
export function hiddenBehindTall(scene: P2Scene): string[] {
  const tall = scene.vehicles.find((v) => v.id === scene.tall);
  if (!tall) return [];
  const { cols, from, to } = tallShadow(tall);
  return scene.vehicles.filter((o) => o !== tall && vehicleCells(o).some(([c, r]) => cols.has(c) && r >= from && r <= to)).map((o) => o.id);
}
