/**
 * The SE(3) motion planner for one held body: {@link planPath} and the held-part motion model
 * its tool calls follow (shared with the families' tool handlers).
 */
export { planPath, type NarrowPassageOptions, type PlanFound, type PlanNotFound, type PlanOptions, type PlanResult, type PlanStats, type RelaxOptions, type RotationSampling } from './planner.ts';
export { axisVector, callLegs, callsBetween, edgeLegs, toolNames, type AxisArg, type HeldPartMotion, type PlannedCall } from './motion.ts';
export { PlannerRandom } from './random.ts';
