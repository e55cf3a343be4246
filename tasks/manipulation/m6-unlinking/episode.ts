/**
 * M6 episode: the frame, the hook (with its own axis arrows under `+tool`), the world-frame arrows;
 * the held-part tools acting on the hook; success when the pieces' bounding boxes are apart;
 * progress by the hook's separation along the escape route.
 */
import { composePose } from '../../../sim/math.ts';
import type { World, WorldOptions } from '../../../sim/world.ts';
import { frameArrowBodies } from '../../kits/held-part/markers.ts';
import { Route } from '../../kits/held-part/route.ts';
import { heldPartHandlers } from '../../kits/held-part/tools.ts';
import { heldPartViewParts } from '../../kits/held-part/view.ts';
import type { FamilyEnv, Instance } from '../../types.ts';
import { frameShapes, hookShapes, routePoses, separated } from './pieces.ts';
import { WORKSPACE, type M6Scene } from './scene.ts';
import { m6Tools } from './tools.ts';

const COLORS = { frame: '#8d99a6', hook: '#e39b2d' };

/** The workspace: a box round the frame. */
export function worldOptions(_instance: Instance<M6Scene>): WorldOptions {
  return { workspace: { min: [...WORKSPACE.min], max: [...WORKSPACE.max] } };
}

/** Builds the frame, the hook and the markers, and the tools acting on the hook. */
export function build(instance: Instance<M6Scene>, world: World): FamilyEnv {
  const s = instance.scene;
  const steel = { density: 7800, friction: 0.4, restitution: 0 };
  world.addBody({ name: 'frame', kind: 'static', pose: { p: [0, 0, 0], q: [0, 0, 0, 1] }, shapes: frameShapes(s.frame), material: steel, color: COLORS.frame });
  for (const b of frameArrowBodies('axes', [s.frame.width / 2 + s.frame.bar + 0.005, s.frame.baseHeight + 0.002, 0.03], [0, 0, 0, 1], 0.04)) world.addBody(b);
  world.addBody({ name: 'hook', kind: 'kinematic', pose: { p: [...s.start.p], q: [...s.start.q] }, shapes: hookShapes(s.hook), material: steel, color: COLORS.hook });
  const followers: Array<{ body: string; offset: { p: [number, number, number]; q: [number, number, number, number] } }> = [];
  if (s.toolFrame) {
    // The hook's own axes, drawn from the middle of its top bar.
    const at: [number, number, number] = [0, s.hook.height / 2 + 0.002, 0];
    for (const b of frameArrowBodies('hook-axis', at, [0, 0, 0, 1], 0.03)) {
      const offset = { p: [...b.pose.p] as [number, number, number], q: [...b.pose.q] as [number, number, number, number] };
      world.addBody({ ...b, kind: 'kinematic', pose: composePose(s.start, offset) });
      followers.push({ body: b.name, offset });
    }
  }
  const route = new Route(routePoses(s), { rotationWeight: Math.hypot(s.hook.length, s.hook.height) / 2 });
  const solved = (): boolean => separated(world.bodyAabb('hook'), world.bodyAabb('frame'));
  return {
    tools: heldPartHandlers(world, m6Tools(s.toolFrame), () => (solved() ? 'the hook is free of the frame' : ''), followers),
    solved,
    viewParts: () =>
      heldPartViewParts({
        part: { name: 'hook', minPixels: 3000 },
        scenery: [{ name: 'frame', minPixels: 30000 }],
        frameArrows: 'axes',
        partArrows: s.toolFrame ? 'hook-axis' : undefined,
      }),
    progress: () => 0.95 * route.fraction(world.getPose('hook')),
    staticsAfter: () => false,
    stateText() {
      const pose = world.getPose('hook');
      const f = (v: number[]): string => `(${v.map((x) => x.toFixed(4)).join(', ')})`;
      return [
        `World frame, metres. Hook centre ${f(pose.p)}, orientation ${f(pose.q)} (its loop in its own y–z plane).`,
        `The slot runs at ${s.hook.slotAngleDeg}° from the hook's own x axis, ${(s.hook.slotOffset * 1000).toFixed(1)} mm along its z from the middle; it lines up with the top bar when the hook is turned ${s.hook.slotAngleDeg}° about +y.`,
        `Top bar: along x at height ${s.frame.topY}, z = 0.`,
      ].join('\n');
    },
  };
}
