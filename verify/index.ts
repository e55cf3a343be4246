/**
 * `spaceact/verify`: what task authors build on — polycube geometry and exact-cover packing
 * counts (uniqueness certificates for packing and part-to-whole families), Algorithm X, and
 * the deterministic re-draw helper for generator-side shortcut filters, the discrete-puzzle search
 * kit (breadth-first, A*, IDA*: optimal length and number of optimal solutions) and the pocket-cube
 * distance figures, the SE(3) motion planner for one held part, and the exact statics checks: the
 * brick contact-force LP (`solveStatics`) and the loose-block column verdicts (`columnFailure`). The instance verifier
 * itself (`verify/verify.ts`) pulls in the episode loop and agents, so it is imported from its
 * own module rather than from here.
 */
export * from '../solvers/polycube.ts';
export { solveExactCover, type ExactCoverOptions, type ExactCoverProblem, type ExactCoverResult } from '../solvers/exact-cover.ts';
export { generateFiltered, redrawRng, type DrawFilter, type RedrawOptions } from '../solvers/redraw.ts';
export type { InstanceFilter } from '../tasks/types.ts';
export {
  planPath,
  callLegs,
  callsBetween,
  type HeldPartMotion,
  type PlanFound,
  type PlanNotFound,
  type PlanOptions,
  type PlanResult,
  type PlannedCall,
} from '../solvers/se3-planner/index.ts';
export {
  aStar,
  breadthFirst,
  cheapestFirst,
  lexicographicCost,
  lexicographicCounts,
  goalDistances,
  idaStar,
  pocketCubeDistanceCounts,
  reachableStates,
  type IdaStarOptions,
  type PocketCubeDistanceCounts,
  type SearchOptions,
  type SearchProblem,
  type SearchResult,
  type WeightedSearchProblem,
  type WeightedSearchResult,
} from '../solvers/discrete-search/index.ts';
export {
  solveStatics,
  type StaticsBrick,
  type StaticsConnection,
  type StaticsLoad,
  type StaticsParams,
  type StaticsResult,
  type StaticsStud,
} from '../sim/brick-statics.ts';
export { columnFailure, columnReach, farthestColumn, bestColumn, type ColumnBlock, type ColumnFailure, type ChosenColumn } from '../tasks/kits/loose-blocks/column.ts';
