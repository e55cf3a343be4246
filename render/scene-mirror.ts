import { createHash } from 'node:crypto';
import type { SceneDescription } from '../sim/types.ts';
import type { BodyGeometry, Environment, PoseRow, SceneUpdate } from './page/protocol.ts';
import { DEFAULT_BACKGROUND, DEFAULT_GROUND_COLOR } from './scene-check.ts';

interface MirroredBody {
  key: string;
  pose: PoseRow;
  visible: boolean;
}

interface MirrorState {
  generation: number;
  bodies: Map<string, MirroredBody>;
  order: string;
  rulers: string;
  environment: string;
}

/** Hash of what a body's drawable is built from: its shapes, drawn-only shapes, colour and opacity. */
export function bodyKey(shapes: unknown, color: string, opacity: number, visual?: unknown): string {
  return createHash('sha1').update(JSON.stringify(visual === undefined ? [shapes, color, opacity] : [shapes, color, opacity, visual])).digest('base64url');
}

const samePose = (a: PoseRow, b: PoseRow): boolean => a.every((x, i) => x === b[i]);

/**
 * Node's record of what the page holds, so each frame sends only differences. A difference is
 * computed against the committed state and committed only after the page has applied it; any
 * failure (or a browser relaunch, seen as a new generation) makes the next frame a full reset.
 */
export class SceneMirror {
  private state: MirrorState | null = null;

  /** Forget the page's state: the next update is a full reset. */
  invalidate(): void {
    this.state = null;
  }

  /** The update that brings a page of `generation` to `scene`, and a function to call once it is applied. */
  diff(scene: SceneDescription, generation: number): { update: SceneUpdate; commit: () => void } {
    const prev = this.state && this.state.generation === generation ? this.state : null;
    const update: SceneUpdate = {};
    if (!prev) update.reset = true;
    const bodies = new Map<string, MirroredBody>();
    const add: BodyGeometry[] = [];
    const poses: PoseRow[] = [];
    const visible: [string, boolean][] = [];
    for (const b of scene.bodies) {
      const key = bodyKey(b.shapes, b.color, b.opacity, b.visual);
      const pose: PoseRow = [b.name, b.pose.p[0], b.pose.p[1], b.pose.p[2], b.pose.q[0], b.pose.q[1], b.pose.q[2], b.pose.q[3]];
      const old = prev?.bodies.get(b.name);
      const fresh = !old || old.key !== key;
      if (fresh) add.push({ name: b.name, key, shapes: b.shapes, ...(b.visual ? { visual: b.visual } : {}), color: b.color, opacity: b.opacity });
      if (fresh || !samePose(old.pose, pose)) poses.push(pose);
      if (fresh ? !b.visible : old.visible !== b.visible) visible.push([b.name, b.visible]);
      bodies.set(b.name, { key, pose, visible: b.visible });
    }
    const remove = prev ? [...prev.bodies.keys()].filter((n) => !bodies.has(n)) : [];
    const order = scene.bodies.map((b) => b.name);
    const orderKey = JSON.stringify(order);
    const rulersKey = JSON.stringify(scene.rulers);
    const environment: Environment = {
      background: scene.background ?? DEFAULT_BACKGROUND,
      ground: scene.ground ? { y: scene.ground.y, color: scene.ground.color ?? DEFAULT_GROUND_COLOR, size: scene.ground.size } : null,
      light: scene.light ?? null,
    };
    const environmentKey = JSON.stringify(environment);
    if (add.length) update.add = add;
    if (remove.length) update.remove = remove;
    if (poses.length) update.poses = poses;
    if (visible.length) update.visible = visible;
    if (!prev || prev.order !== orderKey || add.length) update.order = order;
    if (!prev || prev.rulers !== rulersKey) update.rulers = scene.rulers;
    if (!prev || prev.environment !== environmentKey) update.environment = environment;
    const next: MirrorState = { generation, bodies, order: orderKey, rulers: rulersKey, environment: environmentKey };
    return {
      update,
      commit: () => {
        this.state = next;
      },
    };
  }
}
