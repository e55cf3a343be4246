/**
 * M4 episode: the base, the wire, the ring and the working-frame arrows; the topology rule that
 * keeps the ring on the wire except at its free end (a predicate of the world, checked along
 * every swept motion); the held-part tools acting on the ring; success when the ring is off the
 * free end; progress along the wire.
 */
import { yawQuat } from '../../../sim/math.ts';
import type { World, WorldOptions } from '../../../sim/world.ts';
import { frameArrowBodies } from '../../kits/held-part/markers.ts';
import { Route } from '../../kits/held-part/route.ts';
import { heldPartHandlers } from '../../kits/held-part/tools.ts';
import { heldPartViewParts } from '../../kits/held-part/view.ts';
import type { FamilyEnv, Instance } from '../../types.ts';
import { ARROWS_AT, BASE_HALF, WORKSPACE, type M4Scene } from './scene.ts';
import { m4Tools } from './tools.ts';
import { crossings, freeEnd, linked, offWireAllowed, pastEnd, ringFree, ringShapes, ringTurn, routePoses, wireShapes } from './wire.ts';

const COLORS = { base: '#7d6b58', wire: '#b9bec4', ring: '#e39b2d' };

/** The workspace: a box round the wire, above the floor. */
export function worldOptions(_instance: Instance<M4Scene>): WorldOptions {
  return { workspace: { min: [...WORKSPACE.min], max: [...WORKSPACE.max] } };
}

/** The topology rule: the ring stays on the wire unless it is at or past the free end. */
export function addRingOnWire(world: World, s: M4Scene): void {
  world.addTopologyPredicate('ring-on-wire', (w) => {
    const pose = w.getPose('ring');
    if (linked(s, pose) || offWireAllowed(s, pose)) return null;
    return { kind: 'topology', bodies: ['ring', 'wire'], point: pose.p, message: "the ring would come off the wire somewhere other than its free end (it cannot pass through the wire)" };
  });
}

/** Builds the base, the wire, the ring and the markers, the topology rule, and the tools acting on the ring. */
export function build(instance: Instance<M4Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  const steel = { density: 7800, friction: 0.4, restitution: 0 };
  world.addBody({ name: 'base', kind: 'static', pose: { p: [...s.base.centre], q: [0, 0, 0, 1] }, shapes: [{ type: 'box', half: [...s.base.half] }], material: steel, color: COLORS.base });
  world.addBody({ name: 'wire', kind: 'static', pose: { p: [0, 0, 0], q: [0, 0, 0, 1] }, shapes: wireShapes(s.wire), material: steel, color: COLORS.wire });
  const frame = yawQuat(s.frameYawDeg);
  // Right of the base and behind the floor ruler: its labels lie in front of it (toward the
  // camera), where the arrows' heads sat under "10 cm" and "20 cm" (issue 32).
  for (const b of frameArrowBodies('frame', ARROWS_AT, frame, 0.05)) world.addBody(b);
  world.addBody({ name: 'ring', kind: 'kinematic', pose: { p: [...s.start.p], q: [...s.start.q] }, shapes: ringShapes(s.ring), material: steel, color: COLORS.ring });
  addRingOnWire(world, s);

  const route = new Route(routePoses(s), { rotationWeight: s.ring.radius, turn: ringTurn });
  const solved = (): boolean => ringFree(s, world.getPose('ring'));
  return {
    tools: heldPartHandlers(world, m4Tools(frame), () => (solved() ? 'the ring is off the wire' : '')),
    solved,
    viewParts: () =>
      heldPartViewParts({
        part: { name: 'ring', minPixels: 400 },
        scenery: [
          { name: 'base', minPixels: 5000 },
          { name: 'wire', minPixels: 2000 },
        ],
        frameArrows: 'frame',
      }),
    progress: () => 0.95 * route.fraction(world.getPose('ring')),
    staticsAfter: () => false,
    stateText() {
      const pose = world.getPose('ring');
      const f = (v: number[]): string => `(${v.map((x) => x.toFixed(4)).join(', ')})`;
      const end = freeEnd(s.wire);
      return [
        `World frame, metres (the working frame is turned ${s.frameYawDeg}° about +y). Ring centre ${f(pose.p)}, orientation ${f(pose.q)} (its own y axis goes through its hole).`,
        `The wire's centre line crosses the ring's disc ${crossings(s, pose)} time(s) (${linked(s, pose) ? 'on the wire' : 'off the wire'}); free end at ${f(end.point)} pointing ${f(end.out)}; the ring's centre is ${(pastEnd(s, pose) * 1000).toFixed(1)} mm past the end's plane.`,
        `Wire centre line: ${s.wire.points.length} points from ${f(s.wire.points[0])}.`,
      ].join('\n');
    },
  };
}
