/**
 * P6 shortcut filters and sightless strategies. The generator already scatters every start by
 * exact search and marks the goal only in the scene; the family's own sightless strategy is the
 * classic blind attack on a Tower of Hanoi: find the stack by probing moves, then play the
 * textbook solution to each peg that could be the goal. See README.md.
 */
import type { SightlessContext, SightlessStrategy } from '../../sightless.ts';
import type { InstanceFilter, ToolCall } from '../../types.ts';
import { PEG_NAMES, type P6Scene, type PegState } from './scene.ts';
import { applyMove, moveProblem, solvePegTransfer, type PegMove, type PegRules } from './solver.ts';

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

/** P6's own sightless strategies for the shortcut battery. */
export const SIGHTLESS: SightlessStrategy[] = [
  {
    name: 'probe-then-textbook',
    description: 'finds the stack by probing moves, then plays the textbook solution to each peg that could be the goal in turn',
    bound: 0.1,
    next: (ctx) => textbookCalls(ctx),
  },
];
