import { composeRow } from '../../../render/compose.ts';
import { SpaceActError } from '../../../core/errors.ts';
import { qmul, qrotate, yawQuat } from '../../../sim/math.ts';
import type { SceneBody } from '../../../sim/types.ts';
import type { World } from '../../../sim/world.ts';
import { makeInstance } from '../../instance.ts';
import { Rng } from '../../../core/rng.ts';
import type { FamilyEnv, Instance, ObservationImage, ReferenceSolution, TaskFamily, Tier, ToolSpec } from '../../types.ts';
import { V6_FILTERS } from './checks.ts';
import type { ObjectPart } from './objects.ts';
import { drawQuestion, QUESTION_NAMES, QUESTION_TYPES, TIER_PLANS, VIEW_NAMES, type Question } from './questions.ts';
import {
  ELEVATION_DEG,
  IMAGE_SIZE,
  POOL_SIZE,
  questionCamera,
  screenFor,
  screenObject,
  turntableRadius,
  TURNTABLE_THICKNESS,
  type V6Scene,
} from './scene.ts';
import { FRAME_STEP_DEG } from './symmetry.ts';

export type { V6Scene } from './scene.ts';

const TURNTABLE_COLOR = '#b9bec4';
const SCREEN_COLOR = '#7d858c';
const FLOOR_COLOR = '#d6d2c8';
/** Draws from the pool before giving up on finding a screened object (never reached: most candidates pass). */
const MAX_OBJECT_DRAWS = 400;
/** Questions of each type in the `rotation` suites. */
export const SUITE_PER_TYPE = 18;

/** The answer tool of a question: one letter from the options, or (open exact angle) one number. */
function answerTool(q: Question): ToolSpec {
  // The answer fields carry no default value on purpose: a commit that names no answer (the
  // null policy's) is refused and so counts as wrong, instead of guessing option A or 0°.
  if (!q.options) {
    return {
      name: 'answer',
      kind: 'final',
      description: 'Commit the rotation angle in degrees (a number from 0 to 180). Ends the episode; only the exact angle is right.',
      parameters: {
        type: 'object',
        properties: { angle_deg: { description: 'unsigned rotation, degrees', oneOf: [{ type: 'number', minimum: 0, maximum: 180 }] } },
        required: ['angle_deg'],
        additionalProperties: false,
      },
    };
  }
  return {
    name: 'answer',
    kind: 'final',
    description: `Commit the letter of one option (${q.options.map((o) => o.letter).join(', ')}). Ends the episode; only this answer is scored.`,
    parameters: {
      type: 'object',
      properties: {
        choice: { type: 'string', description: 'the letter of the chosen option', oneOf: q.options.map((o) => ({ const: o.letter, description: o.text })) },
      },
      required: ['choice'],
      additionalProperties: false,
    },
  };
}

function rulesText(s: V6Scene, tier: Tier): string {
  const q = s.question;
  const plan = TIER_PLANS[tier];
  const lines = [
    `One object stands on a turntable and is always seen by the same fixed camera, ${ELEVATION_DEG}° above the horizontal. Between pictures only the turntable turns, carrying the object around its vertical axis; it stops only at multiples of ${FRAME_STEP_DEG}°. A rotation angle means how far the object has turned the shorter way round, from 0° to 180°, whichever the direction; clockwise and counter-clockwise are as seen from above. Each picture is named in the bar above it.`,
  ];
  if (s.screen) lines.push('A grey screen stands between the camera and the turntable. It does not turn, and it hides the lower part of the object.');
  if (q.type === 'view_matching') {
    lines.push(
      'Views are named for a person facing the object\'s front: the left view shows the side that was on their left, which is what the camera sees once the object has turned 90° counter-clockwise from its front view; the back view is half a turn from the front; the right view is 90° clockwise from the front.',
    );
    if (plan.viewJitter.some((j) => j !== 0)) lines.push(`A candidate may be up to ${Math.max(...plan.viewJitter)}° away from the view it shows: choose the one nearest to the view asked for.`);
  }
  lines.push(`Question: ${q.prompt}`);
  if (q.options) {
    if (q.type !== 'view_matching' && q.type !== 'post_rotation') for (const o of q.options) lines.push(`${o.letter}. ${o.text}`);
    lines.push(
      `Answer with one call, answer({"choice": "<letter>"}), the letter being one of ${q.options.map((o) => o.letter).join(', ')}.`,
    );
  } else {
    lines.push('Answer with one call, answer({"angle_deg": <number>}), a number of degrees from 0 to 180; only the exact angle is right.');
  }
  lines.push(
    'You have one turn and one action: the answer ends the episode and is either right or wrong. A call that does not fit the argument schema is refused and leaves you with no answer, which counts as wrong. Nothing in the scene can be moved, so nothing can cause a violation.',
  );
  return lines.join('\n');
}

function planText(q: Question): string {
  const call = 'choice' in q.answer ? `answer({"choice": "${q.answer.choice}"})` : `answer({"angle_deg": ${q.answer.angle_deg}})`;
  return `The turntable stops give the answer: ${q.reason}. Send ${call}.`;
}

const cache = new Map<string, Instance<V6Scene>>();

/** Draws pool ids from `rng` until one passes the symmetry screen (alone, or behind the screen at L7). */
function objectPicker(occluded: boolean): (rng: Rng) => number {
  return (rng) => {
    for (let i = 0; i < MAX_OBJECT_DRAWS; i++) {
      const id = rng.int(0, POOL_SIZE - 1);
      if (screenObject(id, occluded).passed) return id;
    }
    throw new SpaceActError('invalid-state', `no pool object passed the symmetry screen in ${MAX_OBJECT_DRAWS} draws`);
  };
}

/** Pure: the question a (seed, tier) asks, with its object, world and pictures (memoised). */
function generate(seed: number, tier: Tier): Instance<V6Scene> {
  const key = `${tier}/${seed}`;
  let hit = cache.get(key);
  if (!hit) {
    const plan = TIER_PLANS[tier];
    const rng = Rng.forInstance('V6', tier, seed);
    const { question, objectId } = drawQuestion({ tier, seed, plan, pickObject: objectPicker(plan.occluder) }, rng);
    const { object, profile } = screenObject(objectId, plan.occluder);
    const screen = plan.occluder ? screenFor(object) : null;
    const scene: V6Scene = {
      question,
      object,
      turntable: { radius: turntableRadius(object), thickness: TURNTABLE_THICKNESS },
      screen,
      screening: { angleDeg: profile.worst.angleDeg, change: profile.worst.change },
    };
    hit = makeInstance(v6ObjectRotation, tier, seed, {
      title: `Object rotation: ${QUESTION_NAMES[question.type].toLowerCase()}`,
      rules: rulesText(scene, tier),
      tools: [answerTool(question)],
      noCameraTools: true,
      budgets: { turns: 1, actionsPerTurn: 1 },
      camera: { initial: questionCamera(object, plan.occluder) },
      rulers: [],
      ground: { y: -TURNTABLE_THICKNESS, color: FLOOR_COLOR },
      dynamic: false,
      scoring: 'graded',
      scene,
      reveal: { plan: planText(question) },
    });
    cache.set(key, hit);
  }
  return structuredClone(hit);
}

/** Object parts grouped by colour: one static body per colour (a body has one colour). */
function objectBodies(parts: ObjectPart[]): Array<{ color: string; parts: ObjectPart[] }> {
  const groups = new Map<string, ObjectPart[]>();
  for (const p of parts) groups.set(p.color, [...(groups.get(p.color) ?? []), p]);
  return [...groups].map(([color, ps]) => ({ color, parts: ps }));
}

const OBJECT_PREFIX = 'object-';

/** The scene's bodies with the object turned to a turntable stop (the turntable is round, the screen never turns). */
function turned(bodies: SceneBody[], frame: number): SceneBody[] {
  const q = yawQuat(frame * FRAME_STEP_DEG);
  return bodies.map((b) => (b.name.startsWith(OBJECT_PREFIX) ? { ...b, pose: { p: qrotate(q, b.pose.p), q: qmul(q, b.pose.q) } } : b));
}

function answerText(a: unknown): string {
  return typeof a === 'number' ? `${a}°` : `"${String(a)}"`;
}

/** Builds the turntable, the object (at stop 0) and the screen as static bodies; the answer goes to `world.meta`. */
function build(instance: Instance<V6Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  const q = s.question;
  world.addBody({
    name: 'turntable',
    kind: 'static',
    pose: { p: [0, -s.turntable.thickness / 2, 0], q: [0, 0, 0, 1] },
    shapes: [{ type: 'cylinder', radius: s.turntable.radius, halfHeight: s.turntable.thickness / 2 }],
    color: TURNTABLE_COLOR,
  });
  objectBodies(s.object.parts).forEach((g, i) => {
    world.addBody({
      name: `${OBJECT_PREFIX}${i}`,
      kind: 'static',
      pose: { p: [0, 0, 0], q: [0, 0, 0, 1] },
      shapes: g.parts.map((p) => (p.type === 'box' ? { type: 'box', half: p.half, pose: p.pose } : { type: 'cylinder', radius: p.radius, halfHeight: p.halfHeight, pose: p.pose })),
      color: g.color,
      tags: ['object'],
    });
  });
  if (s.screen) {
    world.addBody({ name: 'screen', kind: 'static', pose: { p: s.screen.center, q: [0, 0, 0, 1] }, shapes: [{ type: 'box', half: s.screen.half }], color: SCREEN_COLOR, tags: ['screen'] });
  }
  world.meta.answer = null;
  const expected = 'choice' in q.answer ? q.answer.choice : q.answer.angle_deg;

  return {
    tools: {
      answer(args) {
        const value = q.options ? args.choice : args.angle_deg;
        if (q.options ? !q.options.some((o) => o.letter === value) : typeof value !== 'number' || !(value >= 0 && value <= 180)) {
          throw new SpaceActError('invalid-argument', q.options ? 'choice must be one of the option letters' : 'angle_deg must be a number from 0 to 180', { value });
        }
        world.meta.answer = value as string | number;
        return `answer ${answerText(value)} committed`;
      },
    },
    solved() {
      const a = world.meta.answer;
      // Exact agreement: a letter, or the angle itself (the turntable's stops are whole degrees).
      return a !== null && (typeof a === 'number' ? Math.abs(a - (expected as number)) < 1e-9 : a === expected);
    },
    progress() {
      return 0;
    },
    stateText() {
      const views = q.views.map((v) => `${v.label}: stop ${v.frame} (object turned ${v.frame * FRAME_STEP_DEG}° counter-clockwise from its front)`);
      const given = q.given.referenceView !== undefined ? ` Reference view ${VIEW_NAMES[q.given.referenceView]}, asked view ${VIEW_NAMES[q.given.targetView!]}.` : '';
      const screen = s.screen ? ` A screen stands ${((s.screen.center[2] - s.turntable.radius) * 100).toFixed(0)} cm in front of the turntable, its top ${((s.screen.center[1] + s.screen.half[1]) * 100).toFixed(0)} cm above the turntable top.` : '';
      return [
        `${QUESTION_NAMES[q.type]} question on a ${s.object.kind} (pool object ${s.object.id}, ${s.object.parts.length} parts, ${(s.object.height * 100).toFixed(0)} cm tall) on a turntable of radius ${(s.turntable.radius * 100).toFixed(0)} cm.${screen}${given}`,
        ...views,
        `Correct answer ${answerText(expected)}: ${q.reason}. Committed answer: ${world.meta.answer === null ? 'none yet' : answerText(world.meta.answer)}.`,
      ].join('\n');
    },
    async observe(ctx): Promise<ObservationImage[]> {
      const base = ctx.scene();
      const images: ObservationImage[] = [];
      for (const v of q.views) {
        const png = await ctx.renderer.render({ ...base, bodies: turned(base.bodies, v.frame) }, instance.camera.initial, { width: IMAGE_SIZE, height: IMAGE_SIZE });
        images.push({ kind: 'view', png: await composeRow([png], { labels: [v.label] }), caption: v.label });
      }
      return images;
    },
  };
}

/** The reference: commit the label the generator derived from the turntable stops. */
function reference(instance: Instance<V6Scene>): ReferenceSolution {
  const q = instance.scene.question;
  return {
    calls: [{ tool: 'answer', args: { ...q.answer } }],
    method: 'the label derived from the turntable stops (θ = 5°·min(k, 72 − k) for stops k apart), re-derived independently from the pictures\' stops by the one-right-answer filter',
  };
}

/**
 * Ids of one tier's suite: seeds 0 … 8·SUITE_PER_TYPE − 1, which hold question 0 … SUITE_PER_TYPE − 1
 * of every type (see `questionSlot`).
 */
function suiteIds(tier: Tier): string[] {
  return Array.from({ length: QUESTION_TYPES.length * SUITE_PER_TYPE }, (_, seed) => `V6-${tier}-s${seed}`);
}

/** V6 object rotation: the eight azimuth-rotation question types of the object-rotation benchmark, on turntable renders of generated furniture. */
export const v6ObjectRotation: TaskFamily<V6Scene> = {
  id: 'V6',
  version: 1,
  category: 'V',
  title: 'Object rotation',
  summary:
    'One-turn questions about an object turning on a turntable under a fixed camera: whether it turned, by how much (coarse range, against 90°, exact angle as a choice or as a number), which picture is a named view, which of two pairs turned further, and what it looks like after a stated turn. Objects are generated furniture-like assemblies screened for rotational symmetry by ray-cast views at all 72 stops; angles are θ = 5°·min(k, 72 − k); classes and answer positions are balanced over each type\'s questions.',
  tiers: {
    L1: { levers: [], description: 'The seed benchmark\'s nine reference angles (0°, 30°, 45°, 60°, 90°, 120°, 135°, 150°, 180°); view-matching candidates are exact cardinal views; post-rotation candidates at least 30° apart.' },
    L3: { levers: [], description: 'Angles on a 15° grid (13 values); exact-angle options are the true angle and 8 others drawn from the grid; post-rotation candidates at least 30° apart.' },
    L5: { levers: [], description: 'Angles on the full 5° grid (37 values); post-rotation candidates only 15° apart; view-matching candidates up to 10° off their named view.' },
    L7: { levers: ['+occ'], description: 'L5 plus a screen in front of the turntable that never turns and hides the lower 30 % of the object at the axis; objects are re-screened for symmetry on what stays visible.' },
  },
  generate,
  build,
  reference,
  shortcutFilters: V6_FILTERS,
  // Multiple choice: a blind guess is right 1/k of the time. The bound for each instance sits
  // where verify's 10 random episodes go over it with probability about 1 % or less at chance:
  // k = 2 (rotation detection): a fair coin scores 10/10 with probability 0.1 %, so 0.9; k = 3
  // or 4: 7/10 or better has probability 2 % / 0.35 %, so 0.6; k ≥ 5: 0.5; the open exact
  // angle: random numbers are never exact, so the default 0.1.
  randomSuccessBound: (instance) => {
    const k = (instance as Instance<V6Scene>).scene.question.options?.length ?? 0;
    if (k === 0) return 0.1;
    return k <= 2 ? 0.9 : k <= 4 ? 0.6 : 0.5;
  },
  certify: {},
  suites: {
    rotation: {
      description: `object-rotation questions at L1 (the seed's nine reference angles): ${SUITE_PER_TYPE} of each of the 8 types, balanced classes and answer positions`,
      instances: () => suiteIds('L1'),
    },
    'rotation-fine': {
      description: `object-rotation questions at L5 (5° grid): ${SUITE_PER_TYPE} of each of the 8 types`,
      instances: () => suiteIds('L5'),
    },
  },
};
