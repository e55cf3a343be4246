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
