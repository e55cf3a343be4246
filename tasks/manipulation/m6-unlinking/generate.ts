/**
 * M6 generator: a pure function of (family, tier, seed). It cuts the hook's slot (slanted from L3,
 * off-centre from L5) for the tier's clearance and hangs the hook on the frame's top bar, turned
 * 45–60° away from the orientation that lines the slot up. Every random choice comes from
 * `redrawRng`.
 */
import { roundTo } from '../../../core/determinism.ts';
import type { Rng } from '../../../core/rng.ts';
import { qaxisAngle } from '../../../sim/math.ts';
import type { RulerSpec } from '../../../sim/types.ts';
import { generateFiltered, redrawRng } from '../../../solvers/redraw.ts';
import { heldPartToolSpecs } from '../../kits/held-part/tools.ts';
import { makeInstance } from '../../instance.ts';
import { tierSettings } from '../../levers.ts';
import type { FamilyDescriptor, Instance, Tier } from '../../types.ts';
import { tidyQuat } from '../m1-chiral-peg/scene.ts';
import { drawScene } from './draw.ts';
import { SHORTCUT_FILTERS } from './filters.ts';
import { M6_LEVERS, SIZES, TIERS, type M6Scene, type M6TierSettings } from './scene.ts';
import { m6Tools } from './tools.ts';

/**
 * The rules: what the task is, never how this seed was drawn. Sizes, the slot's slant and place
 * and the hook's start pose are read from the picture and its rulers; nothing here varies with
 * the seed within a tier.
 */
function rulesText(s: M6Scene, t: M6TierSettings): string {
  return [
    "A fixed frame stands on the floor: a base, two posts and a square top bar. You hold a hook (the orange loop of four bars) hanging linked round the frame's top bar.",
    `The hook's bottom bar is a plate with a slot cut through it, a little wider than the frame's bar, slanted across the plate${t.slotOffset[0] > 0 ? ' and not at its middle' : ''}. It is the only way out: the top bar can leave the hook only through it, along it.`,
    'Goal: separate the hook from the frame, until their bounding boxes are apart. The episode ends as soon as they are.',
    "Frame: the red, green and blue arrows on the base show the world's +x (along the top bar), +y (up) and +z (toward you in the first view); translate uses them." +
      (s.toolFrame ? " rotate and move turn about the hook's OWN axes, shown by the small red, green and blue arrows fixed to it, which turn with it." : ' rotate and move turn about axes parallel to them.'),
    "Measuring: a ruler runs along the front of the base and another up the left post, with ticks every 10 mm and labels every 100 mm; read the slot's slant and place and the hook's pose from the picture.",
    "Tools: translate(dx_m, dy_m, dz_m) moves the hook in a straight line; rotate(axis, angle_deg) turns it about the centre of its loop; move(…) does both at once. All are relative to where the hook is now.",
    'Every motion is swept along its whole path. If the hook would touch the frame, or leave the workspace, the motion is stopped and rolled back and the rest of that turn is not run.',
    `Budget: ${t.actions} actions in all (every translate, rotate or move counts, refused and rolled-back ones included; looking around with the camera does not); the episode ends when they are spent.`,
  ].join('\n');
}

function draw(family: FamilyDescriptor, seed: number, tier: Tier, lever: string | undefined, attempt: number): Instance<M6Scene> {
  const t = tierSettings('M6', TIERS, tier, lever, M6_LEVERS);
  // A lever study draws from its tier's stream: the seed's L5 world, with the lever on.
  const scene = drawScene(tier, redrawRng('M6', tier, seed, attempt), t);
  const w = scene.frame.width / 2 + scene.frame.bar;
  const rulers: RulerSpec[] = [
    { from: [-w - 0.03, scene.frame.baseHeight + 0.001, 0.05], to: [w + 0.03, scene.frame.baseHeight + 0.001, 0.05], tickDir: [0, 0, 1], minor: 0.01, major: 0.1 },
    { from: [-w - 0.002, scene.frame.baseHeight, scene.frame.bar / 2 + 0.001], to: [-w - 0.002, scene.frame.topY + 0.1, scene.frame.bar / 2 + 0.001], tickDir: [-1, 0, 0], minor: 0.01, major: 0.1 },
  ];
  return makeInstance(family, tier, seed, {
    ...(lever ? { lever } : {}),
    title: 'Unlinking',
    rules: rulesText(scene, t),
    tools: heldPartToolSpecs(m6Tools(scene.toolFrame)),
    camera: { initial: { azimuth: 30, elevation: 28, distance: 0.62, target: [0, 0.15, 0] }, elevationRange: [-10, 90] },
    rulers,
    ground: { y: 0, color: '#6f7782' },
    // The way out is two or three moves once the slot is read (README "Budget").
    budgets: { turns: 40, actionsPerTurn: 5, actions: t.actions },
    dynamic: false,
    scoring: 'graded',
    scene,
    reveal: {
      plan: `Turn the hook about the vertical until the slot in its bottom bar runs along the frame's top bar (about ${Math.abs(scene.hook.slotAngleDeg).toFixed(0)}° from square across the bottom bar); move it along z until the slot is right under the top bar; lift it straight up through the slot, and on up clear of the frame.`,
    },
  });
}

/** The instance of (seed, tier, lever): drawn until every shortcut filter passes. */
export function generate(family: FamilyDescriptor, seed: number, tier: Tier, lever?: string): Instance<M6Scene> {
  return generateFiltered((attempt) => draw(family, seed, tier, lever, attempt), SHORTCUT_FILTERS);
}
