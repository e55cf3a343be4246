/**
 * The `place` and `remove` tools of every family that places polycube pieces into a grid:
 * their JSON-schema parameters (the descriptions are each family's own) and the steps of a
 * reference plan made of `place` calls.
 */
import type { Cell } from '../../../solvers/polycube.ts';
import type { JsonSchema } from '../../types.ts';
import type { GridDims } from './cells.ts';
import { MAX_TURNS, TURN_NAMES, type TurnName } from './rotations.ts';

/** One `place` call of a reference plan, with what it does; a family's step adds which piece. */
export interface PlaceStep {
  /** Index into ROTATIONS of the turn applied to the piece's table orientation. */
  rotation: number;
  /** The shortest quarter-turn list that makes that rotation, as the `place` call gives it. */
  turns: TurnName[];
  /** Grid cells the piece fills. */
  cells: Cell[];
  /** The agent's `[col, row, layer]` of the reference cube. */
  cell: [number, number, number];
}

/** Parameters of `place(piece, turns, cell)`: a piece by name, up to {@link MAX_TURNS} quarter turns, and a `[col, row, layer]` inside the grid. */
export function placeParameters(names: readonly string[], dims: GridDims): JsonSchema {
  return {
    type: 'object',
    properties: {
      piece: { enum: names },
      turns: { type: 'array', items: { enum: [...TURN_NAMES] }, minItems: 0, maxItems: MAX_TURNS },
      cell: {
        type: 'array',
        prefixItems: [
          { type: 'integer', minimum: 0, maximum: dims.cols - 1 },
          { type: 'integer', minimum: 0, maximum: dims.rows - 1 },
          { type: 'integer', minimum: 0, maximum: dims.layers - 1 },
        ],
        items: false,
        minItems: 3,
        maxItems: 3,
      },
    },
    required: ['piece', 'cell'],
    additionalProperties: false,
  };
}

/** Parameters of `remove(piece)`. */
export function removeParameters(names: readonly string[]): JsonSchema {
  return { type: 'object', properties: { piece: { enum: names } }, required: ['piece'], additionalProperties: false };
}
