/**
 * V6 generator: the question a (seed, tier) asks (type and index from the seed, see
 * `questions.ts`), an object from the pool that passes the symmetry screen, the turntable
 * (and, at L7, the screen), the `answer` tool, the rules text and the plan. Memoised.
 */
import { SpaceActError } from '../../../core/errors.ts';
import { Rng } from '../../../core/rng.ts';
import { makeInstance } from '../../instance.ts';
import type { FamilyDescriptor, Instance, Tier, ToolSpec } from '../../types.ts';
import { tierSettings } from '../../levers.ts';
import { drawQuestion, QUESTION_NAMES, TIER_PLANS, V6_LEVERS, type Question, type TierPlan } from './questions.ts';
import { ELEVATION_DEG, FLOOR_COLOR, POOL_SIZE, questionCamera, screenFor, screenObject, turntableRadius, TURNTABLE_THICKNESS, type V6Scene } from './scene.ts';
import { FRAME_STEP_DEG } from './symmetry.ts';

/** Draws from the pool before giving up on finding a screened object (never reached: most candidates pass). */
const MAX_OBJECT_DRAWS = 400;
/** Questions of each type in the `rotation` suites. */

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

function rulesText(s: V6Scene, plan: TierPlan): string {
  const q = s.question;
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

/**
 * Pure: the question a (seed, tier, lever) asks, with its object, world and pictures (memoised).
 * A lever study (`V6-L5+occ-s100`) asks the L5 question of its seed with the lever's settings.
 */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<V6Scene> {
  const key = `${tier}${lever ?? ''}/${seed}`;
  let hit = cache.get(key);
  if (!hit) {
    const plan = tierSettings('V6', TIER_PLANS, tier, lever, V6_LEVERS);
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
    hit = makeInstance(family, tier, seed, {
      ...(lever ? { lever } : {}),
      title: `Object rotation: ${QUESTION_NAMES[question.type].toLowerCase()}`,
      rules: rulesText(scene, plan),
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

