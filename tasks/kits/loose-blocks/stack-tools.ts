/**
 * Stacking loose blocks at the table's edge of `table-edge.ts` — in one column, or side by side
 * on a level with counterweights: the `place` and
 * `remove` tools (their specs, the rules text that explains them, and their handlers), the
 * reach-past-the-marker goal, and the helpers a reference solver needs. B4 is built from these
 * alone; a family with another goal over the same table takes the tools and writes its own
 * `solved` and `progress`.
 *
 * `place` carries a block by swept motion (lift, carry, lower straight down until it rests on
 * whatever is under it, as a hand would), then asks the kit's exact statics check
 * (`arrangement.ts`: the contact-force linear program, which for a single column is the column
 * rule of `column.ts`) whether the blocks stand with the rule's margin; a
 * refusal leaves the block where it was asked for in the rollback picture and names only the
 * block and which rule it broke (never how far it is from standing: a distance would let a blind
 * prober bisect for the edge). After every accepted action the world's settle check (Rapier)
 * confirms that nothing moves. The family's state is `world.meta.stack` (each placed block's
 * colour and the centre it was given, bottom to top), snapshotted with the world so a rollback
 * undoes it.
 */
import { roundTo } from '../../../core/determinism.ts';
import { SpaceActError } from '../../../core/errors.ts';
import type { Pose } from '../../../sim/types.ts';
import { ViolationError } from '../../../sim/violation.ts';
import type { World } from '../../../sim/world.ts';
import type { FamilyEnv, ToolCall, ToolOutput, ToolSpec } from '../../types.ts';
import { arrangementFailure, arrangementReach, landingLevel, type ArrangedBlock } from './arrangement.ts';
import { bestColumn, columnFailure, type ChosenColumn } from './column.ts';
import {
  addTableEdge,
  BLOCK_HEIGHT,
  blockBody,
  CARRY_CLEARANCE,
  DROP_GAP,
  levelY,
  RULER_END,
  STACK_Z,
  supplyPose,
  tableEdgeViewParts,
  type BlockColor,
  type TableEdgeScene,
} from './table-edge.ts';

/**
 * The `place(block, x_m)` tool as the agent sees it: the block by colour, its centre along the
 * ruler. `sideBySide` (default): the block is lowered onto whatever is under it, so blocks can
 * lie side by side; false: onto the top of a single column (the column-only tasks' tool).
 */
export function placeToolSpec(s: TableEdgeScene, sideBySide = true): ToolSpec {
  return {
    name: 'place',
    kind: 'physical',
    description: sideBySide ? PLACE_ANYWHERE : PLACE_ON_TOP,
    parameters: {
      type: 'object',
      properties: {
        block: { enum: s.blocks.map((b) => b.color) },
        x_m: { type: 'number', minimum: 0, maximum: RULER_END },
      },
      required: ['block', 'x_m'],
      additionalProperties: false,
    },
  };
}

const PLACE_ON_TOP =
  'Pick up the named block from where it lies, carry it over the stacking line and lower it straight down onto the top of the stack (onto the table when the stack is empty), lying along the ruler. ' +
  'x_m is where its centre should be along the ruler, in metres (the ruler reads centimetres from its 0 mark, which is x = 0). The placement is refused and undone if the block would rest on nothing, or if the stack would not stand with it (see the rules).';
const PLACE_ANYWHERE =
      'Pick up the named block from where it lies, carry it over the stacking line at a height that clears everything and lower it straight down, lying along the ruler, until it rests on whatever is under it: a block or blocks already placed, or the table. ' +
      'x_m is where its centre should be along the ruler, in metres (the ruler reads centimetres from its 0 mark, which is x = 0). The placement is refused and undone if the block would rest on nothing, or if the blocks would not stand with it (see the rules).';

/** The `remove()` tool as the agent sees it, for a single column. */
export const REMOVE_TOOL_SPEC: ToolSpec = {
  name: 'remove',
  kind: 'physical',
  description: 'Lift the top block off the stack and put it back where it lay at the start.',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
};

/** The `remove()` tool as the agent sees it when blocks may lie side by side: the last placed comes off (nothing rests on it). */
export const REMOVE_LAST_TOOL_SPEC: ToolSpec = { ...REMOVE_TOOL_SPEC, description: 'Lift the block placed last off the stack and put it back where it lay at the start.' };

/** What a family says in its rules beyond what the kit says for it. */
export interface TableEdgeRules {
  /** The goal, in one paragraph (what ends the episode included). */
  goal: string;
  /** The rule's margin from tipping, m (stated in whole millimetres: the same for every seed). */
  margin: number;
  /** The action budget (every place and remove counts, refused ones too). */
  actions: number;
  /** Blocks are lowered onto whatever is under them and may lie side by side (default); false: one column. */
  sideBySide?: boolean;
}

/**
 * The rules text of a table-edge task: the supply (colours and count, whether the lengths
 * differ — no length), the marker, the family's goal, the ruler, the tools, the standing rule with
 * its margin and the budget. Nothing metric that varies with the seed: the lengths, the edge
 * and the marker are read off the ruler in the pictures.
 */
export function tableEdgeRules(s: TableEdgeScene, rules: TableEdgeRules): string {
  const colors = s.blocks.map((b) => b.color);
  return [
    `${s.blocks.length} loose wooden blocks (${colors.join(', ')}) lie on a table, each named by its colour. They have no studs: they hold by their own weight and friction only. All have the same height and depth and the same wood, so a block's weight goes with its length; ${s.blocks.some((b) => b.length !== s.blocks[0].length) ? 'their lengths differ.' : 'they are all the same length.'}`,
    'A red post with a red ball on top stands on the floor beyond the right-hand edge of the table, below the level of the table top.',
    rules.goal,
    'A black-and-white ruler runs along the stacking line, level with the table top, and reads centimetres from its 0 mark; the table edge, the post and the blocks are measured against it.',
    ...(rules.sideBySide === false ? columnRules(rules.margin) : anywhereRules(rules.margin)),
    `Budget: ${rules.actions} actions — every place and remove counts, refused ones too; camera moves are free.`,
  ].join('\n');
}

/** The tool and standing sentences for a single column (the column rule). */
function columnRules(margin: number): string[] {
  return [
    'place(block, x_m) puts a block on top of the stack with its centre at x_m along the ruler (metres); remove() takes the top block back. Blocks lie along the ruler, one on top of another.',
    `Standing: at every level the blocks from that level up must have their common centre of mass over the part where that level rests on the one below (for the bottom block, on the table), at least ${margin * 1000} mm inside that part's ends. A placement that breaks this, or rests on nothing, is refused and undone, and the rest of that turn is not run.`,
  ];
}

/** The tool and standing sentences when blocks may lie side by side (the contact-force rule). */
function anywhereRules(margin: number): string[] {
  return [
    'place(block, x_m) lowers a block straight down with its centre at x_m along the ruler (metres) until it rests on whatever is under it — the blocks already placed or the table — so blocks can lie one on another or side by side on one level; remove() takes the block placed last back. Blocks lie along the ruler.',
    `Standing: in this check the blocks are rigid and held up only by vertical pushes where a block rests on the table or on blocks of the level below. They stand when such pushes can hold every block in balance (its weight and its turning) with the push on every contact at least ${margin * 1000} mm inside the ends of the part where the two touch. For a single column this says: at every level the blocks from that level up must have their common centre of mass over the part where that level rests on the one below (for the bottom block, on the table), at least ${margin * 1000} mm inside that part's ends. A placement after which the blocks would not stand, or that rests on nothing, is refused and undone, and the rest of that turn is not run.`,
  ];
}

/** One block of the stack: its colour and the centre the tool was given, m. */
export interface PlacedBlock {
  /** The block, by its colour. */
  color: BlockColor;
  /** The centre `place` was given, along x, m (not the settled pose: see {@link LooseBlockStack.column}). */
  x: number;
}

/** The handlers of `place` and `remove` and what they keep track of. */
export interface LooseBlockStack {
  /** The handlers, for `FamilyEnv.tools`. */
  tools: {
    /** `place(block, x_m)`: carry the block onto the top of the stack, or refuse and undo. */
    place(args: Record<string, unknown>): ToolOutput;
    /** `remove()`: carry the top block back to where it lay at the start. */
    remove(args: Record<string, unknown>): string;
  };
  /** The stack, bottom to top. */
  placed(): PlacedBlock[];
  /**
   * The blocks as placed, in placement order, each at the level it came to rest on: the exact
   * check judges the centres the tool was given (the settle check holds every block within 2 mm
   * of them), so a settle's micrometres cannot change a verdict at the margin.
   */
  column(): ArrangedBlock[];
}

const IDENTITY: Pose['q'] = [0, 0, 0, 1];

/**
 * The handlers of `place(block, x_m)` and `remove()` on the blocks `addTableEdge` put in
 * `world`, judged with the rule's `margin` (m). Sets up `world.meta.stack`. A placement is
 * refused as `statics` with one of two rules — it rests on nothing, or the stack would not stand
 * — and nothing else: finer causes would be feedback for a blind prober.
 */
export function looseBlockStack(world: World, s: TableEdgeScene, margin: number, sideBySide = true): LooseBlockStack {
  world.meta.stack = [];
  const placed = (): PlacedBlock[] => world.meta.stack as PlacedBlock[];
  const stack = (): BlockColor[] => placed().map((p) => p.color);
  const indexOf = (c: BlockColor): number => s.blocks.findIndex((b) => b.color === c);
  const lengthOf = (c: BlockColor): number => s.blocks[indexOf(c)].length;
  const column = (): ArrangedBlock[] => arrange(s, placed(), sideBySide);
  const clearY = (): number => levelY(stack().length) + BLOCK_HEIGHT + CARRY_CLEARANCE;

  /** Carries a block by swept motion: up, across at a height that clears everything, down. */
  const carry = (name: string, to: Pose): void => {
    const from = world.getPose(name).p;
    const y = Math.max(clearY(), to.p[1] + CARRY_CLEARANCE);
    world.setKind(name, 'kinematic');
    world.moveSwept(name, { p: [from[0], y, from[2]], q: IDENTITY });
    world.moveSwept(name, { p: [to.p[0], y, to.p[2]], q: IDENTITY });
    world.moveSwept(name, to);
  };
  // Handed back to the physics at rest, so the settle check sees only what gravity does.
  const release = (name: string): void => {
    world.setKind(name, 'dynamic');
    world.setVelocity(name, [0, 0, 0], [0, 0, 0]);
  };

  return {
    placed,
    column,
    tools: {
      place(args) {
        const color = String(args.block) as BlockColor;
        if (indexOf(color) < 0) throw new SpaceActError('invalid-argument', `block: '${color}' is not one of ${s.blocks.map((b) => b.color).join(', ')}`, { field: 'block' });
        if (stack().includes(color)) throw new SpaceActError('invalid-argument', `block: '${color}' is already in the stack (remove takes the top block back)`, { field: 'block' });
        const x = Number(args.x_m);
        if (!Number.isFinite(x)) throw new SpaceActError('invalid-argument', 'x_m must be a number', { field: 'x_m' });
        const name = blockBody(color);
        const now = column();
        // Lowered straight down until it rests on what is under it (over nothing it falls to the
        // floor); in a single column, onto the top of the stack.
        const landed = sideBySide ? landingLevel(now, x, lengthOf(color), s.edgeX) : now.length;
        const level = landed ?? now.reduce((k, b) => Math.max(k, b.level + 1), 0);
        carry(name, { p: [x, levelY(level) + DROP_GAP, STACK_Z], q: IDENTITY });
        let onNothing: boolean;
        let fails: boolean;
        if (sideBySide) {
          const failure = landed === null ? ({ kind: 'unsupported' } as const) : arrangementFailure([...now, { x, length: lengthOf(color), level }], s.edgeX, margin);
          fails = failure !== null;
          onNothing = failure?.kind === 'unsupported';
        } else {
          // The column rule as it always was: the lowest failing level, 'rests on nothing' only when that is the new block.
          const failure = columnFailure([...now, { x, length: lengthOf(color) }], s.edgeX, margin);
          fails = failure !== null;
          onNothing = failure?.kind === 'unsupported' && failure.level === level;
        }
        if (fails) {
          const message = onNothing ? `'${name}' would rest on nothing there; the placement was undone.` : `The stack would not stand with '${name}' there; the placement was undone.`;
          throw new ViolationError({ kind: 'statics', rule: onNothing ? 'rests on the stack or the table' : 'stack stands', bodies: [name], message });
        }
        release(name);
        world.meta.stack = [...placed(), { color, x }];
        const count = stack().length;
        if (!sideBySide) return { message: `Placed '${name}' on top of the stack (${level + 1} block${level ? 's' : ''}).`, data: { stack: count } };
        return { message: `Placed '${name}' (${count} block${count > 1 ? 's' : ''} placed).`, data: { stack: count } };
      },
      remove() {
        const st = stack();
        if (!st.length) throw new ViolationError({ kind: 'rule', rule: 'empty stack', bodies: [], message: 'There is no block in the stack to remove.' });
        const color = st[st.length - 1];
        const name = blockBody(color);
        world.meta.stack = placed().slice(0, -1);
        const home = supplyPose(s, indexOf(color));
        carry(name, { p: [home.p[0], home.p[1] + DROP_GAP, home.p[2]], q: home.q });
        release(name);
        return `Took '${name}' off the stack and put it back where it lay.`;
      },
    },
  };
}

/**
 * The placed blocks with the level each came to rest on, in placement order: each lowered
 * straight down onto what was already there (`landingLevel`), or with `sideBySide` false each on
 * the one before (a column). A block that would have rested on nothing is never kept, so every
 * level is defined.
 */
export function arrange(s: TableEdgeScene, placed: readonly PlacedBlock[], sideBySide = true): ArrangedBlock[] {
  const out: ArrangedBlock[] = [];
  for (const p of placed) {
    const length = s.blocks.find((b) => b.color === p.color)!.length;
    out.push({ x: p.x, length, level: sideBySide ? (landingLevel(out, p.x, length, s.edgeX) ?? 0) : out.length });
  }
  return out;
}

/** Whether the placed `blocks` stand by the rule (`margin`, m) and some block's far end is past the marker. */
export function reachesPastMarker(s: TableEdgeScene, blocks: readonly ArrangedBlock[], margin: number): boolean {
  return blocks.length > 0 && arrangementReach(blocks) >= s.markerX && arrangementFailure(blocks, s.edgeX, margin) === null;
}

/** Headway toward the marker: how far past the edge the column reaches, as a share of the marker's distance (at most 0.95 unsolved). */
export function markerProgress(s: TableEdgeScene, blocks: readonly ArrangedBlock[]): number {
  if (!blocks.length) return 0;
  const past = (arrangementReach(blocks) - s.edgeX) / (s.markerX - s.edgeX);
  return Math.max(0, Math.min(0.95, past));
}

/** The `state` diagnostic text: the edge, the marker, the margin, the supply's lengths and the stack, in millimetres. */
export function tableEdgeStateText(s: TableEdgeScene, margin: number, placed: readonly PlacedBlock[], sideBySide = true): string {
  const mm = (v: number): string => `${Number((v * 1000).toFixed(1))} mm`;
  return [
    `Table edge at x ${mm(s.edgeX)}; marker post at x ${mm(s.markerX)}; the rule's margin ${mm(margin)}.`,
    `Blocks: ${s.blocks.map((b) => `${b.color} ${mm(b.length)}`).join(', ')}.`,
    !placed.length
      ? 'The stack is empty.'
      : sideBySide
        ? `Placed, in order: ${arrange(s, placed).map((b, k) => `${placed[k].color} centred at x ${mm(b.x)} on level ${b.level}`).join('; ')}.`
        : `Stack, bottom to top: ${placed.map((p) => `${p.color} centred at x ${mm(p.x)}`).join('; ')}.`,
  ].join('\n');
}

/**
 * The whole episode of a reach-past-the-marker task (`build`'s result): the table's bodies
 * added to `world`, `place` and `remove` judged with `margin` (m), solved as soon as a standing
 * column reaches past the marker, progress toward it, the state text and the first view's
 * declaration. The settle check is the loop's default (0.5 s, every block watched).
 */
export function reachPastMarkerEnv(world: World, s: TableEdgeScene, margin: number, sideBySide = true): FamilyEnv {
  addTableEdge(world, s);
  const stack = looseBlockStack(world, s, margin, sideBySide);
  return {
    tools: { ...stack.tools },
    solved: () => reachesPastMarker(s, stack.column(), margin),
    viewParts: () => tableEdgeViewParts(s),
    progress: () => markerProgress(s, stack.column()),
    stateText: () => tableEdgeStateText(s, margin, stack.placed(), sideBySide),
  };
}

/** The farthest column of `count` blocks of the scene's supply, at `margin` (m), over its edge: `bestColumn` on the scene. */
export function farthestOfSupply(s: TableEdgeScene, count: number, margin: number): ChosenColumn | null {
  return bestColumn(s.blocks.map((b) => b.length), count, s.edgeX, margin);
}

/** The calls that build `column` (chosen from the scene's supply): `place` bottom to top, each centre at 0.1 mm. */
export function placeCalls(s: TableEdgeScene, column: ChosenColumn): ToolCall[] {
  return column.order.map((i, k) => ({ tool: 'place', args: { block: s.blocks[i].color, x_m: roundTo(column.blocks[k].x, 4) } }));
}
