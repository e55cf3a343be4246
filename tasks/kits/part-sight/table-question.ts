/**
 * What the lettered-part questions (V2, V3) share at run time: the answer tool, the episode
 * (static table scene, one committed letter, right or wrong), the reference's camera moves (a
 * cover of every cube by the views the camera tools reach), and where the answer letter goes.
 */
import type { CameraSpec } from '../../../render/camera-spec.ts';
import { SpaceActError } from '../../../core/errors.ts';
import type { World } from '../../../sim/world.ts';
import { Rng } from '../../../core/rng.ts';
import type { FamilyEnv, Instance, Tier, ToolCall, ToolSpec } from '../../types.ts';
import { checkedViews, coverViews, orbitCall, sceneSight, buildTableScene, type TableScene } from './table-scene.ts';

/** The answer tool of a lettered question: one option letter, no default (a commit naming none is refused). */
export function letterAnswerTool(letters: readonly string[], what: string): ToolSpec {
  return {
    name: 'answer',
    kind: 'final',
    description: `Commit the letter of ${what} (${letters.join(', ')}). Ends the episode; only this answer is scored.`,
    parameters: {
      type: 'object',
      properties: { option: { enum: [...letters] } },
      required: ['option'],
      additionalProperties: false,
    },
  };
}

const TIER_INDEX: Record<Tier, number> = { L1: 0, L3: 1, L5: 2, L7: 3 };

/**
 * Where the answer goes among `count` options: uniform over seeds at every tier (a draw of 0–59
 * from the seed's own stream, a multiple of every count up to 6), shifted by one place per tier
 * so the same seed puts it in different places at different tiers. Independent of everything
 * else the generator draws, and of re-draws.
 */
export function answerPosition(family: string, seed: number, tier: Tier, count: number): number {
  const u = Rng.forInstance(family, 'any', seed, 'answer-position').int(0, 59);
  return (u + TIER_INDEX[tier]) % count;
}

/** Builds the table scene and the `answer` tool; `solved` when the committed letter is `answer`. */
export function buildLetterQuestion(instance: Instance<TableScene & { answer: string }>, world: World, state: () => string): FamilyEnv {
  const s = instance.scene;
  buildTableScene(world, s);
  world.meta.answer = null;
  const letters = s.parts.map((p) => p.letter).filter((l) => l !== 'R');
  return {
    tools: {
      answer(args) {
        const v = String(args.option);
        if (!letters.includes(v)) throw new SpaceActError('invalid-argument', `option must be one of ${letters.join(', ')}`, { field: 'option' });
        world.meta.answer = v;
        return `answered ${v}`;
      },
    },
    solved: () => world.meta.answer === s.answer,
    // Right or wrong: partial credit for a wrong letter would pay guessing.
    progress: () => 0,
    stateText: state,
  };
}

/** The reference's calls: camera moves through views that together show every cube clearly, then the answer. */
export function coverThenAnswer(instance: Instance<TableScene & { answer: string }>): { calls: ToolCall[]; views: CameraSpec[] } {
  const s = instance.scene;
  const first = instance.camera.initial;
  const views = coverViews(sceneSight(s), first, checkedViews(first, instance.camera.elevationRange ?? [0, 90]));
  const calls: ToolCall[] = [];
  let at = first;
  for (const v of views) {
    calls.push(orbitCall(at, v));
    at = v;
  }
  calls.push({ tool: 'answer', args: { option: s.answer } });
  return { calls, views };
}

/** A camera move in words, for plans. */
export function describeMove(from: CameraSpec, to: CameraSpec): string {
  const call = orbitCall(from, to);
  const da = call.args.azimuth_deg as number;
  const parts: string[] = [];
  if (da) parts.push(`orbit ${Math.abs(da)}° ${da > 0 ? 'counter-clockwise' : 'clockwise'} (seen from above)`);
  if (to.elevation !== from.elevation) parts.push(`${to.elevation > from.elevation ? 'raise' : 'lower'} the camera to ${to.elevation}°`);
  return parts.join(' and ') || 'stay';
}
