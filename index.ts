/**
 * `spaceact`: the library behind the `spaceact` command. Build an instance from its id, run an
 * agent through the SAPA loop against it (one episode or a whole logged run), verify instances,
 * and report on runs. Authors of task families build on `spaceact/verify` (polycube toolkit,
 * exact cover, re-draw helper) and the layout in AUTHORING.md.
 *
 * ```ts
 * import { instanceFromId, runInstances, parseMode } from 'spaceact';
 * const summary = await runInstances({ instances: ['P6-L3-s100'], agent: { name: 'reference', options: {} }, mode: parseMode('default'), out: 'runs/p6' });
 * ```
 */
export { SpaceActError, type ErrorCode } from './core/errors.ts';
export { CATEGORIES, CATEGORY_NAMES, TIERS, instanceId, parseInstanceId, type Category, type Tier } from './core/catalog.ts';
export { families, getFamily, hardestTier, instanceFromId, tiersOf } from './tasks/registry.ts';
export { solve, shapeMismatch, type SolveOptions } from './tasks/solve.ts';
export { releasedInstances, selectInstances, suiteInstances, type InstanceSelection } from './tasks/suites.ts';
export { TaskEnv, type CallResult } from './tasks/env.ts';
export type {
  FamilyDescriptor,
  FamilyEnv,
  Instance,
  ObservationImage,
  ReferenceSolution,
  RunEpisode,
  RunStatistics,
  TaskFamily,
  ToolCall,
  ToolSpec,
} from './tasks/types.ts';
export { World, type WorldOptions } from './sim/world.ts';
export { Renderer } from './render/renderer.ts';
export { runEpisode, type EpisodeOptions } from './agents/loop.ts';
export { runInstances, type RunOptions, type RunSummary, type SummaryEntry } from './agents/runner.ts';
export { AGENTS, agentFactory, type AgentOptions } from './agents/agent-registry.ts';
export { DEFAULT_MODE, modeName, parseMode, type Mode } from './agents/modes.ts';
export type { Agent, AgentReply, EpisodeOutcome, Observation } from './agents/types.ts';
export { scoreEpisode } from './agents/scoring.ts';
export { verifyInstance, verifyInstances, type VerifyResult } from './verify/verify.ts';
export { checkFixtures, writeFixtures } from './verify/fixtures.ts';
export { writeReport } from './report/html.ts';
export { compareRuns, formatComparison } from './report/compare.ts';
export { formatRunStatistics, runStatistics } from './report/run-stats.ts';
