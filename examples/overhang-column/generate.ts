/**
 * B7 generator, a pure function of (family, tier, lever, seed): the edge, continuous block
 * lengths and the marker as a fraction of the reference column's overhang. The text names
 * colours and counts only; lengths, the edge and the marker are read off the ruler.
 */
import { roundTo } from '../../core/determinism.ts';
import { generateFiltered, redrawRng } from '../../solvers/redraw.ts';
import { makeInstance } from '../../tasks/instance.ts';
import type { FamilyDescriptor, Instance, Tier } from '../../tasks/types.ts';
import { farthestOfSupply, placeToolSpec, REMOVE_TOOL_SPEC, tableEdgeRules } from '../../tasks/kits/loose-blocks/stack-tools.ts';
import { mixedSupplyLengths, namedSupply, TABLE_EDGE_GROUND, tableEdgeCamera, tableEdgeRulers } from '../../tasks/kits/loose-blocks/table-edge.ts';
import { tierSettings } from '../../tasks/levers.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import { B7_LEVERS, REFERENCE_MARGIN, RULE_MARGIN, TIERS, type B7Scene } from './scene.ts';

const GOAL = 'Goal: stack blocks in one column on the table at its edge so that the far (right) end of a block reaches past the red post, as seen from above, and the stack stands. The episode ends as soon as it does.';

function draw(family: FamilyDescriptor, seed: number, tier: Tier, lever: string | undefined, attempt: number): Instance<B7Scene> {
  const t = tierSettings('B7', TIERS, tier, lever, B7_LEVERS);
  const rng = redrawRng('B7', tier, seed, attempt);
  const long = rng.range(t.length[0], t.length[1]);
  const lengths = t.mixed ? mixedSupplyLengths(rng, long, t.supply) : Array.from({ length: t.supply }, () => long);
  // Colours in a fixed order (the text is alike for every seed); which is long is drawn.
  const blocks = namedSupply(rng.shuffle(lengths));
  const edgeX = roundTo(rng.range(0.27, 0.42), 4);
  const best = farthestOfSupply({ edgeX, markerX: 0, blocks }, t.needed, REFERENCE_MARGIN);
  const markerX = roundTo(edgeX + ((best?.reach ?? edgeX) - edgeX) * rng.range(t.reachFraction[0], t.reachFraction[1]), 4);
  const scene: B7Scene = { edgeX, markerX, blocks, needed: t.needed };
  const actions = t.needed + 2;
  const turn = t.turnedView ? rng.pick([-1, 1]) * Math.round(rng.range(t.turnedView[0], t.turnedView[1])) : 0;
  return makeInstance<B7Scene>(family, tier, seed, {
    ...(lever ? { lever } : {}),
    title: 'Overhang column',
    rules: tableEdgeRules(scene, { goal: GOAL, margin: RULE_MARGIN, actions, sideBySide: false }),
    tools: [placeToolSpec(scene, false), REMOVE_TOOL_SPEC],
    budgets: { turns: 30, actionsPerTurn: 5, actions },
    camera: tableEdgeCamera(scene, turn),
    rulers: tableEdgeRulers(scene),
    ground: { ...TABLE_EDGE_GROUND },
    dynamic: false,
    scoring: 'graded',
    scene,
    reveal: { plan: `Stack ${t.needed} blocks as a harmonic column: each block's load just inside the far end of the block below, the column's centre of mass just inside the edge.` },
  });
}

/** The instance of (seed, tier, lever), drawn until every filter passes. */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<B7Scene> {
  return generateFiltered((attempt) => draw(family, seed, tier, lever, attempt), SHORTCUT_FILTERS);
}
