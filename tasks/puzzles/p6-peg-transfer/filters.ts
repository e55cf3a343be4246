/**
 * P6 shortcut filters and sightless strategies. The generator already scatters every start by
 * exact search and marks the goal only in the scene; the family's own sightless strategy is the
 * classic blind attack on a Tower of Hanoi: find the stack by probing moves, then play the
 * textbook solution to each peg that could be the goal. See README.md.
 */
import type { SightlessContext, SightlessStrategy } from '../../sightless.ts';
import type { InstanceFilter, ToolCall } from '../../types.ts';
import { PEG_NAMES, TIER_TABLE, type P6Scene, type PegState } from './scene.ts';
import { applyMove, BlindPlanner, moveProblem, solvePegTransfer, type PegMove, type PegRules } from './solver.ts';

/** Cheap static checks every instance must pass (re-drawn in the generator, reported by verify). */
export const SHORTCUT_FILTERS: InstanceFilter<P6Scene>[] = [];

function call(m: PegMove): ToolCall {
  return { tool: 'move', args: { from: PEG_NAMES[m.from], to: PEG_NAMES[m.to] } };
}

/** Disks named in the rules ("3 disks of …"). */
function diskCount(ctx: SightlessContext): number {
  const m = /(\d+) disks/.exec(ctx.view.rules);
  return m ? Number(m[1]) : 3;
}

/**
 * The plan this strategy would follow given what it has seen: it believes every disk started
 * stacked on the first peg a move was accepted from, and plays shortest plans (the textbook
 * solution for a full stack) to each other peg in turn, A to C first.
 */
function textbookCalls(ctx: SightlessContext): ToolCall[] | null {
  const rules: PegRules = { pegs: 3, adjacentOnly: /neighbouring pegs/.test(ctx.view.rules) };
  const n = diskCount(ctx);
  const done = ctx.history.flat().filter((r) => r.status !== 'not-run');
  const accepted = done.filter((r) => r.status === 'ok');
  if (accepted.length === 0) {
    // Probe the sources in order: a refused move means "not this peg".
    const tried = done.length;
    const probes: PegMove[] = rules.adjacentOnly
      ? [{ from: 0, to: 1 }, { from: 1, to: 0 }, { from: 2, to: 1 }]
      : [{ from: 0, to: 2 }, { from: 1, to: 2 }, { from: 2, to: 0 }];
    return tried < probes.length ? [call(probes[tried])] : null;
  }
  const firstMove = accepted[0].call.args;
  const source = PEG_NAMES.indexOf(String(firstMove.from));
  let belief: PegState = new Array(n).fill(source);
  const seen: PegMove[] = accepted.map((r) => ({ from: PEG_NAMES.indexOf(String(r.call.args.from)), to: PEG_NAMES.indexOf(String(r.call.args.to)) }));
  for (const m of seen) {
    if (moveProblem(belief, m, rules)) return null;
    belief = applyMove(belief, m);
  }
  // Goals in order; after reaching one without the episode ending, go on to the next.
  for (const goal of [0, 1, 2].filter((g) => g !== source)) {
    if (belief.every((p) => p === goal)) continue;
    const plan = solvePegTransfer(belief, goal, rules).moves;
    return plan.slice(0, ctx.actionCap).map(call);
  }
  return null;
}

/** The six orders the letters may stand in along the board (`order[letter]` = peg position). */
const ALL_ORDERS = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];

/** Planners by what the text tells (disks, rule, letter order), shared by every episode: their memo is the policy. */
const planners = new Map<string, BlindPlanner>();

/**
 * The exact best blind policy (README.md, "Version 5"): the tier read off the text (3 disks is
 * L1, 5 under the classic rule L3, 5 under the neighbouring rule L5 or L7), the candidates of
 * that tier's generator, every letter order when the rules say the letters are drawn, narrowed
 * by each result, and the move the dynamic programme rates best for the moves and refusals left.
 */
function bayesBlindCalls(ctx: SightlessContext): ToolCall[] | null {
  const n = diskCount(ctx);
  const adjacentOnly = /neighbouring pegs/.test(ctx.view.rules);
  const shuffled = /do not necessarily follow the alphabet/.test(ctx.view.rules);
  const T = n === 3 ? TIER_TABLE.L1 : adjacentOnly ? TIER_TABLE.L5 : TIER_TABLE.L3;
  const key = `${n}/${adjacentOnly}/${shuffled}`;
  let planner = planners.get(key);
  if (!planner) planners.set(key, (planner = new BlindPlanner(n, { pegs: 3, adjacentOnly }, T, shuffled ? ALL_ORDERS : undefined)));
  const ran = ctx.history.flat().filter((r) => r.status === 'ok' || r.status === 'violation');
  let belief = planner.start;
  for (const r of ran) {
    const m = planner.moves.findIndex((x) => PEG_NAMES[x.from] === r.call.args.from && PEG_NAMES[x.to] === r.call.args.to);
    if (m < 0) return null;
    belief = planner.update(belief, m, r.status === 'ok' ? 'accepted' : 'refused');
  }
  const actions = ctx.view.budgets.actions ?? ctx.turnsLeft * ctx.actionCap;
  const refusedSoFar = ran.filter((r) => r.status === 'violation').length;
  const refusalsLeft = (ctx.view.budgets.refusals ?? actions) - refusedSoFar;
  const { move } = planner.best(belief, Math.min(actions - ran.length, ctx.turnsLeft), Math.max(0, refusalsLeft));
  return move < 0 ? null : [call(planner.moves[move])];
}

/** P6's own sightless strategies for the shortcut battery. */
export const SIGHTLESS: SightlessStrategy[] = [
  {
    name: 'bayes-blind',
    description: "plays the exact best blind policy: keeps the (start, goal, letter order) triples of the tier's generator consistent with every result and takes the move a dynamic programme over them rates best",
    bound: 0.1,
    next: (ctx) => bayesBlindCalls(ctx),
  },
  {
    name: 'probe-then-textbook',
    description: 'finds the stack by probing moves, then plays the textbook solution to each peg that could be the goal in turn',
    bound: 0.1,
    next: (ctx) => textbookCalls(ctx),
  },
];
