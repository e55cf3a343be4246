/**
 * M3 episode: the walls with their slots, the part, the working-frame arrows and a green zone
 * beyond the last wall; the held-part tools acting on the part; success when the whole part is
 * beyond the last wall; progress along the route through the matching slots.
 */
import { yawQuat } from '../../../sim/math.ts';
import type { World, WorldOptions } from '../../../sim/world.ts';
import { frameArrowBodies } from '../../kits/held-part/markers.ts';
import { Route } from '../../kits/held-part/route.ts';
import { heldPartHandlers } from '../../kits/held-part/tools.ts';
import { heldPartViewParts } from '../../kits/held-part/view.ts';
import type { FamilyEnv, Instance } from '../../types.ts';
import { finishZ, matches, partRadius, partShapes, routePoses, wallGeometry, WALL_TURN } from './geometry.ts';
import { WORKSPACE, type M3Scene } from './scene.ts';
import { m3Tools } from './tools.ts';

const COLORS = { wall: '#cfc6b4', part: '#e39b2d', zone: '#2ecc71' };

/** The workspace: as wide and high as the walls, from in front of the first to behind the last. */
export function worldOptions(_instance: Instance<M3Scene>): WorldOptions {
  return { workspace: { min: [...WORKSPACE.min], max: [...WORKSPACE.max] } };
}

function mm(x: number): string {
  return `${(x * 1000).toFixed(1)} mm`;
}

/** Builds the walls, the part and the markers, and the tools acting on the part. */
export function build(instance: Instance<M3Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  const steel = { density: 7800, friction: 0.4, restitution: 0 };
  s.walls.forEach((w, i) => {
    const geo = wallGeometry(s, w);
    // Convex pieces collide (not drawn); the seamless mesh is drawn (does not collide).
    world.addBody({ name: `wall-${i + 1}`, kind: 'static', pose: { p: [0, 0, w.z], q: [...WALL_TURN] }, shapes: geo.pieces, material: steel, visible: false, drawnAs: `wall-${i + 1}-surface` });
    world.addBody({ name: `wall-${i + 1}-surface`, kind: 'static', collides: false, pose: { p: [0, 0, w.z], q: [...WALL_TURN] }, shapes: [geo.mesh], color: COLORS.wall, opacity: i === 0 ? 1 : 0.9 });
  });
  const last = s.walls[s.walls.length - 1];
  const zoneDepth = finishZ(s) - WORKSPACE.min[2];
  world.addBody({
    name: 'goal-zone',
    kind: 'static',
    collides: false,
    pose: { p: [0, 0.0008, last.z - s.wallThickness / 2 - zoneDepth / 2], q: [0, 0, 0, 1] },
    shapes: [{ type: 'box', half: [(WORKSPACE.max[0] - WORKSPACE.min[0]) / 2, 0.0008, zoneDepth / 2] }],
    color: COLORS.zone,
    opacity: 0.5,
  });
  const frame = yawQuat(s.frameYawDeg);
  for (const b of frameArrowBodies('frame', s.arrowsAt, frame, 0.06)) world.addBody(b);
  world.addBody({ name: 'part', kind: 'kinematic', pose: { p: [...s.start.p], q: [...s.start.q] }, shapes: partShapes(s), material: steel, color: COLORS.part });

  const tools = m3Tools(frame);
  const route = new Route(routePoses(s), { rotationWeight: partRadius(s) });
  const solved = (): boolean => world.bodyAabb('part').max[2] < finishZ(s);
  return {
    tools: heldPartHandlers(world, tools, () => (solved() ? 'the part is through' : '')),
    solved,
    viewParts: () =>
      heldPartViewParts({
        part: { name: 'part', minPixels: 2500 },
        scenery: [
          // Each wall with its openings (the far ones are seen through the first's).
          ...s.walls.map((_, i) => ({ name: `wall-${i + 1}-surface`, minPixels: i === 0 ? 50000 : 10000 })),
          { name: 'goal-zone', minPixels: 1500 },
        ],
        frameArrows: 'frame',
      }),
    progress: () => 0.95 * route.fraction(world.getPose('part')),
    staticsAfter: () => false,
    stateText() {
      const pose = world.getPose('part');
      const f = (v: number[]): string => `(${v.map((x) => x.toFixed(4)).join(', ')})`;
      return [
        `World frame, metres (the working frame is turned ${s.frameYawDeg}° about +y from it). Part centre ${f(pose.p)}, orientation ${f(pose.q)}; its length runs along its own z.`,
        ...matches(s).map((m, i) => `Wall ${i + 1} (middle plane z = ${s.walls[i].z}): matching slot centred at x = ${m.x}, y = ${m.y}, outline turned ${m.turnDeg}° about +z; the part fits it with orientation ${f(geometryFit(m.turnDeg))}.`),
        `Solved when the part's far side is beyond z = ${finishZ(s).toFixed(4)} (now ${world.bodyAabb('part').max[2].toFixed(4)}); clearance ${mm(s.clearance)}.`,
      ].join('\n');
    },
  };
}

function geometryFit(turnDeg: number): number[] {
  const h = (turnDeg * Math.PI) / 360;
  return [0, 0, Math.sin(h), Math.cos(h)];
}
