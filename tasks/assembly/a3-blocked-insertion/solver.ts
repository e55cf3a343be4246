/**
 * The A3 solver: the order certificate (`order.ts`) — every subset of the pieces that fills the
 * box, every packing of it, the lower bound of each, the monotone search that must fail and the
 * full search over (pieces in the box, where the starting pieces are) whose shortest move list
 * is the reference.
 */
import { SpaceActError } from '../../../core/errors.ts';
import type { Instance, ReferenceSolution, ShortestSolutions } from '../../types.ts';
import { referenceCalls } from './generate.ts';
import { orderCertificate } from './order.ts';
import type { A3Scene } from './scene.ts';

/** The reference: the order search's shortest move list, placing each piece into its packing cells and lifting out and putting back the blockers. */
export function reference(instance: Instance<A3Scene>): ReferenceSolution {
  const s = instance.scene;
  const cert = orderCertificate(s);
  if (!cert.best) throw new SpaceActError('invalid-state', `${instance.id}: no order fills the box`, { instance: instance.id });
  const blockers = cert.mustMove.map((p) => s.pieces[p].name).join(', ');
  return {
    calls: referenceCalls(s, cert),
    optimal: cert.optimal,
    method:
      `order search (breadth-first) over the pieces in the box for ${cert.homePackings} of ${cert.packings} packing(s) of the one filling subset: ` +
      `no monotone order (${cert.monotoneStates} states searched, placements only), fewest moves ${cert.best.length} (${cert.best.optimalCount} shortest move list(s)), ` +
      `equal to the lower bound over every packing (${cert.lowerBound}: each table piece placed once, ${blockers} lifted out and put back)`,
  };
}

/** The family's own exhaustive search (`verify` checks the reference against it): fewest moves and how many shortest move lists. */
export function shortestSolutions(instance: Instance<A3Scene>): ShortestSolutions | null {
  const cert = orderCertificate(instance.scene);
  if (!cert.best || !cert.optimal) return null;
  return { length: cert.best.length, count: cert.best.optimalCount };
}
