/**
 * M2 episode: the corridor (grey walls and floor, a see-through ceiling), the rod, the axis
 * arrows, a green pad beyond the exit; the held-part tools acting on the rod; success when the
 * whole rod is beyond the exit; progress along the route the reference follows.
 */
import type { Vec3 } from '../../../sim/types.ts';
import type { World, WorldOptions } from '../../../sim/world.ts';
import { frameArrowBodies } from '../../kits/held-part/markers.ts';
import { Route } from '../../kits/held-part/route.ts';
import { heldPartHandlers } from '../../kits/held-part/tools.ts';
import { heldPartViewParts } from '../../kits/held-part/view.ts';
import type { FamilyEnv, Instance } from '../../types.ts';
import { boxShapes, exitPlane, frameArrowPoint, goalPad, rodEnds, rodOut, rodShapes, rodTurn, routePoses, sceneBounds, shellBoxes } from './corridor.ts';
import { WALL, type M2Scene } from './scene.ts';
import { M2_TOOLS } from './tools.ts';

const COLORS = { walls: '#a7a9ac', roof: '#cfe3f0', rod: '#e39b2d', floor: '#8a8f96', pad: '#2ecc71' };

/** The workspace: the corridor's shell and the open area beyond its exit, above the floor. */
export function worldOptions(instance: Instance<M2Scene>): WorldOptions {
  const b = sceneBounds(instance.scene);
  return { workspace: { min: [b.min[0] - 0.01, 0, b.min[2] - 0.01], max: [b.max[0] + 0.01, b.max[1] + 0.05, b.max[2] + 0.01] } };
}

function mm(x: number): string {
  return `${(x * 1000).toFixed(0)} mm`;
}

/** Builds the corridor, the rod and the markers, and the tools acting on the rod. */
export function build(instance: Instance<M2Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  const c = s.corridor;
  const I: [number, number, number, number] = [0, 0, 0, 1];
  const shell = shellBoxes(c);
  const b = sceneBounds(s);
  const floorHalf: Vec3 = [(b.max[0] - b.min[0]) / 2 + 0.1, WALL / 2, (b.max[2] - b.min[2]) / 2 + 0.1];
  world.addBody({ name: 'floor', kind: 'static', pose: { p: [(b.max[0] + b.min[0]) / 2, -WALL / 2, (b.max[2] + b.min[2]) / 2], q: I }, shapes: [{ type: 'box', half: floorHalf }], color: COLORS.floor });
  world.addBody({ name: 'walls', kind: 'static', pose: { p: [0, 0, 0], q: I }, shapes: boxShapes(shell.walls), color: COLORS.walls });
  world.addBody({ name: 'ceiling', kind: 'static', pose: { p: [0, 0, 0], q: I }, shapes: boxShapes(shell.roof), color: COLORS.roof, opacity: 0.28 });
  // The green pad where the rod ends up, on the floor beyond a level exit (an upward exit,
  // L7's shaft, has none).
  const { point, out } = exitPlane(c);
  const pad = goalPad(s);
  if (pad) world.addBody({ name: 'goal-pad', kind: 'static', collides: false, pose: { p: pad.centre, q: I }, shapes: [{ type: 'box', half: pad.half }], color: COLORS.pad, opacity: 0.8 });
  // 10 cm arrows: the corridor is framed whole from high up, and a shorter +y showed as a dot.
  for (const body of frameArrowBodies('frame', frameArrowPoint(c), I, 0.1)) world.addBody(body);
  world.addBody({ name: 'rod', kind: 'kinematic', pose: { p: [...s.start.p], q: [...s.start.q] }, shapes: rodShapes(s.rod), color: COLORS.rod, material: { density: 2700, friction: 0.4, restitution: 0 } });

  const route = new Route(routePoses(s), { rotationWeight: s.rod.length / 2, turn: rodTurn });
  const solved = (): boolean => rodOut(s, world.getPose('rod'));
  return {
    tools: heldPartHandlers(world, M2_TOOLS, () => (solved() ? 'the whole rod is out of the corridor' : '')),
    solved,
    viewParts: () =>
      heldPartViewParts({
        part: { name: 'rod', minPixels: 800 },
        scenery: [
          { name: 'floor', minPixels: 20000, mayBeCut: true },
          { name: 'walls', minPixels: 15000 },
          { name: 'ceiling', minPixels: 15000 },
          // The green pad beyond a horizontal exit (an upward exit, L7's shaft, has none).
          ...(pad ? [{ name: 'goal-pad', minPixels: 1500 }] : []),
        ],
        frameArrows: 'frame',
      }),
    progress() {
      // Along the reference's route, kept below 1 for an unsolved episode.
      return 0.95 * route.fraction(world.getPose('rod'));
    },
    staticsAfter: () => false,
    stateText() {
      const pose = world.getPose('rod');
      const [e1, e2] = rodEnds(s.rod, pose);
      const f = (v: Vec3): string => `(${v.map((x) => x.toFixed(3)).join(', ')})`;
      const beyond = (e: Vec3): number => (e[0] - point[0]) * out[0] + (e[1] - point[1]) * out[1] + (e[2] - point[2]) * out[2];
      return [
        `World frame (the arrows' frame), metres. Rod midpoint ${f(pose.p)}; its ends ${f(e1)} and ${f(e2)}.`,
        `Corridor centre line: ${c.points.map(f).join(' → ')} (closed end first, open exit last); inside ${mm(c.width)} wide, ${mm(c.height)} high.`,
        `The rod's ends are ${mm(beyond(e1))} and ${mm(beyond(e2))} past the exit plane (both must be at least ${mm(s.rod.radius)}).`,
      ].join('\n');
    },
  };
}
