/**
 * The metric tools of a held part, shared by the manipulation families: `translate`, `rotate`
 * and `move` (both at once). Their arguments and what they do are defined once, in the SE(3)
 * planner's motion model (`solvers/se3-planner/motion.ts`): a handler computes the swept legs
 * of a call from the part's pose with `callLegs` and runs each through `World.moveSwept`, exactly
 * as the planner replayed them when it certified the reference — so a planned script and an
 * agent's calls are judged by the same mechanism.
 */
import { SpaceActError } from '../../../core/errors.ts';
import { composePose, qrotate, vdist } from '../../../sim/math.ts';
import type { Pose, Quat } from '../../../sim/types.ts';
import type { SweepOptions, World } from '../../../sim/world.ts';
import { callLegs, MAX_TURN_DEG, toolNames, type HeldPartMotion } from '../../../solvers/se3-planner/motion.ts';
import type { ToolOutput, ToolSpec } from '../../types.ts';

/** How a family presents its held part's tools. */
export interface HeldPartTools {
  /** The held body's name in the world. */
  body: string;
  /** What the rules call the part, e.g. `the rod`. */
  partWords: string;
  /** How the motion model runs calls (frames, combined moves, per-call translation limit). */
  motion: HeldPartMotion;
  /** Where the axes are shown, e.g. `the red, green and blue arrows on the floor`. */
  axesWords: string;
  /** Where the rotation centre is, e.g. `the rod's midpoint`. */
  centreWords: string;
  /** What a refused move touched, for the descriptions, e.g. `a wall or the ceiling`. */
  obstacleWords: string;
  /** Sweep options (bodies the part may touch). */
  sweep?: SweepOptions;
}

const AXIS_SCHEMA = {
  oneOf: [
    { type: 'string', enum: ['x', 'y', 'z'] },
    { type: 'array', items: { type: 'number', minimum: -1, maximum: 1 }, minItems: 3, maxItems: 3 },
  ],
};

/** The JSON Schemas and descriptions of the held part's tools. */
export function heldPartToolSpecs(t: HeldPartTools): ToolSpec[] {
  const names = toolNames(t.motion);
  const maxT = t.motion.maxTranslate ?? 0.5;
  const d = { type: 'number', minimum: -maxT, maximum: maxT };
  const axisFrame =
    t.motion.rotationFrame === 'tool'
      ? `the part's own axes (the small red, green and blue arrows fixed to ${t.partWords}, which turn with it)`
      : `the working frame's axes (${t.axesWords})`;
  const checked = `The whole motion is swept: if ${t.partWords} would touch ${t.obstacleWords}, or leave the workspace, it is rolled back and the rest of the turn is not run.`;
  const specs: ToolSpec[] = [
    {
      name: names.translate,
      kind: 'physical',
      description: `Move ${t.partWords} in a straight line by dx_m, dy_m and dz_m metres along the working frame's x, y and z axes (${t.axesWords}; each at most ${maxT} m, omitted = 0). ${checked}`,
      parameters: { type: 'object', properties: { dx_m: { ...d }, dy_m: { ...d }, dz_m: { ...d } }, additionalProperties: false },
    },
    {
      name: names.rotate,
      kind: 'physical',
      description:
        `Turn ${t.partWords} by angle_deg degrees about an axis through ${t.centreWords}. axis is "x", "y" or "z" (${axisFrame}) or a direction [ax, ay, az] in those axes. ` +
        `Positive angles turn counter-clockwise as seen from the tip of the axis looking back (right-hand rule). ${checked}`,
      parameters: {
        type: 'object',
        properties: { axis: AXIS_SCHEMA, angle_deg: { type: 'number', minimum: -MAX_TURN_DEG, maximum: MAX_TURN_DEG } },
        required: ['axis', 'angle_deg'],
        additionalProperties: false,
      },
    },
  ];
  if (t.motion.combined) {
    specs.push({
      name: names.move,
      kind: 'physical',
      description:
        `Move and turn ${t.partWords} at the same time, both at a steady rate: the translation (dx_m, dy_m, dz_m) as in ${names.translate}, the turn (axis, angle_deg) as in ${names.rotate}, about ${t.centreWords} as it travels. ` +
        `Use it to swing a part round a corner or screw it along a curve. ${checked}`,
      parameters: {
        type: 'object',
        properties: { dx_m: { ...d }, dy_m: { ...d }, dz_m: { ...d }, axis: AXIS_SCHEMA, angle_deg: { type: 'number', minimum: -MAX_TURN_DEG, maximum: MAX_TURN_DEG } },
        required: ['axis', 'angle_deg'],
        additionalProperties: false,
      },
    });
  }
  return specs;
}

/**
 * Handlers of the held part's tools. Each computes the call's swept legs from the part's pose
 * now and moves through them with `World.moveSwept`, which throws on the first contact (the
 * episode loop rolls the call back). `after` adds the family's remark to the message (e.g. that
 * the task is solved); `followers` are drawn-only bodies fixed to the part at an offset (its own
 * axis arrows), moved with it.
 */
export function heldPartHandlers(
  world: World,
  t: HeldPartTools,
  after: () => string = () => '',
  followers: Array<{ body: string; offset: Pose }> = [],
): Record<string, (args: Record<string, unknown>) => ToolOutput> {
  const names = toolNames(t.motion);
  // Drawn-only bodies fixed to the part (its tool-frame arrows) go where it goes, also to the
  // contact pose of a refused leg, so the rollback picture shows them on the part.
  const follow = (): void => {
    const at = world.getPose(t.body);
    for (const f of followers) world.setPose(f.body, composePose(at, f.offset));
  };
  const run = (tool: string, args: Record<string, unknown>): ToolOutput => {
    const from = world.getPose(t.body);
    const legs = callLegs(t.motion, from, { tool, args });
    for (const leg of legs) {
      try {
        world.moveSwept(t.body, leg, t.sweep ?? {});
      } finally {
        follow();
      }
    }
    // What was done, never how far: the text carries no distance or angle (issue 36), the
    // picture shows where the part went.
    const to = world.getPose(t.body);
    const moved = vdist(from.p, to.p);
    const turned = Number(args.angle_deg ?? 0);
    const parts = [moved > 0 ? 'moved' : '', turned !== 0 ? 'turned' : ''].filter(Boolean);
    const remark = after();
    return { message: `${parts.length ? `${t.partWords} ${parts.join(' and ')}` : 'nothing to do (zero motion)'}${remark ? `; ${remark}` : ''}` };
  };
  const handlers: Record<string, (args: Record<string, unknown>) => ToolOutput> = {
    [names.translate]: (args) => run(names.translate, args),
    [names.rotate]: (args) => run(names.rotate, args),
  };
  if (t.motion.combined) handlers[names.move] = (args) => run(names.move, args);
  return handlers;
}

/** A direction in the working frame `frame` (world ← frame), e.g. for rules and plans. */
export function frameVector(frame: Quat | undefined, v: [number, number, number]): [number, number, number] {
  return frame ? qrotate(frame, v) : v;
}

/** Throws `invalid-argument` unless `x` is a finite number (handlers double-check the schema). */
export function finite(x: unknown, what: string): number {
  if (typeof x !== 'number' || !Number.isFinite(x)) throw new SpaceActError('invalid-argument', `${what} must be a finite number`, { value: x });
  return x;
}
