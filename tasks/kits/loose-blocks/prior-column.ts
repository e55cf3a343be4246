/**
 * The strongest sightless play on a table-edge task (`table-edge.ts`): without the pictures a
 * model knows only the public generator, so it builds the one harmonic column that solves most
 * of the instances the generator draws for the tier. A refused placement says only which rule
 * broke, so there is nothing to adapt to; this is the adversary such a family lists in its
 * `SIGHTLESS` (B4's, first).
 */
import type { SightlessStrategy } from '../../sightless.ts';
import type { Tier } from '../../types.ts';
import { priorFittedStrategy } from '../sightless-prior.ts';
import { columnFailure, columnReach, farthestColumn } from './column.ts';
import type { TableEdgeScene } from './table-edge.ts';

/** A fixed column: the colours' places in the tool's list (bottom to top) and the centres, m. */
interface FixedColumn {
  slots: number[];
  xs: number[];
}

/** Whether `plan` solves `s` by the rule (exact check at `margin`): every block placed, standing, past the marker. */
function fixedColumnSolves(s: TableEdgeScene, plan: FixedColumn, margin: number): boolean {
  if (plan.slots.some((i) => i >= s.blocks.length)) return false;
  const blocks = plan.slots.map((i, k) => ({ x: plan.xs[k], length: s.blocks[i].length }));
  // The episode ends as soon as a prefix of the column solves, so any standing prefix that reaches counts.
  for (let n = 1; n <= blocks.length; n++) {
    const prefix = blocks.slice(0, n);
    if (columnFailure(prefix, s.edgeX, margin)) return false;
    if (columnReach(prefix) >= s.markerX) return true;
  }
  return false;
}

/** What a family tells {@link priorFittedColumn} about its tiers and rule. */
export interface PriorColumnOptions {
  /** How many blocks the column uses at `tier` (the reference's count, which the rules make plain). */
  count(tier: Tier): number;
  /** The rule's margin from tipping, m. */
  margin: number;
  /** The most episodes per tier the strategy may solve (a share of them). */
  bound: number;
}

/**
 * `prior-fitted-column`: over a grid of guessed block lengths, edge positions and margins
 * (spanning what the pool of generated instances spans), the harmonic column that solves most
 * of the pool by the rule's exact check, played bottom to top. Block choice is the tool's list
 * order (the text does not say which colour is long).
 */
export function priorFittedColumn<Scene extends TableEdgeScene>(opts: PriorColumnOptions): SightlessStrategy {
  const { margin } = opts;
  return priorFittedStrategy<Scene>({
    name: 'prior-fitted-column',
    description: 'builds the one harmonic column (guessed lengths, edge and margin) that solves most of 400 instances the generator draws for the tier',
    bound: opts.bound,
    choose(pool, view, tier) {
      const place = view.tools.find((t) => t.name === 'place');
      const colors = ((place?.parameters as { properties?: { block?: { enum?: string[] } } })?.properties?.block?.enum ?? []) as string[];
      const count = opts.count(tier);
      if (colors.length < count) return null;
      const slots = Array.from({ length: count }, (_, k) => k);
      const lengths = pool.flatMap((sc) => sc.blocks.map((b) => b.length));
      const [lMin, lMax] = [Math.min(...lengths), Math.max(...lengths)];
      const [eMin, eMax] = [Math.min(...pool.map((sc) => sc.edgeX)), Math.max(...pool.map((sc) => sc.edgeX))];
      let best: { plan: FixedColumn; solved: number } | null = null;
      for (let li = 0; li <= 24; li++) {
        const guess = lMin + ((lMax - lMin) * li) / 24;
        for (let ei = 0; ei <= 24; ei++) {
          const edge = eMin + ((eMax - eMin) * ei) / 24;
          // The rule's margin and two more careful ones: a column a little inside its limits survives more edges.
          for (const m of [margin, margin + 0.005, margin + 0.015]) {
            const column = farthestColumn(slots.map(() => guess), edge, m);
            if (!column) continue;
            const candidate = { slots, xs: column.map((b) => b.x) };
            const solved = pool.filter((sc) => fixedColumnSolves(sc, candidate, margin)).length;
            if (!best || solved > best.solved) best = { plan: candidate, solved };
          }
        }
      }
      return best ? best.plan.slots.map((i, k) => ({ tool: 'place', args: { block: colors[i], x_m: Math.round(best!.plan.xs[k] * 1e4) / 1e4 } })) : null;
    },
  });
}
