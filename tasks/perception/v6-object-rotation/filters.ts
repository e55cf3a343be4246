/**
 * V6 shortcut filters, random-success bounds and sightless strategies: one right answer,
 * re-derived from the pictures' stops; no repeated pictures where the question does not ask
 * for them; the object passes the symmetry screen. See README.md for the shortcuts considered.
 */
import type { SightlessStrategy } from '../../sightless.ts';
import type { AnswerPlace, Instance, InstanceFilter, Tier } from '../../types.ts';
import {
  COARSE_TEXT,
  COMPARISON_TEXT,
  DETECTION_TEXT,
  FRAME_QUARTER,
  rotationBetween,
  THRESHOLD_TEXT,
  TIER_PLANS,
  type Question,
} from './questions.ts';
import type { V6Scene } from './scene.ts';
import { screeningCamera } from './scene.ts';
import { FRAME_STEP_DEG, FRAMES, passesScreen, symmetryProfile } from './symmetry.ts';

/** The answer re-derived from the pictures' turntable stops, or why it cannot be. */
export type DerivedAnswer = { answer: Question['answer'] } | { problem: string };

function letterOf(q: Question, text: string): DerivedAnswer {
  const hits = (q.options ?? []).filter((o) => o.text === text);
  return hits.length === 1 ? { answer: { choice: hits[0].letter } } : { problem: `${hits.length} options read "${text}"` };
}

/**
 * Works the answer out again from nothing but the stops of the pictures and what the question
 * text states (named views, a turn and its direction), independently of how the generator
 * chose it. For the picture-choice types it also checks that exactly one candidate fits.
 */
export function answerFromViews(q: Question, tier: Tier): DerivedAnswer {
  const f = q.views.map((v) => v.frame);
  switch (q.type) {
    case 'detection':
      return letterOf(q, DETECTION_TEXT[rotationBetween(f[0], f[1]) > 0 ? 0 : 1]);
    case 'coarse': {
      const t = rotationBetween(f[0], f[1]);
      return letterOf(q, COARSE_TEXT[t < 60 ? 0 : t <= 120 ? 1 : 2]);
    }
    case 'threshold': {
      const t = rotationBetween(f[0], f[1]);
      return letterOf(q, THRESHOLD_TEXT[t < 90 ? 0 : t === 90 ? 1 : 2]);
    }
    case 'exact_mcq':
      return letterOf(q, `${rotationBetween(f[0], f[1])}°`);
    case 'exact_open':
      return { answer: { angle_deg: rotationBetween(f[0], f[1]) } };
    case 'comparison': {
      const a = rotationBetween(f[0], f[1]);
      const b = rotationBetween(f[2], f[3]);
      return letterOf(q, COMPARISON_TEXT[a === b ? 0 : a > b ? 1 : 2]);
    }
    case 'view_matching': {
      const { referenceView, targetView } = q.given;
      if (referenceView === undefined || targetView === undefined) return { problem: 'the question names no views' };
      if (f[0] !== referenceView * FRAME_QUARTER) return { problem: `the reference picture is stop ${f[0]}, not the ${referenceView * 90}° view it is named` };
      const slack = Math.max(...TIER_PLANS[tier].viewJitter.map(Math.abs));
      const near = q.views.slice(1).flatMap((v, i) => (rotationBetween(v.frame, targetView * FRAME_QUARTER) <= slack ? [i] : []));
      return near.length === 1 ? { answer: { choice: q.options![near[0]].letter } } : { problem: `${near.length} candidates show the asked view` };
    }
    case 'post_rotation': {
      const { turnDeg, direction } = q.given;
      if (turnDeg === undefined || direction === undefined) return { problem: 'the question states no turn' };
      const goal = (((f[0] + (direction * turnDeg) / FRAME_STEP_DEG) % FRAMES) + FRAMES) % FRAMES;
      const hits = q.views.slice(1).flatMap((v, i) => (v.frame === goal ? [i] : []));
      return hits.length === 1 ? { answer: { choice: q.options![hits[0]].letter } } : { problem: `${hits.length} candidates show the turned object` };
    }
  }
}

/** Checks of every V6 instance (the `verify` shortcut filters; the generator's draw makes them hold). */
export const SHORTCUT_FILTERS: InstanceFilter<V6Scene>[] = [
  {
    name: 'one-right-answer',
    check(instance: Instance<V6Scene>) {
      const q = instance.scene.question;
      const d = answerFromViews(q, instance.tier);
      if ('problem' in d) return d.problem;
      return JSON.stringify(d.answer) === JSON.stringify(q.answer) ? null : `the stops give ${JSON.stringify(d.answer)}, the instance says ${JSON.stringify(q.answer)}`;
    },
  },
  {
    name: 'distinct-pictures',
    check(instance: Instance<V6Scene>) {
      const q = instance.scene.question;
      // Two-view questions repeat a stop only to ask "same orientation"; every other picture set is all different.
      const views = q.views.length > 2 ? q.views.map((v) => v.frame) : [];
      return new Set(views).size === views.length ? null : `pictures repeat a stop: ${views.join(', ')}`;
    },
  },
  {
    name: 'symmetry-screen',
    check(instance: Instance<V6Scene>) {
      const s = instance.scene;
      const profile = symmetryProfile(s.object, screeningCamera(s.object), s.screen ?? undefined);
      return passesScreen(profile) ? null : `the object looks nearly the same after a ${profile.worst.angleDeg}° turn (${(profile.worst.change * 100).toFixed(1)} % of its pixels change)`;
    },
  },
];

/**
 * Random-success bound per instance. Multiple choice: a blind guess is right 1/k of the time.
 * The bound sits where verify's 10 random episodes go over it with probability about 1 % or
 * less at chance: k = 2 (rotation detection): a fair coin scores 10/10 with probability 0.1 %,
 * so 0.9; k = 3 or 4: 7/10 or better has probability 2 % / 0.35 %, so 0.6; k ≥ 5: 0.5; the open
 * exact angle: random numbers are never exact, so the default 0.1.
 */
export function randomSuccessBound(instance: Instance): number {
  const k = (instance as Instance<V6Scene>).scene.question.options?.length ?? 0;
  if (k === 0) return 0.1;
  return k <= 2 ? 0.9 : k <= 4 ? 0.6 : 0.5;
}

/** V6's own sightless strategies for the shortcut battery. */
export const SIGHTLESS: SightlessStrategy[] = [];

/** Where the answer sits among the question's lettered options (`TaskFamily.answerPlace`); null for a free-number question. */
export function answerPlace(instance: Instance<V6Scene>): AnswerPlace | null {
  const q = instance.scene.question;
  if (!q.options) return null;
  const choice = 'choice' in q.answer ? q.answer.choice : null;
  return { count: q.options.length, index: q.options.findIndex((o) => o.letter === choice) };
}
