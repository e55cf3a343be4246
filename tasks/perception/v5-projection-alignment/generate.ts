/**
 * V5 generator: an icon drawn from the seed (`icon.ts`), a scramble of random 30° turns
 * (re-drawn until the shortcut filters of `filters.ts` pass), the `rotate` and `stop` tools,
 * the rules text and the plan.
 */
import { roundTo } from '../../../core/determinism.ts';
import { generateFiltered, redrawRng } from '../../../solvers/redraw.ts';
import { makeInstance } from '../../instance.ts';
import type { FamilyDescriptor, Instance, Tier, ToolSpec } from '../../types.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import { drawIcon } from './icon.ts';
import { actionIndexOf } from './model.ts';
import { DEPTH_CAMERA } from './panel.ts';
import { IOU_SUCCESS } from './projection.ts';
import {
  ACTIONS,
  actionLabel,
  ANGLES_DEG,
  AXES,
  DIRECTIONS,
  frameQuaternion,
  inverseAction,
  qrotate,
  type Action,
  type WorkingFrame,
} from './rotation.ts';
import { tierSettings } from '../../levers.ts';
import { BUDGETS, V5_LEVERS, V5_TIERS, type V5Scene } from './scene.ts';
import { STAGNATION_LIMIT, STEP_CAP } from './search.ts';

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


/**
 * The L7 sentence that defines rotate()'s tilted axes (null below L7). It varies with the seed
 * and is allow-listed in `textVaries`: it is what the tool does, not where the object is, and
 * says nothing about the turn that brings the object back to the target.
 */
export function tiltedAxesText(scene: V5Scene): string | null {
  if (!scene.frame) return null;
  const yaw = scene.frame.yawDeg;
  const pitch = scene.frame.pitchDeg;
  return `Tilted axes at this tier: the three rotation axes are not the picture's axes. Take x right, y up, z toward the camera, turn that frame ${Math.abs(yaw)}° ${yaw >= 0 ? '"+"' : '"-"'} about y, then ${Math.abs(pitch)}° ${pitch >= 0 ? '"+"' : '"-"'} about the turned x axis: the result is the frame rotate() uses. In picture terms (right, up, toward the camera) its axes point along ${frameAxes(scene.frame)}.`;
}

function rulesText(scene: V5Scene): string {
  const lines = [
    'A solid object floats in front of a fixed camera that looks at it straight on, without perspective. It was made from a flat icon: the icon\'s outline is extruded toward and away from the camera, and the depth at each point is cut off by a ball around the centre, so the solid is thickest in the middle and thinner toward its rim. In the target pose the camera sees the icon face-on; the object has been turned away from that pose by a few rotations.',
    'Each picture is one panel of three views, left to right: the target silhouette (the icon seen face-on); the object as it is now, shaded by depth (nearer surfaces brighter, the background black, drawn at 0.9 of the silhouettes\' scale); and the object\'s silhouette now, at the same scale and position as the target.',
    `Goal: turn the object until its silhouette matches the target well enough: projection IoU (the area both silhouettes cover divided by the area either covers) of at least ${IOU_SUCCESS.toFixed(2)}.`,
    'rotate(axis, direction, angle_deg) turns the object about an axis through its centre that stays fixed in the world, not in the object. The axes: x points to the right of the picture, y up, z out of the picture toward the camera. "+" turns counter-clockwise as seen from the positive end of the axis looking back at the object (right-hand rule): "+" about z turns the picture counter-clockwise; "+" about y carries the near side of the object to the right; "+" about x carries the near side down and the top toward the camera. angle_deg is 1, 5, 10 or 30. Every turn reports the new IoU.',
  ];
  const tilted = tiltedAxesText(scene);
  if (tilted) lines.push(tilted);
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

function draw(family: FamilyDescriptor, seed: number, tier: Tier, lever: string | undefined, attempt: number): Instance<V5Scene> {
  const settings = tierSettings('V5', V5_TIERS, tier, lever, V5_LEVERS);
  const rng = redrawRng('V5', tier, seed, attempt);
  const icon = drawIcon(rng);
  const sampleSeed = rng.nextUint32();
  const [lo, hi] = settings.scramble;
  const scramble = drawScramble(rng, rng.int(lo, hi));
  const frame: WorkingFrame | null =
    settings.tiltedFrame ? { yawDeg: rng.pick([30, 35, 40, 45, 50]) * rng.pick([1, -1]), pitchDeg: rng.pick([15, 20, 25, 30]) * rng.pick([1, -1]) } : null;
  const scene: V5Scene = { icon, sampleSeed, scramble, frame };
  return makeInstance(family, tier, seed, {
    ...(lever ? { lever } : {}),
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

/**
 * The instance of (seed, tier, lever): drawn until every shortcut filter passes. A lever study
 * (`V5-L5+rot-s100`) draws from the L5 stream with the lever on.
 */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<V5Scene> {
  return generateFiltered((attempt) => draw(family, seed, tier, lever, attempt), SHORTCUT_FILTERS);
}
