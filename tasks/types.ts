import type { Category, Tier } from '../core/catalog.ts';
import type { Table } from '../core/table.ts';
import type { CameraSpec } from '../render/camera-spec.ts';
import type { Renderer } from '../render/renderer.ts';
import type { ViewRequirements } from '../render/view-rule.ts';
import type { KeyLight, RulerSpec, SceneDescription } from '../sim/types.ts';
import type { World, WorldOptions } from '../sim/world.ts';
import type { DrawFilter } from '../solvers/redraw.ts';
import type { ShortcutTell, SightlessStrategy } from './sightless.ts';
import type { InstanceView } from './instance-view.ts';

// The catalog vocabulary (categories, tiers, id format) is defined once in `core/catalog.ts`;
// the two types are part of every family's contract, so they are re-exported here.
export type { Category, Tier } from '../core/catalog.ts';

/**
 * What a tool does to the world, which decides how the loop treats it:
 * `perception` never advances world time and never counts as an action; `physical` and
 * `discrete` run under the world's checks; `timed` advances world time on purpose; `final`
 * ends the episode.
 */
export type ToolKind = 'perception' | 'physical' | 'discrete' | 'timed' | 'final';

/** A JSON Schema (draft 2020-12 subset that ajv accepts). */
export type JsonSchema = Record<string, unknown>;

/** Where the right option sits among the listed ones: `index` (0-based) of `count`. */
export interface AnswerPlace {
  count: number;
  index: number;
}

/** A tool as the agent sees it: name, what it does, and its argument schema. */
export interface ToolSpec {
  name: string;
  description: string;
  kind: ToolKind;
  /** JSON Schema of the arguments object. */
  parameters: JsonSchema;
}

/** One tool call from an agent. */
export interface ToolCall {
  tool: string;
  args: Record<string, unknown>;
}

/** Camera settings of an instance: where it starts and how far the agent may move it. */
export interface CameraConfig {
  initial: CameraSpec;
  /** Elevation range the agent may orbit to, degrees. Default [-10, 90]. */
  elevationRange?: [number, number];
  /** Distance range, metres. Default [0.25×, 4×] the initial distance. */
  distanceRange?: [number, number];
  /** How far (metres) the target may be panned from the initial target. Default the initial distance. */
  panRadius?: number;
  /**
   * Pixel size `[width, height]` of every picture the agent is shown (each strobe frame, each
   * half of a rollback image). Default the renderer's square (768×768). A long, low scene (a
   * track) takes a wide frame so that it fills the picture instead of a thin band across it.
   */
  frameSize?: [number, number];
  /**
   * How a strobe strip lays out its frames: `row` side by side, oldest on the left (default),
   * or `column` stacked, oldest at the top — so that positions along a horizontal track line
   * up from frame to frame and a step can be read straight down the strip.
   */
  strobeLayout?: 'row' | 'column';
}

/**
 * One task instance: plain JSON, a pure function of (family, tier, seed), validated by
 * `tasks/instance-schema.ts`. It holds everything an agent is told and everything the
 * family needs to rebuild the world.
 */
export interface Instance<Scene = unknown> {
  /** e.g. `P6-L3-s100` */
  id: string;
  family: string;
  version: number;
  tier: Tier;
  seed: number;
  category: Category;
  title: string;
  /** Rules text shown to the agent every turn. */
  rules: string;
  /** Every tool the agent may call, family tools and shared camera tools. */
  tools: ToolSpec[];
  /**
   * Turns, calls per turn, and (optionally) actions in the whole episode: executed
   * non-perception calls, refused-by-a-check ones included. Where a small state space could
   * be searched blindly (try every move; probe with calls that are rolled back), an action
   * budget makes such probing cost what it costs a real player.
   *
   * `refusals`, when set, is how many calls may be refused (rolled back by a check) in the
   * whole episode; the one after ends it, failed. Where each refusal is a bit of feedback about
   * a small hidden state (P6: which pegs hold which disks), even a tight action budget leaves
   * room to read the state off refusals, while a player who looks needs none.
   */
  budgets: { turns: number; actionsPerTurn: number; actions?: number; refusals?: number };
  camera: CameraConfig;
  rulers: RulerSpec[];
  /** Drawn ground plane, if any. */
  ground?: { y: number; color?: string; size?: number };
  /** The key light (the one that casts shadows), when the family sets its direction (B6); default the renderer's. */
  light?: KeyLight;
  /** Moving world: observations are five strobe frames 0.25 s apart. */
  dynamic: boolean;
  /** `graded`: 0–100 tiered score; `passfail`: load-test families, success only. */
  scoring: 'graded' | 'passfail';
  /** Family-specific parameters the world is built from. */
  scene: Scene;
  /** What the diagnostic modes reveal: `plan` is a reference plan in words. */
  reveal: { plan: string };
  /** Named levers active at this tier (e.g. `+rot`). */
  levers: string[];
}

/** A shortcut filter of a family: a message when the instance has the shortcut, else null. */
export type InstanceFilter<Scene = unknown> = DrawFilter<Instance<Scene>>;

/** How a family's reference solution was obtained and what it proves. */
export interface ReferenceSolution {
  /** The calls, in order, that solve the instance through the episode loop. */
  calls: ToolCall[];
  /** Proven shortest by exhaustive search (discrete families). */
  optimal?: boolean;
  /** The family asks for a unique solution and search certified it. */
  unique?: boolean;
  /** How the solution was found, for verify reports. */
  method: string;
}

/** One image of an observation. */
export interface ObservationImage {
  /** `view` a view of the world; `strobe` five frames as one strip; `rollback` the split (or plain) rollback view. */
  kind: 'view' | 'strobe' | 'rollback';
  png: Buffer;
  caption: string;
}

/** What a family's own observation may draw with. */
export interface ObserveContext {
  renderer: Renderer;
  /** The agent's camera now. */
  camera: CameraSpec;
  /** The scene as drawn now (bodies, rulers, ground). */
  scene(): SceneDescription;
}

/**
 * One picture of the first observation and what it must show, for the view rule
 * (`tasks/view-rule.ts`, checked over every family × tier by the check-suite): the bodies the
 * rules mention with their least size in pixels, the rulers to be read, and what the tier hides
 * on purpose. Without `scene` and `camera` the picture is the one the loop draws when the family
 * has no `observe`: the instance's scene from the agent's camera, at the agent's resolution.
 * A family that draws its own pictures (`observe`) declares each of them with its scene,
 * camera and size.
 */
export interface ViewDeclaration extends ViewRequirements {
  /** Names the picture in failure messages (default `first view`). */
  label?: string;
  /** The scene as that picture draws it (default: the scene now). */
  scene?: SceneDescription;
  /** The camera of that picture (default: the agent's camera now). */
  camera?: CameraSpec;
  /** Size of that picture in pixels (default: the renderer's, i.e. the agent's resolution). */
  width?: number;
  height?: number;
}

/** What a family's view declaration is computed from: the scene as drawn now and the agent's camera. */
export interface ViewContext {
  /** The agent's camera now. */
  camera: CameraSpec;
  /** The scene as drawn now (bodies, rulers, ground). */
  scene(): SceneDescription;
}

/** Result of one tool handler: a message for the agent, plus optional structured data. */
export interface ToolOutput {
  message: string;
  /** Structured results the agent is shown with the message. */
  data?: Record<string, unknown>;
  /**
   * Measurements for the log and the report only, never shown to the agent (e.g. the pose
   * error that would give the answer away).
   */
  diagnostics?: Record<string, unknown>;
}

/**
 * The family's logic bound to one world for one episode. Tool handlers run inside
 * `World.attempt`, so they may throw `ViolationError` and everything is rolled back.
 */
export interface FamilyEnv {
  /** Handlers for the family's own tools (camera tools are shared and handled elsewhere). */
  tools: Record<string, (args: Record<string, unknown>) => ToolOutput | string>;
  /** The task's success test on the current state. */
  solved(): boolean;
  /** Progress in [0, 1] for unsolved episodes. */
  progress(): number;
  /** Exact layout and payload poses for the `state` diagnostic mode. */
  stateText(): string;
  /**
   * A reason when the task can no longer be solved (e.g. the ball hit the gate); the episode
   * then ends at once, unsolved. Checked after every call that ran.
   */
  failed?(): string | null;
  /**
   * Bodies whose statics are checked after each physical or discrete action (default: all
   * dynamic bodies). Return `false` to skip the settle check (e.g. moving worlds).
   */
  staticsAfter?(tool: string): { seconds?: number; bodies?: string[] } | false;
  /**
   * Replaces the default observation images (the current view, or the strobe strip for moving
   * worlds), e.g. a fixed panel layout or a question's set of views. The rollback view is
   * still added before these by the loop.
   */
  observe?(ctx: ObserveContext): Promise<ObservationImage[]>;
  /** Extra text appended to the observation (e.g. a read-out the task allows). */
  observationText?(): string;
  /**
   * The view rule's declaration for the first observation (see {@link ViewDeclaration}): one
   * entry per picture, naming every body the rules mention with a minimum size in pixels, the
   * rulers the rules tell the agent to read, and what this tier hides on purpose (`hidden`,
   * `hiddenRulers`). Every family declares it; the check-suite fails a family that does not.
   * Rulers default to every ruler of the scene not in `hiddenRulers`.
   */
  viewParts?(ctx: ViewContext): ViewDeclaration[];
  /** Release resources owned by the env (the world is freed by its owner). */
  free?(): void;
}

/** Per-tier description: the levers active and what they change. */
export interface TierInfo {
  levers: string[];
  description: string;
}

/**
 * One lever a family supports as a single-factor study over its L5 tier (`M5-L5+tool-s100`):
 * the L5 task with this one change. Declared with the family's settings in a
 * {@link import('./levers.ts').LeverTable}; the registry lists it (`spaceact list`) and
 * refuses an id naming a lever the family does not declare.
 */
export interface LeverInfo {
  /** What the lever changes, in a sentence (the same for every seed). */
  description: string;
}

/** One finished episode of a run, as a family's run statistics read it. */
export interface RunEpisode<Scene = unknown> {
  /** The instance, regenerated from its id by this build. */
  instance: Instance<Scene>;
  solved: boolean;
  abandoned: boolean;
  /** The calls that ran (status `ok`), in order, from the episode's log; null when the run folder has no log for it. */
  executed: ToolCall[] | null;
}

/**
 * Figures a family offers over the episodes of a run (served by `spaceact stats DIR`), e.g.
 * the per-type accuracy of a question benchmark. The command reads the run folder and hands
 * over this family's finished episodes; the family never reads files itself.
 */
export interface RunStatistics<Scene = unknown, Result = unknown> {
  /** What the figures are, in a few words (a heading). */
  title: string;
  /** The figures of these episodes (plain JSON, printed by `--json`). */
  compute(episodes: Array<RunEpisode<Scene>>): Result;
  /** The figures as text for a terminal. */
  format(result: Result): string;
  /**
   * The figures as tables for a paper (`spaceact stats DIR --format csv|md|tex|json`), the same
   * numbers as `format` prints. Optional: a family without it is listed as offering no tables.
   */
  tables?(result: Result): Table[];
}

/**
 * What a family is before any of its logic — id, version, category, title, summary and tiers.
 * Each family's `family.ts` declares it once and hands it to its generator (`makeInstance`
 * fills every instance's shared fields from it).
 */
export type FamilyDescriptor = Pick<TaskFamily, 'id' | 'version' | 'category' | 'title' | 'summary' | 'tiers'>;

/**
 * A task family: one folder under `tasks/<category>/`, registered in `tasks/registry.ts`.
 * `generate` must be pure and deterministic; ids and versions never change meaning — a
 * change in what an instance means bumps `version`.
 */
export interface TaskFamily<Scene = unknown> {
  id: string;
  version: number;
  category: Category;
  title: string;
  /** One paragraph on what the family tests. */
  summary: string;
  tiers: Partial<Record<Tier, TierInfo>>;
  /**
   * The levers this family supports as single-factor studies over L5 (`+rot`, `+occ`,
   * `+blueprint`, `+tool`, a temporal family's `+change`), each the L5 task with that one
   * change — every lever the family can apply, not only the one its L7 uses. Absent or empty:
   * no lever ids (`F-L5+x-sN` is refused, naming what is supported).
   */
  levers?: Readonly<Record<string, LeverInfo>>;
  /**
   * Tiers whose worlds are drawn from another tier's of the same seed through a memo that lives
   * in the process (P1 and P2: an L7 world is the L5 one with its lever on, and the L5 draw is
   * kept): `{ L7: 'L5' }`. A parallel or queued `verify` plays such a tier's battery in the same
   * job, after the tier it draws from, so the draws (the adaptive agents' 2,000-seed pools
   * among them) are made once rather than again in another worker. A hint for where work runs
   * only: no record depends on it.
   */
  drawsFrom?: Partial<Record<Tier, Tier>>;
  /**
   * Pure: the same (seed, tier, lever) always gives a deep-equal instance. `lever` (only with
   * tier L5, one of {@link levers}) gives the L5 instance of that seed with the lever on; the
   * registry refuses any other lever before calling.
   */
  generate(seed: number, tier: Tier, lever?: string): Instance<Scene>;
  /** World settings for this instance (time step, gravity, workspace). */
  worldOptions?(instance: Instance<Scene>): WorldOptions;
  /** Populate `world` with the instance's bodies and return the episode's family logic. */
  build(instance: Instance<Scene>, world: World): FamilyEnv | Promise<FamilyEnv>;
  /** The reference solution, found by the family's solver. */
  reference(instance: Instance<Scene>): ReferenceSolution | Promise<ReferenceSolution>;
  /**
   * Shortcut filters beyond the shared ones (null policy, random baseline): each returns a
   * message when the instance fails it.
   */
  shortcutFilters?: InstanceFilter<Scene>[];
  /**
   * The family's own sightless strategies for the shortcut battery (see `tasks/sightless.ts`),
   * run beside the shared ones (null, random, constant answer, memorised plan, blind probing).
   */
  sightless?: SightlessStrategy[];
  /**
   * The instances the generator could have drawn for this tier given what an agent reads (the
   * public view: rules, title, tools), for the battery's adaptive agent *reconstruct-then-plan*
   * (`agents/sightless/adaptive.ts`): it keeps the candidates whose simulated outcomes match
   * the calls so far and plays a survivor's reference. Optional: without it the agent samples
   * the generator over seeds the battery never judges and keeps those whose text reads alike.
   * A family whose space is enumerable (a few thousand worlds) should offer it, so that the
   * battery measures the strongest such adversary; one whose space is continuous or far too
   * large to enumerate may say so by leaving it out.
   */
  candidates?(view: InstanceView, tier: Tier): Iterable<Instance<Scene>>;
  /**
   * Superficial cues a model could read off the pictures without reasoning (see
   * `ShortcutTell`), measured by the battery over many seeds like the strategies.
   */
  tells?: ShortcutTell[];
  /**
   * The seeds the shortcut battery judges (`purpose` 'judged', `count` of them) and trains fitted
   * strategies on ('training'; `judged` is how many are judged), when plain seed numbers do not
   * serve: e.g. a family whose seed ranges are different forms of the task. Judged and training
   * seeds must not overlap. Default: judged 0 … n−1, training from 200 past them.
   */
  batterySeeds?(count: number, purpose: 'judged' | 'training', judged: number): number[];
  /**
   * For a family whose answer is one of several listed options (a letter, a tray): where the
   * right one sits, among how many — read from the scene. Checked for balance over many seeds
   * (chi-square) and over the released set and suites (as even as the counts allow); null for an
   * instance with no such choice.
   */
  answerPlace?(instance: Instance<Scene>): AnswerPlace | null;
  /**
   * Upper bound on the random baseline's success rate (default 0.1), for every instance or per
   * instance (e.g. chance plus a margin for a multiple-choice form, 0.1 for a physical one).
   */
  randomSuccessBound?: number | ((instance: Instance) => number);
  /**
   * Named instance lists this family adds to `--suite` (e.g. a benchmark's own test set).
   * Names are global: two families must not use the same one.
   */
  suites?: Record<string, { description: string; instances(): string[] }>;
  /**
   * What `spaceact verify` requires the reference solution to carry: `optimal` (proven
   * shortest by search) and/or `unique` (the only solution, certified by search). Default:
   * `{ optimal: true }` for discrete puzzle families (category P), nothing for the others.
   */
  certify?: { optimal?: boolean; unique?: boolean };
  /**
   * The seed-varying strings an instance's text may carry, each with the reason it is safe.
   * The validity contract (README "What text may say", issue 36): the rules, the title and the
   * tool descriptions of one tier are the same for every seed, except for these values (e.g.
   * the letters naming the pieces, the action budget). The text-leak check masks each value
   * `values(instance)` gives and then requires every seed of a tier to read alike; anything
   * else that varies — a length, a position, a count, the answer — fails it.
   */
  textVaries?: TextVariation<Scene>[];
  /**
   * For a family whose seeds ask different kinds of question (V6's eight question types), the
   * kind this instance asks: the text-leak check compares seeds only with seeds of the same
   * form, since the forms' questions and answer schemas differ by design. The form itself is
   * allow-listed variation and must say nothing of the answer.
   */
  textForm?(instance: Instance<Scene>): string;
  /**
   * Measurements a call's structured `data` shows by design (V5's projection IoU: the RoTA
   * protocol's feedback), by key, with the reason; the text-leak check lets these fractions
   * through and flags every other one. A blind hill-climber on such feedback belongs in the
   * battery as a strategy held to the bound.
   */
  shownMeasures?: { reason: string; keys: string[] };
  /**
   * The family's own exhaustive search, asked independently of the reference's claims: the
   * length of a shortest solution of `instance` (in actions, in the family's own metric — the
   * one its reference is optimal in) and how many distinct shortest solutions there are; null
   * when the search cannot tell (e.g. over its state limit). `spaceact verify` checks the
   * reference's `optimal` (its action count equals `length`) and `unique` (`count` is 1)
   * against it instead of copying them, and reports `count` as `shortestSolutions`.
   */
  shortestSolutions?(instance: Instance<Scene>): ShortestSolutions | null;
  /**
   * What makes a scene of this family's shape well formed beyond its shape (pieces inside their
   * tray, no two overlapping, a goal that exists): the first problem found, in one line, or null.
   * `solve(familyId, scene)` (tasks/solve.ts) runs it on a scene someone wrote by hand, after
   * checking the scene's fields and types against one the family generates.
   */
  checkScene?(scene: Scene): string | null;
  /** Figures this family offers over a run's episodes (`spaceact stats DIR`). */
  runStats?: RunStatistics<Scene, unknown>;
}

/** One allow-listed seed-varying value of an instance's text (see `TaskFamily.textVaries`). */
export interface TextVariation<Scene = unknown> {
  /** What the value is, in a few words (e.g. `action budget`). */
  what: string;
  /** Why a model learns nothing from it that it should read from the picture. */
  reason: string;
  /** The exact strings of this instance's text that carry the value. */
  values(instance: Instance<Scene>): string[];
  /**
   * Mask only a text that is exactly one of the values (an option's own description such as
   * "135°"), never the same words inside a longer text.
   */
  whole?: boolean;
  /**
   * The value is the episode's action budget: `budgets.actions`, which the prompt states every
   * turn, may vary with the seed too, for this entry's reason. Without such an entry the
   * text-leak check requires every budget to be the same for every seed of a tier.
   */
  budget?: boolean;
}


/** What a family's exhaustive search says about an instance (see `TaskFamily.shortestSolutions`). */
export interface ShortestSolutions {
  /** Actions in a shortest solution. */
  length: number;
  /** How many distinct shortest solutions (action sequences) there are. */
  count: number;
}
