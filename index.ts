/**
 * `spaceact`: the library behind the `spaceact` command. Build an instance from its id, run an
 * agent through the SAPA loop against it (one episode or a whole logged run), verify instances,
 * and report on runs. Authors of task families build on `spaceact/verify` (polycube toolkit,
 * exact cover, re-draw helper) and the layout in AUTHORING.md.
 *
 * ```ts
 * import { familyAndInstanceFromId, runInstances, parseMode } from 'spaceact';
 * const summary = await runInstances({ instances: ['P6-L3-s100'], agent: { name: 'reference', options: {} }, mode: parseMode('default'), out: 'runs/p6' });
 * ```
 */
export { SpaceActError, type ErrorCode } from './core/errors.ts';
export { CATEGORIES, CATEGORY_NAMES, TIERS, instanceId, parseInstanceId, type Category, type Tier } from './core/catalog.ts';
export { families, familyAndInstanceFromId, getFamily, hardestTier, instanceFromId, tiersOf } from './tasks/registry.ts';
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
export { EpisodeLog, LogDamageError, type LogContents, type LogEnd, type LogHeader, type LogTurn } from './agents/episode-log.ts';
export { verifyInstance, verifyInstances, type VerifyResult } from './verify/verify.ts';
export { checkFixtures, writeFixtures } from './verify/fixtures.ts';
export { writeReport } from './report/html.ts';
export { compareRuns, formatComparison } from './report/compare.ts';
export { formatRunStatistics, runStatistics } from './report/run-stats.ts';

// Types the functions and classes above take or return, so that a consumer can name them (and the
// API reference, `npm run docs`, documents them) without reaching into the package's inner files.
export type { AgentFactory } from './agents/agent-registry.ts';
export type { RenderWhen } from './agents/run-defaults.ts';
export type { AgentSpec, RunStop } from './agents/run-types.ts';
export type { Score, ScoreInput } from './agents/scoring.ts';
export type { EpisodeStart, HistoryEntry, PrivilegedChannel, RequestRecord, TurnRecord, Usage } from './agents/types.ts';
export type { InstanceIdParts } from './core/catalog.ts';
export type { OptionValues } from './core/options.ts';
export type { Rng } from './core/rng.ts';
export type { Cell as TableCell, Table } from './core/table.ts';
export type { CameraSpec } from './render/camera-spec.ts';
export type { ChromiumHost, ChromiumStats, ReadyPage } from './render/chromium.ts';
export type { MaskImage, MaskOptions, RenderOptions, RenderStats, RendererOptions, RollbackOptions } from './render/renderer.ts';
export type { CompareOptions, ComparePair, CompareScope, Comparison } from './report/compare.ts';
export type { ReportOptions } from './report/html.ts';
export type { FamilyRunStats, RunStatsReport } from './report/run-stats.ts';
export type { Aabb } from './sim/shapes.ts';
export type { BodyKind, BodySpec, Highlight, KeyLight, Material, Pose, Quat, RulerSpec, SceneBody, SceneDescription, ShapeSpec, Vec3, Violation, ViolationKind } from './sim/types.ts';
export type { GroupMotion, GroupSweepResult, JointMotor, JointSpec, LoadTestOptions, LoadTestResult, RampLoadOptions, RampLoadResult, SettleOptions, SnapshotParticipant, SweepOptions, SweepResult, WorldSnapshot } from './sim/world-types.ts';
export type { CallRounding } from './solvers/se3-planner/motion.ts';
export type { NarrowPassageOptions, PlanStats, RelaxOptions } from './solvers/se3-planner/planner.ts';
export type { PlannerRandom } from './solvers/se3-planner/random.ts';
export type { RotationSampling } from './solvers/se3-planner/search.ts';
export type { EndReason, EnvObservation } from './tasks/env.ts';
export type { InstanceView } from './tasks/instance-view.ts';
export type { FitTools, ShortcutTell, SightlessContext, SightlessStrategy, SightlessView, TrainingExample } from './tasks/sightless.ts';
export type { AnswerPlace, CameraConfig, JsonSchema, LeverInfo, ObserveContext, ShortestSolutions, TextVariation, TierInfo, ToolKind, ToolOutput, ViewContext, ViewDeclaration } from './tasks/types.ts';
export type { CheckedClaim } from './verify/claims.ts';
export type { FixtureReport } from './verify/fixtures.ts';
export type { FirstViolation, RandomBaselineReport, ShortcutReport, VerifyOptions } from './verify/verify.ts';
export type { ViewRequirements } from './render/view-rule.ts';
