/**
 * B3 reference construction: the strongest tower of one brick per layer the supply allows, and
 * the weaker towers the certificate compares it with.
 *
 * **The search.** A tower of `n` layers (the least that reaches the mark: bricks are the only
 * full-height parts) is a choice of `n` bricks from the supply, each centred on the baseplate
 * with its length along the push, and an order. Its push capacity is computed in closed form
 * ({@link chainPushCapacity}: every connection of a chain carries what is above it as one
 * body), and the search keeps the best. Two facts make the search small and exact: a longer
 * (or wider) brick in a layer never lowers the capacity (its connections up and down share at
 * least as many studs, and its weight sits on the centre line), so the best choice is the `n`
 * strongest bricks; and the demand `F·(h − y)` falls with height while each connection's
 * strength is set by the smaller brick, so the best order puts them strongest first (an
 * exchange argument). `test/family-b3.test.ts` checks both against a brute-force search over
 * every choice and order for small supplies.
 *
 * The reference is played as metric `place` calls (each brick's footprint centre in world
 * metres, 0.1 mm, and its length's direction, 0° or 90°), then `commit`.
 */
import { roundTo } from '../../../core/determinism.ts';
import { SpaceActError } from '../../../core/errors.ts';
import type { Instance, ReferenceSolution, ToolCall } from '../../types.ts';
import { mm } from '../../kits/bricks/stud-site.ts';
import { brickType, CATALOG, PITCH } from '../../kits/bricks/catalog.ts';
import { footprint, type Placement } from '../../kits/bricks/plan.ts';
import { alongRot, chainPushCapacity, planToWorld, strongestFirst, towerPlan, type B3Scene, type PushScene } from './scene.ts';

/** A tower of one brick per layer: its types bottom first and the rotation they all share. */
export interface TowerDesign {
  types: string[];
  rot: 0 | 90;
}

/** Full-height bricks of the supply, one entry per brick. */
export function supplyBricks(s: Pick<B3Scene, 'supply'>): string[] {
  return s.supply.filter((x) => !brickType(x.type).plate).flatMap((x) => Array<string>(x.count).fill(x.type));
}

/** The reference design: the `layers` strongest bricks of the supply, strongest at the bottom, along the push. */
export function referenceDesign(s: Pick<B3Scene, 'supply' | 'layers' | 'pushDir'>): TowerDesign | null {
  const bricks = strongestFirst(supplyBricks(s));
  if (bricks.length < s.layers) return null;
  return { types: bricks.slice(0, s.layers), rot: alongRot(s.pushDir) };
}

/** The placements of a design. */
export function designPlan(s: Pick<B3Scene, 'plate'>, d: TowerDesign): Placement[] {
  return towerPlan(
    s.plate,
    d.types.map((type) => ({ type, rot: d.rot })),
  );
}

/** The push capacity of a design, N (closed form). */
export function designCapacity(s: PushScene, d: TowerDesign): number {
  return chainPushCapacity(s, designPlan(s, d)) ?? 0;
}

/** One-wide counterpart of a type (the same length and kind, one stud wide), or null. */
function narrowType(type: string): string | null {
  const t = brickType(type);
  const id = `${t.plate ? 'plate' : 'brick'}-1x${t.length}`;
  return Object.hasOwn(CATALOG, id) ? id : null;
}

/**
 * The weaker towers of the certificate, each of the reference's height: `narrow` (the same
 * layout one stud wide), `column` (a single column of brick-1x2), `reversed` (the same bricks
 * weakest at the bottom), `turned` (the same tower with every brick across the push).
 */
export function weakerDesigns(d: TowerDesign): Record<'narrow' | 'column' | 'reversed' | 'turned', TowerDesign | null> {
  const narrow = d.types.map(narrowType);
  return {
    narrow: narrow.every((t) => t !== null) ? { types: narrow as string[], rot: d.rot } : null,
    column: { types: d.types.map(() => 'brick-1x2'), rot: d.rot },
    reversed: { types: d.types.slice().reverse(), rot: d.rot },
    turned: { types: d.types.slice(), rot: d.rot === 0 ? 90 : 0 },
  };
}

/** The `place` call of a placement: its footprint centre in world metres and its length's direction. */
export function placeCall(s: Pick<B3Scene, 'plate' | 'siteX' | 'siteZ'>, p: Placement): ToolCall {
  const [fc, fr] = footprint(p);
  const [x, , z] = planToWorld(s, [(p.col + fc / 2) * PITCH, 0, (p.row + fr / 2) * PITCH]);
  return { tool: 'place', args: { brick_type: p.type, x_m: roundTo(x, 4), z_m: roundTo(z, 4), yaw_deg: p.rot } };
}

/** The reference solution: place the design's bricks bottom first, then commit. */
export function reference(instance: Instance<B3Scene>): ReferenceSolution {
  const s = instance.scene;
  const d = referenceDesign(s);
  if (!d) throw new SpaceActError('invalid-state', `${instance.id}: the supply has too few bricks for the tower (the generator should have re-drawn)`, { instance: instance.id });
  const cap = designCapacity(s, d);
  return {
    calls: [...designPlan(s, d).map((p) => placeCall(s, p)), { tool: 'commit', args: {} }],
    method: `strongest tower of one brick per layer (${d.types.join(', ')} bottom first, lengths along the push), carrying ${(cap / s.pushForce).toFixed(2)}× the push by the closed-form stud statics`,
  };
}


/** The reference plan in words (the `+plan` reveal), with the world positions it uses. */
export function planText(s: B3Scene): string {
  const d = referenceDesign(s);
  if (!d) return '';
  const steps = designPlan(s, d).map((p, i) => {
    const a = placeCall(s, p).args;
    return `${i + 1}) ${p.type} at x ${mm(a.x_m as number)}, z ${mm(a.z_m as number)}, yaw ${a.yaw_deg}°.`;
  });
  return `Stack ${d.types.length} bricks centred on the baseplate, each with its length along the push (${s.pushDir}), the longest at the bottom: ${steps.join(' ')} Then commit.`;
}
