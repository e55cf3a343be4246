import type { CameraConfig, Instance, ToolSpec } from './types.ts';

/**
 * What an agent is told about an instance: its id and family, the title and rules, the tools it
 * may call, the budgets, and how far the camera may move. Never the scene, the answer, the
 * reference plan or the initial camera's coordinates — an agent learns the world from pictures
 * (and, in the `state` and `plan` diagnostic modes, from what those modes reveal each turn).
 */
export interface InstanceView {
  id: string;
  family: string;
  tier: Instance['tier'];
  title: string;
  rules: string;
  /** The tools of this episode (camera tools removed when the camera is locked). */
  tools: ToolSpec[];
  budgets: Instance['budgets'];
  /** How far the camera may orbit, zoom and pan (absent ranges take the shared defaults). */
  camera: Omit<CameraConfig, 'initial'>;
  levers: string[];
  scoring: Instance['scoring'];
  dynamic: boolean;
}

/** The public view of an instance, with the episode's tools (default: the instance's). */
export function instanceView(instance: Instance, tools: ToolSpec[] = instance.tools): InstanceView {
  const { initial: _initial, ...limits } = instance.camera;
  return {
    id: instance.id,
    family: instance.family,
    tier: instance.tier,
    title: instance.title,
    rules: instance.rules,
    tools: structuredClone(tools),
    budgets: { ...instance.budgets },
    camera: structuredClone(limits),
    levers: [...instance.levers],
    scoring: instance.scoring,
    dynamic: instance.dynamic,
  };
}
