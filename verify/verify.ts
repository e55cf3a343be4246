import { AGENTS } from '../agents/agent-registry.ts';
import { runEpisode } from '../agents/loop.ts';
import { DEFAULT_MODE } from '../agents/modes.ts';
import { NullAgent } from '../agents/null.ts';
import { ReferenceAgent } from '../agents/reference.ts';
import type { Agent, EpisodeOutcome, TurnRecord } from '../agents/types.ts';
import { SpaceActError } from '../core/errors.ts';
import type { Renderer } from '../render/renderer.ts';
import { TaskEnv } from '../tasks/env.ts';
import { checkFirstView } from '../tasks/view-rule.ts';
import { recordPoses, type CallPoses, type PoseTrace } from './determinism.ts';
import { callTexts, episodeTextLeaks, shownMeasures, observationTexts, seedVaryingNumbers, type AgentText } from './text-leak.ts';
import { checkClaims, probeMinimality, recordCallStates, type CallStates, type CheckedClaim, type MinimalityReport } from './claims.ts';
import { assertInstance } from '../tasks/instance-schema.ts';
import { familyAndInstanceFromId } from '../tasks/registry.ts';
import { selectInstances, suiteInstances, type InstanceSelection } from '../tasks/suites.ts';
import type { Instance, ReferenceSolution, TaskFamily } from '../tasks/types.ts';

/** Random-baseline episodes per instance, unless told otherwise. */
export const DEFAULT_RANDOM_SEEDS = 10;
/** Turn budget of a random-baseline episode (the instance's own budget when smaller). */
export const DEFAULT_RANDOM_TURNS = 20;
/** Largest random-baseline success rate a family may allow, unless it sets its own. */
export const DEFAULT_RANDOM_BOUND = 0.1;

/** The first call of the reference episode that did not run cleanly. */
export interface FirstViolation {
  turn: number;
  /** 1-based position of the call within its turn. */
  call: number;
  /** 1-based position of the call in the reference script. */
  scriptCall: number;
  tool: string;
  /** `violation` (rolled back by a check) or `invalid` (refused unchanged). */
  status: 'violation' | 'invalid';
  /** The violation kind (collision, statics, topology, workspace, rule) or `invalid-call`. */
  kind: string;
  message: string;
}

/** The reference solution played through the episode loop. */
export interface ReferenceRun {
  solution: ReferenceSolution;
  /** Non-perception calls in the script (the action count a perfect episode scores against). */
  referenceActions: number;
  outcome: EpisodeOutcome;
  /** State hash after every turn, in order. */
  stateHashes: string[];
  firstViolation: FirstViolation | null;
  /** Why the run does not verify (without the instance id), or null when it does. */
  problem: string | null;
  /**
   * The minimality probe, run on the episode's own world after the script solved it (with
   * `probe`); null when not asked for or when the script did not verify.
   */
  minimality: MinimalityReport | null;
  /** Every text the episode showed after the start (observation text, call results), for the text-leak check. */
  texts: AgentText[];
  /** Every body's pose after every call (with `trace`), to name where two replays part. */
  poses: CallPoses[] | null;
}

/** Options of {@link runReference}. */
export interface ReferenceRunOptions {
  /** Play this script instead of asking the family's solver (tests, candidate scripts). */
  solution?: ReferenceSolution;
  /** Called once the world is built, before the first turn (e.g. to render the first view). */
  onStart?(env: TaskEnv): void | Promise<void>;
  /**
   * Always play the episode, even when this process already played the same script on the
   * same instance (default false; an `onStart` hook also forces a fresh episode).
   */
  fresh?: boolean;
  /**
   * Also run the minimality probe (`verify/claims.ts`) once the script has solved the task: the
   * world's state is recorded before every call, and each shortened script replays from there.
   */
  probe?: boolean;
  /** Record every body's pose after every call (`ReferenceRun.poses`). */
  trace?: boolean;
}

/**
 * Reference episodes already played in this process, by family object, instance and script.
 * Episodes are deterministic (the check-suite proves it by replaying), so a second identical
 * request — the fixtures check after the check-suite, a verify after a fixture build — reuses
 * the first run instead of simulating it again.
 */
const playedReferences = new WeakMap<TaskFamily, Map<string, ReferenceRun>>();

function nonPerceptionCount(instance: Instance, solution: ReferenceSolution): number {
  const kind = new Map(instance.tools.map((t) => [t.name, t.kind]));
  return solution.calls.filter((c) => kind.get(c.tool) !== 'perception').length;
}

/**
 * Plays the reference solution (the family's, or a given script) with `ReferenceAgent` through
 * the real episode loop without rendering, and says whether it verifies: solved, no call
 * refused or rolled back, and solved exactly at the script's last action. The episode stops
 * at the first violation or once the script is spent. An identical request later in the same
 * process returns the earlier run (see `fresh`).
 */
export async function runReference(family: TaskFamily, instance: Instance, opts: ReferenceRunOptions = {}): Promise<ReferenceRun> {
  const key = JSON.stringify([instance, opts.solution ?? 'family-reference', opts.probe === true, opts.trace === true]);
  let played = playedReferences.get(family);
  if (!played) playedReferences.set(family, (played = new Map()));
  const earlier = played.get(key);
  if (earlier && !opts.fresh && !opts.onStart) return earlier;
  const run = await playReference(family, instance, opts);
  played.set(key, run);
  return run;
}

async function playReference(family: TaskFamily, instance: Instance, opts: ReferenceRunOptions): Promise<ReferenceRun> {
  // The loop grants the reference agent this family's own solution (through the reference
  // cache), so a family object that is not the registered one plays its own solver's script.
  const agent = new ReferenceAgent(opts.solution);
  const stateHashes: string[] = [];
  let firstViolation: FirstViolation | null = null;
  let executed = 0;
  let probed: { env: TaskEnv; states: CallStates } | null = null;
  let minimality: MinimalityReport | null = null;
  let live: TaskEnv | null = null;
  let trace: PoseTrace | null = null;
  let traced: CallPoses[] | null = null;
  const texts: AgentText[] = [];
  const outcome = await runEpisode({
    family,
    instance,
    agent,
    mode: DEFAULT_MODE,
    renderer: null,
    render: 'never',
    async onStart(env) {
      live = env;
      texts.push(...(await observationTexts(env, 'start')));
      if (opts.probe) probed = { env, states: recordCallStates(env) };
      if (opts.trace) trace = recordPoses(env);
      await opts.onStart?.(env);
    },
    // Called with the world still alive once the episode ended solved (or failed): the probe
    // restores the recorded states, so it costs only the shortened tails.
    ...(opts.probe
      ? {
          onEnd: () => {
            // The probe's replays run through the same environment: the trace ends here.
            traced = (trace as PoseTrace | null)?.calls.slice() ?? null;
            const p = probed as { env: TaskEnv; states: CallStates } | null;
            if (p && firstViolation === null && agent.reference && p.env.solved()) minimality = probeMinimality(p.env, p.states, agent.reference.calls);
          },
        }
      : {}),
    async onTurn(record: TurnRecord) {
      stateHashes.push(record.stateHash);
      (trace as PoseTrace | null)?.endTurn();
      record.results.forEach((r, i) => texts.push(...callTexts(`turn ${record.turn} call ${i + 1} (${r.call.tool})`, r, shownMeasures(family))));
      if (live) texts.push(...(await observationTexts(live, `after turn ${record.turn}`)));
      record.results.forEach((r, i) => {
        if (!firstViolation && (r.status === 'violation' || r.status === 'invalid')) {
          firstViolation = {
            turn: record.turn,
            call: i + 1,
            scriptCall: executed + 1,
            tool: r.call.tool,
            status: r.status,
            kind: r.status === 'violation' ? (r.violation?.kind ?? 'violation') : 'invalid-call',
            message: r.message,
          };
        }
        if (r.status === 'ok') executed++;
      });
    },
    shouldStop: () => firstViolation !== null || (agent.reference !== null && executed >= agent.reference.calls.length),
  });
  const solution = agent.reference;
  if (!solution) throw new SpaceActError('invalid-state', `${instance.id}: the reference agent produced no solution`);
  const referenceActions = nonPerceptionCount(instance, solution);
  let problem: string | null = null;
  const fv = firstViolation as FirstViolation | null;
  if (fv) {
    problem = `reference episode: turn ${fv.turn}, call ${fv.call} (script call ${fv.scriptCall} of ${solution.calls.length}, ${fv.tool}): ${fv.kind} — ${fv.message}`;
  } else if (!outcome.solved) {
    problem =
      outcome.endReason === 'turn-budget'
        ? `reference episode: not solved within the ${instance.budgets.turns}-turn budget (${executed} of ${solution.calls.length} calls run)`
        : outcome.endReason === 'commit'
          ? `reference episode: committed after ${executed} of ${solution.calls.length} calls but the task is not solved (progress ${outcome.progress.toFixed(2)})`
          : `reference episode: all ${solution.calls.length} calls ran but the task is not solved (progress ${outcome.progress.toFixed(2)})`;
  } else if (outcome.actions !== referenceActions) {
    problem = `reference episode: solved after ${outcome.actions} of the script's ${referenceActions} actions; the script has calls it does not need`;
  }
  return { solution, referenceActions, outcome, stateHashes, firstViolation: fv, problem, minimality: problem ? null : minimality, texts, poses: traced ?? (trace as PoseTrace | null)?.calls ?? null };
}

/** The null policy's episode: it must not solve. */
export async function runNullPolicy(family: TaskFamily, instance: Instance): Promise<EpisodeOutcome> {
  return runEpisode({ family, instance, agent: new NullAgent(), mode: DEFAULT_MODE, renderer: null, render: 'never' });
}

/** The random baseline's record on one instance. */
export interface RandomBaselineReport {
  passed: boolean;
  /** Episodes run (0 when skipped). */
  seeds: number;
  /** Turn budget of each episode. */
  turns: number;
  successes: number;
  rate: number;
  bound: number;
  /** Why no episode ran (no random agent registered, or disabled). */
  skipped?: string;
}

/**
 * Runs the registered random baseline (`random` in `agents/agent-registry.ts`) with seeds
 * 0 … seeds−1, each over a reduced turn budget, and checks its success rate stays within the
 * family's bound.
 */
export async function runRandomBaseline(
  family: TaskFamily,
  instance: Instance,
  opts: { seeds?: number; turns?: number; texts?: AgentText[] } = {},
): Promise<RandomBaselineReport> {
  const seeds = opts.seeds ?? DEFAULT_RANDOM_SEEDS;
  const turns = Math.min(opts.turns ?? DEFAULT_RANDOM_TURNS, instance.budgets.turns);
  const given = family.randomSuccessBound;
  const bound = typeof given === 'function' ? given(instance) : (given ?? DEFAULT_RANDOM_BOUND);
  const base = { turns, bound, successes: 0, rate: 0 };
  const factory = Object.hasOwn(AGENTS, 'random') ? AGENTS.random : undefined;
  if (seeds === 0) return { ...base, passed: true, seeds: 0, skipped: 'disabled (--random-seeds 0)' };
  if (!factory) return { ...base, passed: true, seeds: 0, skipped: 'no agent named "random" is registered' };
  let successes = 0;
  for (let seed = 0; seed < seeds; seed++) {
    let played = 0;
    const outcome = await runEpisode({
      family,
      instance,
      agent: factory({ seed }),
      mode: DEFAULT_MODE,
      renderer: null,
      render: 'never',
      onTurn: (record) => {
        played++;
        if (opts.texts) record.results.forEach((r, i) => opts.texts!.push(...callTexts(`random seed ${seed} turn ${record.turn} call ${i + 1} (${r.call.tool})`, r, shownMeasures(family))));
      },
      shouldStop: () => played >= turns,
    });
    if (outcome.solved) successes++;
  }
  const rate = successes / seeds;
  return { passed: rate <= bound, seeds, turns, successes, rate, bound };
}

/** The shortcut filters' verdicts on one instance. */
export interface ShortcutReport {
  null: { passed: boolean; solved: boolean; endReason: EpisodeOutcome['endReason'] };
  random: RandomBaselineReport;
  /** The family's own filters, by name. */
  filters: Record<string, { passed: boolean; message: string | null }>;
}

/** The verdict on one instance. */
export interface VerifyResult {
  instance: string;
  family: string;
  tier: string;
  verified: boolean;
  /** Non-perception actions of the reference solution (null when it could not be found). */
  referenceActions: number | null;
  /** What the reference claims: proven shortest (null: no claim). Checked in `claims`. */
  optimal: boolean | null;
  /** What the reference claims: the only shortest solution (null: no claim). Checked in `claims`. */
  unique: boolean | null;
  /**
   * Each claim as claimed and as checked (by the family's search where it has one, by the
   * minimality probe everywhere): a claim the checks refute fails the instance.
   */
  claims: { optimal: CheckedClaim; unique: CheckedClaim; minimal: boolean | null; shorter: string | null } | null;
  /** The number of shortest solutions by the family's own search (null: it has none). */
  shortestSolutions: number | null;
  /** Length of a shortest solution by the family's own search, in actions (null: it has none). */
  shortestLength: number | null;
  /** How the family found its solution. */
  method: string | null;
  shortcuts: ShortcutReport | null;
  seconds: number;
  /** The first failure, naming the instance (and, for the reference episode, the first violation). */
  failure?: string;
  /** Every failure found. */
  failures?: string[];
  /** The reference episode's first refused or rolled-back call. */
  firstViolation?: FirstViolation;
  /**
   * What the text-leak check found in the text the reference and random-baseline episodes
   * showed (call results, their data, rollback captions, observation text): one line per
   * leaking text, each also a failure. Empty when none leaks.
   */
  textLeaks: string[];
  /**
   * The view rule on the first observation (`tasks/view-rule.ts`): every body the family names
   * seen whole, rulers readable, every drawn body declared. Null when no renderer was given.
   */
  viewRule: { passed: boolean; problems: string[] } | null;
}

/** Options of {@link verifyInstance}. */
export interface VerifyOptions {
  /** Random-baseline episodes (default 10; 0 skips the baseline). */
  randomSeeds?: number;
  /** Turn budget of each random-baseline episode (default 20). */
  randomTurns?: number;
  /** Use this solution instead of the family's solver (for tests: a tampered script must fail). */
  reference?(instance: Instance): ReferenceSolution | Promise<ReferenceSolution>;
  /** Measures the first view for the view rule (`verify/verify-all.ts` hands every instance one); without it the rule is not run. */
  renderer?: Renderer;
}

/** Other seeds of an instance's tier, generated once per process: what tells the seed-varying numbers of its scene apart. */
const otherSeeds = new WeakMap<TaskFamily, Map<string, Instance[]>>();
/** How many other seeds of the tier the seed-varying numbers are told from. */
export const VARYING_NUMBER_SEEDS = 6;

/** {@link VARYING_NUMBER_SEEDS} instances of `instance`'s tier with other seeds (0, 1, … skipping its own). */
export function otherSeedsOf(family: TaskFamily, instance: Instance): Instance[] {
  let byTier = otherSeeds.get(family);
  if (!byTier) otherSeeds.set(family, (byTier = new Map()));
  let list = byTier.get(instance.tier);
  if (!list) {
    list = Array.from({ length: VARYING_NUMBER_SEEDS + 1 }, (_, s) => family.generate(s, instance.tier));
    byTier.set(instance.tier, list);
  }
  return list.filter((o) => o.seed !== instance.seed).slice(0, VARYING_NUMBER_SEEDS);
}

/** What a family requires of its reference solution (see `TaskFamily.certify`). */
export function certifyRequirements(family: TaskFamily): { optimal: boolean; unique: boolean } {
  const c = family.certify ?? (family.category === 'P' ? { optimal: true } : {});
  return { optimal: c.optimal ?? false, unique: c.unique ?? false };
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Verifies one instance: schema; the reference solution played through the episode loop
 * (solved, zero violations — swept collision, statics, topology and rules — and load tests
 * held); optimality and uniqueness where the family requires them; and the shortcut filters
 * (the null policy must not solve, the random baseline must stay within its bound, and the
 * family's own filters must pass).
 */
export async function verifyInstance(family: TaskFamily, instance: Instance, opts: VerifyOptions = {}): Promise<VerifyResult> {
  const started = performance.now();
  const failures: string[] = [];
  const result: VerifyResult = {
    instance: instance.id,
    family: instance.family,
    tier: instance.tier,
    verified: false,
    referenceActions: null,
    optimal: null,
    unique: null,
    claims: null,
    shortestSolutions: null,
    shortestLength: null,
    textLeaks: [],
    viewRule: null,
    method: null,
    shortcuts: null,
    seconds: 0,
  };
  const fail = (text: string): void => {
    failures.push(`${instance.id}: ${text}`);
  };
  try {
    assertInstance(instance, instance.id);
  } catch (err) {
    fail(message(err));
  }
  let episodeTexts: Array<{ label: string; texts: AgentText[] }> = [];
  let referenceUsed: ReferenceSolution | null = null;
  if (failures.length === 0) {
    let solution: ReferenceSolution | undefined;
    try {
      if (opts.reference) solution = await opts.reference(instance);
    } catch (err) {
      fail(`reference solution: ${message(err)}`);
    }
    if (!opts.reference || solution) {
      try {
        const run = await runReference(family, instance, { ...(solution ? { solution } : {}), probe: true });
        result.referenceActions = run.referenceActions;
        // null: the solver makes no claim either way (e.g. a replayed script of a continuous task).
        result.optimal = run.solution.optimal ?? null;
        result.unique = run.solution.unique ?? null;
        result.method = run.solution.method;
        referenceUsed = run.solution;
        episodeTexts.push({ label: 'reference episode', texts: run.texts });
        if (run.firstViolation) result.firstViolation = run.firstViolation;
        if (run.problem) fail(run.problem);
        const need = certifyRequirements(family);
        if (need.optimal && !result.optimal) fail(`${family.id} requires a proven-optimal reference, but it is not (${result.method})`);
        if (need.unique && !result.unique) fail(`${family.id} requires a unique solution, but uniqueness is not certified (${result.method})`);
        if (run.minimality) {
          const claims = checkClaims(family, instance, run.solution, run.referenceActions, run.minimality);
          result.claims = { optimal: claims.optimal, unique: claims.unique, minimal: run.minimality.minimal, shorter: run.minimality.shorter };
          result.shortestSolutions = claims.search?.count ?? null;
          result.shortestLength = claims.search?.length ?? null;
          for (const p of claims.problems) fail(p);
          if (need.optimal && claims.search && claims.optimal.checked !== true) fail(`${family.id} requires an optimal reference; its own search does not confirm it (${claims.optimal.how})`);
        }
      } catch (err) {
        fail(`reference: ${message(err)}`);
      }
    }
    try {
      const nullOutcome = await runNullPolicy(family, instance);
      const randomTexts: AgentText[] = [];
      episodeTexts.push({ label: 'random baseline', texts: randomTexts });
      const random = await runRandomBaseline(family, instance, {
        texts: randomTexts,
        ...(opts.randomSeeds !== undefined ? { seeds: opts.randomSeeds } : {}),
        ...(opts.randomTurns !== undefined ? { turns: opts.randomTurns } : {}),
      });
      const filters: ShortcutReport['filters'] = {};
      for (const f of family.shortcutFilters ?? []) {
        let msg: string | null;
        try {
          msg = f.check(instance);
        } catch (err) {
          msg = `the filter threw: ${message(err)}`;
        }
        filters[f.name] = { passed: msg === null, message: msg };
        if (msg !== null) fail(`shortcut filter "${f.name}": ${msg}`);
      }
      result.shortcuts = {
        null: { passed: !nullOutcome.solved, solved: nullOutcome.solved, endReason: nullOutcome.endReason },
        random,
        filters,
      };
      if (nullOutcome.solved) fail(`shortcut: the null policy (${nullOutcome.endReason === 'commit' ? 'commit at once' : 'do nothing'}) solves it`);
      if (!random.passed) {
        fail(`shortcut: the random baseline solved ${random.successes} of ${random.seeds} episodes (${(random.rate * 100).toFixed(0)}% > bound ${(random.bound * 100).toFixed(0)}%)`);
      }
    } catch (err) {
      fail(`shortcut filters: ${message(err)}`);
    }
  }
  if (episodeTexts.length) {
    try {
      const varying = seedVaryingNumbers(instance, otherSeedsOf(family, instance), referenceUsed);
      for (const e of episodeTexts) result.textLeaks.push(...episodeTextLeaks(family, instance, e.texts, varying, e.label).map((p) => p.replace(`${instance.id} `, '')));
      // One failure per leaking place is enough to act on; the record keeps every line.
      for (const p of result.textLeaks.slice(0, 5)) fail(`text leak: ${p}`);
      if (result.textLeaks.length > 5) fail(`text leak: ${result.textLeaks.length - 5} more leaking texts (see textLeaks)`);
    } catch (err) {
      fail(`text-leak check: ${message(err)}`);
    }
  }
  episodeTexts = [];
  if (opts.renderer && failures.length === 0) {
    try {
      const env = await TaskEnv.create(family, instance);
      try {
        const v = await checkFirstView(env, opts.renderer);
        result.viewRule = { passed: v.problems.length === 0, problems: v.problems };
        for (const p of v.problems) fail(`view rule: ${p.replace(`${instance.id} `, '')}`);
      } finally {
        env.free();
      }
    } catch (err) {
      fail(`view rule: ${message(err)}`);
    }
  }
  result.verified = failures.length === 0;
  if (failures.length) {
    result.failure = failures[0];
    result.failures = failures;
  }
  result.seconds = Math.round((performance.now() - started) / 10) / 100;
  return result;
}

/**
 * The instances `spaceact verify` checks: the given ids, the released sets of the given
 * families, a suite, or (by default) the whole released set of every registered family.
 */
export function selectVerifyInstances(opts: InstanceSelection): string[] {
  return selectInstances(opts, () => suiteInstances('all'));
}

/** Verifies instances in order, reporting each as it finishes. */
export async function verifyInstances(
  ids: string[],
  opts: VerifyOptions & { onResult?(r: VerifyResult, done: number, total: number): void } = {},
): Promise<VerifyResult[]> {
  // Resolve every id first, so a typo fails before minutes of episodes.
  const resolved = ids.map((id) => ({ id, ...familyAndInstanceFromId(id) }));
  const out: VerifyResult[] = [];
  for (const { family, instance } of resolved) {
    const r = await verifyInstance(family, instance, opts);
    out.push(r);
    opts.onResult?.(r, out.length, resolved.length);
  }
  return out;
}
