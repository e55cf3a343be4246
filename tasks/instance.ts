import { instanceId } from '../core/catalog.ts';
import { CAMERA_TOOLS } from './camera-tools.ts';
import type { Instance, TaskFamily, Tier, ToolSpec } from './types.ts';

/** Default budgets: 100 turns, 5 actions per turn. */
export const DEFAULT_BUDGETS = { turns: 100, actionsPerTurn: 5 } as const;

/**
 * Assembles an instance from a family's generated parts, filling in the fields every
 * instance shares (id, version, category, the shared camera tools, default budgets, levers).
 */
export function makeInstance<Scene>(
  family: Pick<TaskFamily, 'id' | 'version' | 'category' | 'tiers'>,
  tier: Tier,
  seed: number,
  parts: Omit<Instance<Scene>, 'id' | 'family' | 'version' | 'tier' | 'seed' | 'category' | 'budgets' | 'tools' | 'levers'> & {
    tools: ToolSpec[];
    /**
     * The one lever of a single-factor lever study (`+tool` for `M5-L5+tool-s100`, see
     * `tasks/levers.ts`): the id names it and `levers` lists only it.
     */
    lever?: string;
    budgets?: Instance['budgets'];
    /** Leave out the shared camera tools (e.g. a one-turn question shown as fixed images). */
    noCameraTools?: boolean;
  },
): Instance<Scene> {
  const { tools, budgets, noCameraTools, lever, ...rest } = parts;
  return {
    id: instanceId(family.id, tier, seed, lever),
    family: family.id,
    version: family.version,
    tier,
    seed,
    category: family.category,
    ...rest,
    tools: noCameraTools ? tools : [...tools, ...CAMERA_TOOLS],
    budgets: budgets ?? { ...DEFAULT_BUDGETS },
    levers: lever ? [lever] : (family.tiers[tier]?.levers ?? []),
  };
}
