/**
 * M4 shortcut filters and sightless strategies.
 *
 * Filters:
 * - `straight-line-blocked`: on the straight path of the ring's centre from its start to the
 *   goal past the free end, some point (before the end) is farther from the wire than the ring's
 *   radius — the ring would be off the wire there, which the topology rule refuses.
 * - `ring-threaded`: the ring starts on the wire, clear of it.
 *
 * Sightless strategies: the held-part kit's memorised plan, straight line and blind probing, and
 * the family's own `wire-candidate-prober` (`adversary.ts`): samples the generator's wires for the
 * tier and follows the one whose predicted outcomes match every call's (issue 36).
 */
import { HELD_PART_SIGHTLESS } from '../../kits/held-part/sightless.ts';
import type { SightlessStrategy } from '../../sightless.ts';
import type { InstanceFilter } from '../../types.ts';
import { wireCandidateProber } from './adversary.ts';
import { drawScene } from './draw.ts';
import type { M4Scene } from './scene.ts';
import { distanceToWire, goalPose, linked, offWireAllowed } from './wire.ts';

/** Shortcut filters: each names a way an instance could be trivial; failing draws are re-drawn. */
export const SHORTCUT_FILTERS: InstanceFilter<M4Scene>[] = [
  {
    name: 'straight-line-blocked',
    check(inst) {
      const s = inst.scene;
      const a = s.start.p;
      const b = goalPose(s).p;
      for (let k = 1; k < 400; k++) {
        const t = k / 400;
        const p: [number, number, number] = [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
        if (!offWireAllowed(s, { p, q: s.start.q }) && distanceToWire(s, p) > s.ring.radius) return null;
      }
      return "the ring's centre could move straight to the goal staying within the ring's radius of the wire";
    },
  },
  {
    name: 'ring-threaded',
    check(inst) {
      const s = inst.scene;
      if (!linked(s, s.start)) return 'the ring does not start on the wire';
      return distanceToWire(s, s.start.p) < 1e-6 ? null : 'the ring does not start centred on the wire';
    },
  },
];

/**
 * M4's sightless strategies: the held-part kit's and the candidate-enumerating prober (drawing
 * with the generator's own scene draw; called lazily, as generate.ts imports this file).
 */
export const SIGHTLESS: SightlessStrategy[] = [...HELD_PART_SIGHTLESS, wireCandidateProber((tier, rng) => drawScene(tier, rng))];
