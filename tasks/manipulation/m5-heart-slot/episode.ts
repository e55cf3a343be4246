/**
 * M5 episode: the wall with its heart openings, the heart block (with its own axis arrows under
 * `+tool`), the world-frame arrows and a green zone beyond the wall; the held-part tools; success
 * when the whole block is beyond the wall; progress along the route through the matching opening.
 */
import { composePose } from '../../../sim/math.ts';
import type { World, WorldOptions } from '../../../sim/world.ts';
import { frameArrowBodies } from '../../kits/held-part/markers.ts';
import { Route } from '../../kits/held-part/route.ts';
import { heldPartHandlers } from '../../kits/held-part/tools.ts';
import { heldPartViewParts } from '../../kits/held-part/view.ts';
import type { FamilyEnv, Instance } from '../../types.ts';
import { finishZ, match, partRadius, partShapes, routePoses, wallGeometry, WALL_TURN } from './geometry.ts';
import { ARROWS_AT, TOOL_ARROW_LENGTH, WORKSPACE, type M5Scene } from './scene.ts';
import { m5Tools } from './tools.ts';

const COLORS = { wall: '#cfc6b4', part: '#e0623a', zone: '#2ecc71' };

/** The workspace: as wide and high as the wall, in front of and behind it. */
export function worldOptions(_instance: Instance<M5Scene>): WorldOptions {
  return { workspace: { min: [...WORKSPACE.min], max: [...WORKSPACE.max] } };
}

/** Builds the wall, the block and the markers, and the tools acting on the block. */
export function build(instance: Instance<M5Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  const steel = { density: 7800, friction: 0.4, restitution: 0 };
  const geo = wallGeometry(s);
  world.addBody({ name: 'wall', kind: 'static', pose: { p: [0, 0, s.wall.z], q: [...WALL_TURN] }, shapes: geo.pieces, material: steel, visible: false, drawnAs: 'wall-surface' });
  world.addBody({ name: 'wall-surface', kind: 'static', collides: false, pose: { p: [0, 0, s.wall.z], q: [...WALL_TURN] }, shapes: [geo.mesh], color: COLORS.wall });
  const zoneDepth = finishZ(s) - WORKSPACE.min[2];
  world.addBody({
    name: 'goal-zone',
    kind: 'static',
    collides: false,
    pose: { p: [0, 0.0008, s.wall.z - s.wall.thickness / 2 - zoneDepth / 2], q: [0, 0, 0, 1] },
    shapes: [{ type: 'box', half: [(WORKSPACE.max[0] - WORKSPACE.min[0]) / 2, 0.0008, zoneDepth / 2] }],
    color: COLORS.zone,
    opacity: 0.5,
  });
  for (const b of frameArrowBodies('frame', ARROWS_AT, [0, 0, 0, 1], 0.06)) world.addBody(b);
  world.addBody({ name: 'heart', kind: 'kinematic', pose: { p: [...s.start.p], q: [...s.start.q] }, shapes: partShapes(s), material: steel, color: COLORS.part });
  // Under +tool, the block's own axes are drawn on it (arrows from its front face's centre).
  const followers: Array<{ body: string; offset: { p: [number, number, number]; q: [number, number, number, number] } }> = [];
  if (s.toolFrame) {
    const front: [number, number, number] = [0, 0, s.part.thickness / 2 + 0.002];
    for (const b of frameArrowBodies('heart-axis', front, [0, 0, 0, 1], TOOL_ARROW_LENGTH)) {
      const offset = { p: [...b.pose.p] as [number, number, number], q: [...b.pose.q] as [number, number, number, number] };
      world.addBody({ ...b, kind: 'kinematic', pose: composePose(s.start, offset) });
      followers.push({ body: b.name, offset });
    }
  }
  const tools = m5Tools(s.toolFrame);
  const handlers = heldPartHandlers(world, tools, () => (solved() ? 'the block is through' : ''), followers);
  const route = new Route(routePoses(s), { rotationWeight: partRadius(s) });
  const solved = (): boolean => world.bodyAabb('heart').max[2] < finishZ(s);
  return {
    tools: handlers,
    solved,
    viewParts: () =>
      heldPartViewParts({
        part: { name: 'heart', minPixels: 3000 },
        scenery: [
          { name: 'wall-surface', minPixels: 60000 },
          { name: 'goal-zone', minPixels: 800 },
        ],
        frameArrows: 'frame',
        partArrows: s.toolFrame ? 'heart-axis' : undefined,
      }),
    progress: () => 0.95 * route.fraction(world.getPose('heart')),
    staticsAfter: () => false,
    stateText() {
      const pose = world.getPose('heart');
      const f = (v: number[]): string => `(${v.map((x) => x.toFixed(4)).join(', ')})`;
      const m = match(s);
      return [
        `World frame, metres. Block centre ${f(pose.p)}, orientation ${f(pose.q)} (its heart in its own x–y plane, notch toward its +y, thickness along its z).`,
        `Matching opening centred at x = ${m.x}, y = ${m.y} on the wall (middle plane z = ${s.wall.z}), its heart turned ${m.turnDeg}° about +z.`,
        `Solved when the block's far side is beyond z = ${finishZ(s).toFixed(4)} (now ${world.bodyAabb('heart').max[2].toFixed(4)}).`,
      ].join('\n');
    },
  };
}
