/**
 * V6 episode: the turntable, the object (at stop 0) and the L7 screen as static bodies, and the
 * one `answer` call; the observation is the family's own set of labelled pictures at the
 * question's turntable stops.
 */
import { SpaceActError } from '../../../core/errors.ts';
import { composeRow } from '../../../render/compose.ts';
import { qmul, qrotate, yawQuat } from '../../../sim/math.ts';
import type { SceneBody } from '../../../sim/types.ts';
import type { World } from '../../../sim/world.ts';
import type { FamilyEnv, Instance, ObservationImage, ViewDeclaration } from '../../types.ts';
import type { ObjectPart } from './objects.ts';
import { QUESTION_NAMES, VIEW_NAMES } from './questions.ts';
import { IMAGE_SIZE, SCREEN_COLOR, TURNTABLE_COLOR, type V6Scene } from './scene.ts';
import { FRAME_STEP_DEG } from './symmetry.ts';

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
export function build(instance: Instance<V6Scene>, world: World): FamilyEnv {
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
    viewParts(ctx): ViewDeclaration[] {
      const base = ctx.scene();
      const objects = base.bodies.filter((b) => b.name.startsWith(OBJECT_PREFIX)).map((b) => b.name);
      // Each picture of the question shows the object whole (its colour bodies counted as one
      // part: a turntable view hides the back of an object, never all of it) and the turntable,
      // none cut by the frame. At +occ the screen is in sight, hides the turntable and the lower
      // part of the object on purpose, and the object may run off the bottom behind it, never
      // off the top or the sides.
      return q.views.map((v) => ({
        label: v.label,
        scene: { ...base, bodies: turned(base.bodies, v.frame) },
        camera: instance.camera.initial,
        width: IMAGE_SIZE,
        height: IMAGE_SIZE,
        bodies: [
          { name: 'turntable', minPixels: 6000 },
          { name: 'object', group: objects, minPixels: 20000, mayBeCut: s.screen ? ['bottom'] : false },
          ...(s.screen ? [{ name: 'screen', minPixels: 3000, mayBeCut: true }] : []),
        ],
        hidden: s.screen ? ['turntable'] : [],
        hiddenBecause: '+occ (L7): a screen in front of the turntable hides it and the lower part of the object',
        // The turntable, as the tier text says (the object's lower part is its own body's share).
        hiddenAtMost: 1,
      }));
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
