/**
 * A5 reference and certificate. The certificate enumerates every buildable structure (stacked
 * cubes: a height map) whose line drawings in the tier's views are the target's
 * (`readings.ts`) and requires exactly one. The reference builds that structure in the middle
 * of the plate in an order found by search over the support relation: a cube can be placed once
 * the cube under it (if any) is in, so the plan repeatedly places the lowest cube whose support
 * is already built, one `place` per cube, then `commit`.
 */
import { SpaceActError } from '../../../core/errors.ts';
import type { Cell } from '../../../solvers/polycube.ts';
import { cellKey, toAgentCell } from '../../kits/polycube-pieces/cells.ts';
import type { Instance, ReferenceSolution, ToolCall } from '../../types.ts';
import { readings, type ReadingCount } from './readings.ts';
import { PLATE_GRID, type A5Scene } from './scene.ts';

/** Where the reference puts the target: the plate cell of the target's cell [0, 0, 0], centring it on the plate. */
export function plateOffset(s: Pick<A5Scene, 'extent'>): Cell {
  return [Math.floor((PLATE_GRID.cols - s.extent.cols) / 2), 0, Math.floor((PLATE_GRID.rows - s.extent.rows) / 2)];
}

/**
 * A build order of a set of cubes in which every cube, when placed, rests on the plate or on a
 * cube already placed: found by repeatedly taking the first cube (lowest, then leftmost, then
 * backmost) whose support is in. Null when some cube can never be supported (a floating cube).
 */
export function buildOrder(cells: readonly Cell[]): Cell[] | null {
  const left = [...cells].sort((a, b) => a[1] - b[1] || a[0] - b[0] || a[2] - b[2]);
  const built = new Set<string>();
  const order: Cell[] = [];
  while (left.length) {
    const at = left.findIndex((c) => c[1] === 0 || built.has(cellKey([c[0], c[1] - 1, c[2]])));
    if (at < 0) return null;
    const [c] = left.splice(at, 1);
    built.add(cellKey(c));
    order.push(c);
  }
  return order;
}

/** The reference's calls: one `place` per cube in {@link buildOrder}, centred on the plate, then `commit`. */
export function referenceCalls(s: A5Scene): ToolCall[] {
  const order = buildOrder(s.target);
  if (!order) throw new SpaceActError('invalid-state', 'the target has a cube with nothing under it');
  const off = plateOffset(s);
  return [
    ...order.map((c) => ({ tool: 'place', args: { cell: toAgentCell([c[0] + off[0], c[1], c[2] + off[2]], PLATE_GRID) } })),
    { tool: 'commit', args: {} },
  ];
}

/** The certificate: the buildable readings of the tier's views (at most two are looked for). */
export function certify(s: A5Scene): ReadingCount {
  return readings(s.target, s.extent, s.views, 2);
}

/** The reference: the certified structure, built bottom-up in the middle of the plate, then committed. */
export function reference(instance: Instance<A5Scene>): ReferenceSolution {
  const s = instance.scene;
  const cert = certify(s);
  const unique = cert.complete && cert.found.length === 1;
  return {
    calls: referenceCalls(s),
    // Every target cube needs its own place call and the episode needs its commit: nothing shorter builds it.
    optimal: true,
    unique,
    method: `height-map enumeration over the ${s.views.join(', ')} line drawings: ${cert.complete ? `${cert.found.length} buildable reading(s)` : `stopped after ${cert.nodes} nodes with ${cert.found.length} reading(s)`}; support-order search builds it bottom-up`,
  };
}
