/**
 * V5 projection alignment: the rotation/projection seed as a SpaceAct world. A solid made by
 * extruding a generated icon inside a sphere floats in front of a fixed orthographic view; it
 * starts a few 30° turns away from the pose that shows the icon face-on, and the agent turns
 * it back with 24 discrete rotations (three world axes × two directions × 1°, 5°, 10°, 30°)
 * until its silhouette overlaps the target by projection IoU ≥ 0.90.
 *
 * Protocol points and where they live: icon drawing (icon.ts), icon processing, filters and
 * sphere-bounded extrusion (extrusion.ts), the closed mesh of the body (mesh.ts), the exact
 * rotation arithmetic and the 24 actions (rotation.ts), the point-splat projection and IoU
 * (projection.ts), symmetry detection and pose error (symmetry.ts), the reference searches
 * and the episode's stopping rules (search.ts), the observation panel (panel.ts) and the
 * stratified `rota` suite (rota-suite.ts).
 */
import { SpaceActError } from '../../../core/errors.ts';
import type { Quat } from '../../../sim/types.ts';
import type { World } from '../../../sim/world.ts';
import { generateFiltered, redrawRng } from '../../../solvers/redraw.ts';
import { makeInstance } from '../../instance.ts';
import type { FamilyEnv, Instance, InstanceFilter, ObservationImage, ReferenceSolution, TaskFamily, Tier, ToolSpec } from '../../types.ts';
import { iconProblem, iconStats } from './extrusion.ts';
import { drawIcon } from './icon.ts';
import { solidMesh, type SolidMesh } from './mesh.ts';
import { actionIndexOf, modelOf, type V5Model, type V5Scene } from './model.ts';
import { composePanel, DEPTH_CAMERA } from './panel.ts';
import { IOU_SUCCESS, silhouette } from './projection.ts';
import {
  ACTIONS,
  actionLabel,
  ANGLES_DEG,
  applyRotation,
  AXES,
  DIRECTIONS,
  frameQuaternion,
  inverseAction,
  qangleDeg,
  qrotate,
  type Action,
  type Quaternion,
  type WorkingFrame,
} from './rotation.ts';
import { readRotaPool, ROTA_MIN_LENGTH, ROTA_POOL_SEEDS, ROTA_SIZE, selectRota } from './rota-suite.ts';
import { findReference, STAGNATION_LIMIT, STEP_CAP } from './search.ts';
import { poseErrorDeg } from './symmetry.ts';
import { roundTo } from '../../../core/determinism.ts';

export type { V5Scene } from './model.ts';

const FAMILY_ID = 'V5';
const VERSION = 1;
/** Scramble lengths (30° turns) per tier, inclusive. */
const SCRAMBLE: Record<Tier, [number, number]> = { L1: [2, 3], L3: [3, 5], L5: [4, 8], L7: [4, 8] };
/** A start whose silhouette already overlaps the target this much is re-drawn. */
const START_IOU_MAX = 0.8;
/** Turns of an episode: one rotation per turn, with room beyond the step cap for refused calls. */
const BUDGETS = { turns: 60, actionsPerTurn: 1 };
const BODY = 'icon';

/** Episode state kept in `world.meta.v5` (snapshotted, rolled back and hashed with the world). */
interface V5State {
  /** Orientation of the object, unit quaternion in double precision. */
  q: Quaternion;
  rotations: number;
  iou: number;
  best: number;
  /** Rotations in a row that did not raise `best`. */
  since: number;
  stopped: boolean;
  /** Per rotation: action label, IoU after it, pose error after it (degrees). */
  trace: Array<{ action: string; iou: number; pose_error_deg: number }>;
}

const THIRTY = ACTIONS.filter((a) => a.angle === 30);

const ROTATE_TOOL: ToolSpec = {
  name: 'rotate',
  kind: 'discrete',
  description:
    'Turn the object about one of the three fixed axes through its centre: axis x, y or z; direction "+" or "-" ' +
    '(right-hand rule: "+" is counter-clockwise seen from the positive end of the axis); angle_deg 1, 5, 10 or 30. ' +
    'Returns the projection IoU after the turn.',
  parameters: {
    type: 'object',
    properties: {
      axis: { enum: [...AXES] },
      direction: { enum: [...DIRECTIONS] },
      angle_deg: { enum: [...ANGLES_DEG] },
    },
    required: ['axis', 'direction', 'angle_deg'],
    additionalProperties: false,
  },
};

const STOP_TOOL: ToolSpec = {
  name: 'stop',
  kind: 'final',
  description: 'Give up and end the episode now, leaving the object as it is.',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
};

/** The working axes in picture terms (right, up, toward the viewer), 2 decimals. */
function frameAxes(frame: WorkingFrame): string {
  const w = frameQuaternion(frame);
  return AXES.map((name, i) => {
    const e = [0, 0, 0];
    e[i] = 1;
    const d = qrotate(w, e).map((c) => roundTo(c, 2).toFixed(2));
    return `${name} ≈ (${d.join(', ')})`;
  }).join('; ');
}

function rulesText(scene: V5Scene): string {
  const lines = [
    'A solid object floats in front of a fixed camera that looks at it straight on, without perspective. It was made from a flat icon: the icon\'s outline is extruded toward and away from the camera, and the depth at each point is cut off by a ball around the centre, so the solid is thickest in the middle and thinner toward its rim. In the target pose the camera sees the icon face-on; the object has been turned away from that pose by a few rotations.',
    'Each picture is one panel of three views, left to right: the target silhouette (the icon seen face-on); the object as it is now, shaded by depth (nearer surfaces brighter, the background black, drawn at 0.9 of the silhouettes\' scale); and the object\'s silhouette now, at the same scale and position as the target.',
    `Goal: turn the object until its silhouette matches the target well enough: projection IoU (the area both silhouettes cover divided by the area either covers) of at least ${IOU_SUCCESS.toFixed(2)}.`,
    'rotate(axis, direction, angle_deg) turns the object about an axis through its centre that stays fixed in the world, not in the object. The axes: x points to the right of the picture, y up, z out of the picture toward the camera. "+" turns counter-clockwise as seen from the positive end of the axis looking back at the object (right-hand rule): "+" about z turns the picture counter-clockwise; "+" about y carries the near side of the object to the right; "+" about x carries the near side down and the top toward the camera. angle_deg is 1, 5, 10 or 30. Every turn reports the new IoU.',
  ];
  if (scene.frame) {
    const yaw = scene.frame.yawDeg;
    const pitch = scene.frame.pitchDeg;
    lines.push(
      `Tilted axes at this tier: the three rotation axes are not the picture's axes. Take x right, y up, z toward the camera, turn that frame ${Math.abs(yaw)}° ${yaw >= 0 ? '"+"' : '"-"'} about y, then ${Math.abs(pitch)}° ${pitch >= 0 ? '"+"' : '"-"'} about the turned x axis: the result is the frame rotate() uses. In picture terms (right, up, toward the camera) its axes point along ${frameAxes(scene.frame)}.`,
    );
  }
  lines.push(
    `stop() ends the episode at once (giving up). The episode also ends when the IoU reaches ${IOU_SUCCESS.toFixed(2)} (success), after ${STEP_CAP} rotations (the step cap), or after ${STAGNATION_LIMIT} rotations in a row none of which raises the IoU above the best value reached so far (stagnation). One call per turn. Rotations never collide with anything and are never rolled back.`,
  );
  return lines.join('\n');
}

function planText(scene: V5Scene): string {
  const undo = scene.scramble.map((label) => inverseAction(ACTIONS[actionIndexOf(label)])).reverse();
  const words = undo.map((a) => `${a.axis} ${a.direction}${a.angle}°`).join(', ');
  return `The object was turned away from the target by ${scene.scramble.length} rotations of 30°. Undoing them in reverse order always works: ${words} (${undo.length} rotations, in this tier's axes). A shorter way may exist once the silhouette already matches within IoU 0.90.`;
}

/** Draws a scramble of `n` 30° turns that never undoes the turn before it. */
function drawScramble(rng: ReturnType<typeof redrawRng>, n: number): string[] {
  const out: Action[] = [];
  while (out.length < n) {
    const a = rng.pick(THIRTY);
    const last = out[out.length - 1];
    if (last && last.axis === a.axis && last.direction !== a.direction) continue;
    out.push(a);
  }
  return out.map(actionLabel);
}

function draw(seed: number, tier: Tier, attempt: number): Instance<V5Scene> {
  const rng = redrawRng(FAMILY_ID, tier, seed, attempt);
  const icon = drawIcon(rng);
  const sampleSeed = rng.nextUint32();
  const [lo, hi] = SCRAMBLE[tier];
  const scramble = drawScramble(rng, rng.int(lo, hi));
  const frame: WorkingFrame | null =
    tier === 'L7' ? { yawDeg: rng.pick([30, 35, 40, 45, 50]) * rng.pick([1, -1]), pitchDeg: rng.pick([15, 20, 25, 30]) * rng.pick([1, -1]) } : null;
  const scene: V5Scene = { icon, sampleSeed, scramble, frame };
  return makeInstance(v5ProjectionAlignment, tier, seed, {
    title: `Projection alignment${frame ? ', tilted rotation axes' : ''}`,
    rules: rulesText(scene),
    tools: [ROTATE_TOOL, STOP_TOOL],
    noCameraTools: true,
    budgets: { ...BUDGETS },
    camera: { initial: { ...DEPTH_CAMERA, orthoHeight: 0.32 } },
    rulers: [],
    dynamic: false,
    scoring: 'graded',
    scene,
    reveal: { plan: planText(scene) },
  });
}

const FILTERS: Array<InstanceFilter<V5Scene>> = [
  {
    name: 'icon-occupancy',
    check: (instance) => {
      const problem = iconProblem(iconStats(modelOf(instance.scene).solid.mask));
      return problem ? `icon rejected: ${problem}` : null;
    },
  },
  {
    name: 'start-far-from-target',
    check: (instance) => {
      const model = modelOf(instance.scene);
      const iou = model.iou(model.initial);
      return iou > START_IOU_MAX ? `the start silhouette already overlaps the target by IoU ${iou.toFixed(3)} (> ${START_IOU_MAX})` : null;
    },
  },
];

function generate(seed: number, tier: Tier): Instance<V5Scene> {
  return generateFiltered((attempt) => draw(seed, tier, attempt), FILTERS);
}

const meshes = new WeakMap<V5Model, SolidMesh>();

function asQuat(q: readonly number[]): Quat {
  return [q[0], q[1], q[2], q[3]];
}

function readState(world: World): V5State {
  return world.meta.v5 as V5State;
}

/** Why the episode has ended, if it has (other than a success). */
function endReason(st: V5State): 'stop' | 'step-cap' | 'stagnation' | null {
  if (st.stopped) return 'stop';
  if (st.iou >= IOU_SUCCESS) return null;
  if (st.rotations >= STEP_CAP) return 'step-cap';
  if (st.since >= STAGNATION_LIMIT) return 'stagnation';
  return null;
}

function build(instance: Instance<V5Scene>, world: World): FamilyEnv {
  const scene = instance.scene;
  const model = modelOf(scene);
  let mesh = meshes.get(model);
  if (!mesh) meshes.set(model, (mesh = solidMesh(model.solid)));
  world.addBody({
    name: BODY,
    kind: 'static',
    pose: { p: [0, 0, 0], q: asQuat(model.initial) },
    shapes: [{ type: 'mesh', vertices: mesh.vertices, indices: mesh.indices }],
    color: scene.icon.fill,
  });
  const startIoU = model.iou(model.initial);
  const initial: V5State = { q: model.initial, rotations: 0, iou: startIoU, best: startIoU, since: 0, stopped: false, trace: [] };
  world.meta.v5 = initial;
  const poseError = (q: readonly number[]): number => poseErrorDeg(q, model.symmetry().quaternions);

  /** The closing record the agent sees: stop reason, final IoU and the IoU after every step. */
  const closing = (st: V5State, reason: string): Record<string, unknown> => ({
    stop_reason: reason,
    final_iou: roundTo(st.iou, 4),
    iou_per_step: st.trace.map((t) => t.iou),
  });
  /** The pose errors, for the log only: shown to the agent they would give the answer away. */
  const poseDiagnostics = (st: V5State): Record<string, unknown> => ({
    pose_error_deg: roundTo(poseError(st.q), 3),
    pose_error_deg_per_step: st.trace.map((t) => t.pose_error_deg),
  });

  return {
    tools: {
      rotate(args) {
        const action: Action = { axis: args.axis as Action['axis'], direction: args.direction as Action['direction'], angle: args.angle_deg as Action['angle'] };
        const index = ACTIONS.findIndex((a) => a.axis === action.axis && a.direction === action.direction && a.angle === action.angle);
        if (index < 0) throw new SpaceActError('invalid-argument', 'rotate needs axis x|y|z, direction +|- and angle_deg 1|5|10|30', { args });
        const st = readState(world);
        const q = applyRotation(model.actions[index], st.q);
        world.setPose(BODY, { p: [0, 0, 0], q: asQuat(q) });
        const iou = model.iou(q);
        const improved = iou > st.best;
        const next: V5State = {
          q,
          rotations: st.rotations + 1,
          iou,
          best: Math.max(st.best, iou),
          since: improved ? 0 : st.since + 1,
          stopped: false,
          trace: [...st.trace, { action: actionLabel(action), iou: roundTo(iou, 4), pose_error_deg: roundTo(poseError(q), 3) }],
        };
        world.meta.v5 = next;
        const data: Record<string, unknown> = { iou: roundTo(iou, 4), best_iou: roundTo(next.best, 4), rotations: next.rotations, rotations_since_best: next.since };
        let message = `turned ${action.direction}${action.angle}° about ${action.axis}: projection IoU ${iou.toFixed(3)} (best so far ${next.best.toFixed(3)}; ${next.rotations} of ${STEP_CAP} rotations used)`;
        const reason = iou >= IOU_SUCCESS ? 'success' : endReason(next);
        if (reason) {
          Object.assign(data, closing(next, reason));
          if (reason === 'success') message += `. The silhouette matches the target (IoU ≥ ${IOU_SUCCESS.toFixed(2)}).`;
        }
        return { message, data, diagnostics: poseDiagnostics(next) };
      },
      stop() {
        const st = { ...readState(world), stopped: true };
        world.meta.v5 = st;
        return { message: `stopped with projection IoU ${st.iou.toFixed(3)} after ${st.rotations} rotations`, data: closing(st, 'stop'), diagnostics: poseDiagnostics(st) };
      },
    },
    solved() {
      const st = readState(world);
      if (model.iou(st.q) < IOU_SUCCESS) return false;
      // The record must agree with the body (its pose is stored in single precision).
      const q = world.getPose(BODY).q;
      const dot = Math.abs(q[0] * st.q[0] + q[1] * st.q[1] + q[2] * st.q[2] + q[3] * st.q[3]);
      return dot > 1 - 1e-6;
    },
    progress() {
      // Headway on the success criterion, as the seed reports final IoU: 0 at the start
      // silhouette's IoU, 1 at the threshold. (The pose error is logged, not scored.)
      const st = readState(world);
      return Math.min(1, Math.max(0, (st.iou - startIoU) / (IOU_SUCCESS - startIoU)));
    },
    failed() {
      const st = readState(world);
      const reason = endReason(st);
      if (reason === 'step-cap') return `step cap: ${STEP_CAP} rotations used without reaching IoU ${IOU_SUCCESS.toFixed(2)} (best ${st.best.toFixed(3)})`;
      if (reason === 'stagnation') return `stagnation: ${STAGNATION_LIMIT} rotations in a row without raising the best IoU (${st.best.toFixed(3)})`;
      return null;
    },
    staticsAfter() {
      // Nothing rests on anything: the object is posed directly and no time needs to pass.
      return false;
    },
    stateText() {
      const st = readState(world);
      const group = model.symmetry();
      const axis = st.q.slice(0, 3);
      const n = Math.sqrt(axis[0] ** 2 + axis[1] ** 2 + axis[2] ** 2) || 1;
      const sym =
        group.planar.length === 0
          ? 'none (only the target pose itself matches)'
          : `${group.rotationOrder}-fold rotation about the view axis and ${group.mirrors} mirror line(s), so ${group.quaternions.length} equivalent target poses`;
      return [
        `Orientation of the object relative to the target (unit quaternion x, y, z, w in the picture axes right, up, toward the camera): ${st.q.map((c) => c.toFixed(6)).join(', ')}.`,
        `That is a turn of ${qangleDeg(st.q).toFixed(2)}° about the axis (${axis.map((c) => (c / n).toFixed(3)).join(', ')}) away from the target.`,
        `Icon symmetry: ${sym}. Pose error to the nearest equivalent target: ${poseError(st.q).toFixed(2)}°.`,
        `Projection IoU ${st.iou.toFixed(4)} (best ${st.best.toFixed(4)}); ${st.rotations} of ${STEP_CAP} rotations used; ${st.since} since the best last rose.`,
      ].join('\n');
    },
    observationText() {
      const st = readState(world);
      return `projection IoU now ${st.iou.toFixed(3)}, best so far ${st.best.toFixed(3)}; ${st.rotations} of ${STEP_CAP} rotations used; ${st.since} of ${STAGNATION_LIMIT} rotations in a row without a new best.`;
    },
    async observe(ctx): Promise<ObservationImage[]> {
      const st = readState(world);
      const depth = await ctx.renderer.render(ctx.scene(), DEPTH_CAMERA, { view: 'depth', width: 320, height: 320 });
      const png = await composePanel(model.target, depth, silhouette(model.solid, st.q));
      return [
        {
          kind: 'view',
          png,
          caption: 'Left: the target silhouette. Middle: the object now, shaded by depth (nearer is brighter). Right: the object\'s silhouette now.',
        },
      ];
    },
  };
}

const references = new Map<string, ReferenceSolution>();

function reference(instance: Instance<V5Scene>): ReferenceSolution {
  const key = JSON.stringify([instance.id, instance.version, instance.scene]);
  const hit = references.get(key);
  if (hit) return structuredClone(hit);
  const ref = findReference(instance.scene);
  const len = (x: number | null): string => (x === null ? 'none' : String(x));
  const solution: ReferenceSolution = {
    calls: ref.path.map((i) => ({ tool: 'rotate', args: { axis: ACTIONS[i].axis, direction: ACTIONS[i].direction, angle_deg: ACTIONS[i].angle } })),
    optimal: false,
    method:
      `shortest verified path (${ref.source}, ${ref.path.length} rotations) of: the inverse scramble (${len(ref.lengths.inverse)}), ` +
      `a 30°-only breadth-first search (${len(ref.lengths.bfs30)} shorter than the inverse), a pose-guided beam search of width 256 (${len(ref.lengths.beam)}); ` +
      `IoU after the last step ${ref.ious[ref.ious.length - 1].toFixed(3)}`,
  };
  if (references.size > 200) references.clear();
  references.set(key, solution);
  return structuredClone(solution);
}

/** V5 projection alignment (the rotation/projection seed as a world config). */
export const v5ProjectionAlignment: TaskFamily<V5Scene> = {
  id: FAMILY_ID,
  version: VERSION,
  category: 'V',
  title: 'Projection alignment',
  summary:
    'Turn an extruded icon with 24 discrete world-frame rotations (three axes, two directions, 1°, 5°, 10°, 30°) until its silhouette matches the face-on target with projection IoU ≥ 0.90, judging from target and current silhouettes and a depth-shaded view. Tests mental rotation and closed-loop 3D control from 2D feedback.',
  tiers: {
    L1: { levers: [], description: 'Start 2–3 random 30° turns away from the target.' },
    L3: { levers: [], description: 'Start 3–5 random 30° turns away from the target.' },
    L5: { levers: [], description: 'Start 4–8 random 30° turns away from the target (the pool of the rota suite).' },
    L7: {
      levers: ['+rot'],
      description: 'L5 with a tilted working frame: the three rotation axes are the picture axes turned 30–50° about the vertical and then 15–30° about the turned horizontal axis (stated in the rules).',
    },
  },
  generate,
  build,
  reference,
  shortcutFilters: FILTERS,
  suites: {
    rota: {
      description: `${ROTA_SIZE} L5 instances from a pool of ${ROTA_POOL_SEEDS[1] - ROTA_POOL_SEEDS[0] + 1} (seeds ${ROTA_POOL_SEEDS[0]}–${ROTA_POOL_SEEDS[1]}), stratified over reference path length (≥ ${ROTA_MIN_LENGTH}) with largest-remainder allocation and SHA-256 ranking`,
      instances: () => selectRota(readRotaPool(VERSION).entries),
    },
  },
};
