/**
 * V5 episode: the icon body at a fixed place in front of a fixed orthographic view, turned by
 * the `rotate` tool (exact quaternion arithmetic, kept in `world.meta.v5`), with the seed's
 * stopping rules (step cap, stagnation, `stop`) and a three-part observation panel.
 */
import { SpaceActError } from '../../../core/errors.ts';
import { roundTo } from '../../../core/determinism.ts';
import type { Quat } from '../../../sim/types.ts';
import type { World } from '../../../sim/world.ts';
import type { FamilyEnv, Instance, ObservationImage } from '../../types.ts';
import { solidMesh, type SolidMesh } from './mesh.ts';
import { modelOf, type V5Model } from './model.ts';
import { composePanel, DEPTH_CAMERA } from './panel.ts';
import { IOU_SUCCESS, silhouette } from './projection.ts';
import {
  ACTIONS,
  actionLabel,
  applyRotation,
  qangleDeg,
  type Action,
} from './rotation.ts';
import { BODY, type V5Scene, type V5State } from './scene.ts';
import { STAGNATION_LIMIT, STEP_CAP } from './search.ts';
import { poseErrorDeg } from './symmetry.ts';

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

/** Builds the icon body and the `rotate` / `stop` tools; the observation is the family's own panel (target, depth view, current silhouette). */
export function build(instance: Instance<V5Scene>, world: World): FamilyEnv {
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
