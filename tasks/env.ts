import type { CameraSpec } from '../render/camera-spec.ts';
import { SpaceActError } from '../core/errors.ts';
import { ViolationError } from '../sim/violation.ts';
import type { Pose, SceneBody, SceneDescription, Violation } from '../sim/types.ts';
import { World } from '../sim/world.ts';
import { applyCameraTool, CAMERA_TOOL_NAMES } from './camera-tools.ts';
import { toolCallProblems } from './instance-schema.ts';
import type { Renderer } from '../render/renderer.ts';
import { narrowToContact, rollbackCaption, rollbackHighlight, rollbackTitle } from '../render/rollback-text.ts';
import { STROBE_FRAMES, STROBE_SPACING_S, strobeLabel } from '../render/strobe.ts';
import { instanceView, type InstanceView } from './instance-view.ts';
import type { FamilyEnv, Instance, ObservationImage, TaskFamily, ToolCall, ToolKind, ToolOutput, ToolSpec, ViewDeclaration } from './types.ts';

/** What happened to one tool call. */
export interface CallResult {
  call: ToolCall;
  /** `ok` ran; `violation` ran, hit a check and was rolled back; `invalid` was refused unchanged; `not-run` was dropped. */
  status: 'ok' | 'violation' | 'invalid' | 'not-run';
  kind?: ToolKind;
  message: string;
  violation?: Violation;
  /** World time before and after the call, seconds. */
  timeBefore: number;
  timeAfter: number;
  data?: Record<string, unknown>;
  /** Logged, never shown to the agent (see `ToolOutput.diagnostics`). */
  diagnostics?: Record<string, unknown>;
}

/** The state left by the last violation, for the rollback image. */
export interface RollbackView {
  violation: Violation;
  violating: SceneDescription;
  restored: SceneDescription;
}

/** Poses of the moving bodies after one internal step. */
interface PoseSample {
  time: number;
  poses: Record<string, Pose>;
}

/** What the environment shows at the start of a turn (the loop adds the turn count, history and note). */
export interface EnvObservation {
  /** The images, or none when they were not asked for (blind mode, an agent that never looks). */
  images: ObservationImage[];
  /** World time now, seconds. */
  worldTime: number;
  /** The reference plan in words (`plan` and `state` modes). */
  plan?: string;
  /** Exact layout and payload poses (`state` mode). */
  state?: string;
  /** A short read-out the family allows every agent (e.g. the supply left). */
  extraText?: string;
}

/** How the episode ended, when it has: solved, committed, or failed for good. */
export type EndReason = 'solved' | 'commit' | 'failed' | null;

/**
 * One episode's environment: the world, the family's logic, the camera, and the rules that
 * every family shares — argument validation, camera tools that cost no time, actions run
 * under rollback, statics after each action, strobe sampling for moving worlds.
 *
 * Family state must live in `world.meta` or be derived from body poses, so one world
 * snapshot rolls back everything and one hash covers it.
 */
export class TaskEnv {
  readonly instance: Instance;
  readonly family: TaskFamily;
  readonly world: World;
  private readonly familyEnv: FamilyEnv;
  /** The tools the agent may call in this episode (camera tools removed when the camera is locked). */
  readonly tools: ToolSpec[];
  /** What an agent is told about the instance: never the scene, the answer or the plan. */
  readonly view: InstanceView;
  camera: CameraSpec;
  /** Set once the episode has terminated. */
  endReason: EndReason = null;
  /**
   * Calls refused (rolled back) so far, for `budgets.refusals`. Kept outside the world, since a
   * rollback restores the world's snapshot and must not undo its own count.
   */
  refusals = 0;
  /** The last violation's rollback view, until the next observation consumes it. */
  private lastRollback: RollbackView | null = null;
  /** Poses of moving bodies at every step of the last strobe span (about one second). */
  private strobe: PoseSample[] = [];
  private movingBodies: string[] = [];
  private removeStepListener: (() => void) | null = null;
  /**
   * False for a world no one will draw (an adaptive agent's candidate worlds): no strobe poses
   * are recorded and a refused call keeps no rollback scenes, which were about a fifth of a
   * refused call's cost. Outcomes, messages and state hashes are the same either way.
   */
  readonly drawsImages: boolean;

  private constructor(instance: Instance, family: TaskFamily, world: World, familyEnv: FamilyEnv, lockCamera: boolean, drawsImages: boolean) {
    this.instance = instance;
    this.family = family;
    this.world = world;
    this.familyEnv = familyEnv;
    this.camera = structuredClone(instance.camera.initial);
    this.tools = lockCamera ? instance.tools.filter((t) => t.kind !== 'perception') : instance.tools;
    this.view = instanceView(instance, this.tools);
    this.drawsImages = drawsImages;
  }

  /** World time now, seconds. */
  get time(): number {
    return this.world.time;
  }

  /**
   * Builds the world for `instance`. Moving worlds are run for one second first so the first
   * observation already has five strobe frames.
   *
   * `images: false` opens a world that is never observed with images (see {@link drawsImages});
   * asking it for images is an `invalid-state` error.
   */
  static async create(family: TaskFamily, instance: Instance, opts: { lockCamera?: boolean; images?: boolean } = {}): Promise<TaskEnv> {
    if (family.id !== instance.family) {
      throw new SpaceActError('invalid-instance', `instance ${instance.id} belongs to ${instance.family}, not ${family.id}`);
    }
    if (family.version !== instance.version) {
      throw new SpaceActError(
        'invalid-instance',
        `instance ${instance.id} was made by ${instance.family} version ${instance.version}; this build has version ${family.version}`,
      );
    }
    const world = await World.create(family.worldOptions?.(instance));
    let familyEnv: FamilyEnv;
    try {
      familyEnv = await family.build(instance, world);
    } catch (err) {
      world.free();
      throw err;
    }
    const env = new TaskEnv(instance, family, world, familyEnv, opts.lockCamera ?? false, opts.images ?? true);
    if (instance.dynamic) env.startStrobe();
    return env;
  }

  private startStrobe(): void {
    const w = this.world;
    this.movingBodies = w.bodyNames().filter((n) => w.bodySpec(n).kind !== 'static');
    const span = STROBE_SPACING_S * (STROBE_FRAMES - 1);
    const record = (): void => {
      const poses: Record<string, Pose> = {};
      for (const n of this.movingBodies) if (w.hasBody(n)) poses[n] = w.getPose(n);
      this.strobe.push({ time: w.time, poses });
      // Keep just over one strobe span; a frame is never older than that.
      const oldest = w.time - span - w.timestep;
      let drop = 0;
      while (drop < this.strobe.length - 1 && this.strobe[drop].time < oldest) drop++;
      if (drop) this.strobe.splice(0, drop);
    };
    if (this.drawsImages) {
      record();
      this.removeStepListener = w.addStepListener(record);
    }
    // The world runs its first second either way, so its state does not depend on drawing.
    w.advance(span);
  }

  /** The scene as the renderer draws it now. */
  scene(bodies: SceneBody[] = this.world.describe()): SceneDescription {
    const s: SceneDescription = { bodies, rulers: this.instance.rulers };
    if (this.instance.ground) s.ground = this.instance.ground;
    if (this.instance.light) s.light = this.instance.light;
    return s;
  }

  /**
   * Five frames 0.25 s of world time apart, the newest taken now, oldest first, with their
   * labels and world times. Frames always end at the current time (there is no separate
   * camera clock): after any wait the last frame shows the world as it is when the agent acts.
   * Each label gives the frame's true age and world time, measured from the recorded step it
   * shows ("0.25 s ago · t = 1.35 s", "now · t = 1.60 s"), so a world whose step does not
   * divide 0.25 s is labelled with the ages it really shows. Bodies that did not exist when
   * the episode began are drawn where they are now.
   */
  strobeScenes(): { scenes: SceneDescription[]; labels: string[]; times: number[] } {
    if (!this.drawsImages) throw new SpaceActError('invalid-state', 'this environment was opened with images: false and records no strobe frames');
    const now = this.world.time;
    const base = this.world.describe();
    const scenes: SceneDescription[] = [];
    const labels: string[] = [];
    const times: number[] = [];
    for (let k = STROBE_FRAMES - 1; k >= 0; k--) {
      const t = now - k * STROBE_SPACING_S;
      let best = this.strobe[this.strobe.length - 1];
      for (const s of this.strobe) if (Math.abs(s.time - t) < Math.abs(best.time - t)) best = s;
      scenes.push(this.scene(base.map((b) => (best.poses[b.name] ? { ...b, pose: best.poses[b.name] } : b))));
      times.push(best.time);
      labels.push(strobeLabel(now - best.time, best.time));
    }
    return { scenes, labels, times };
  }

  /** Pixel size of the pictures this episode's camera takes (the instance's frame, else the renderer's). */
  frameSize(renderer: Renderer): { width: number; height: number } {
    const f = this.instance.camera.frameSize;
    return f ? { width: f[0], height: f[1] } : { width: renderer.width, height: renderer.height };
  }

  /** The strobe strip the agent is shown now: {@link strobeScenes} drawn in the instance's frame size and layout. */
  async strobeStrip(renderer: Renderer): Promise<ObservationImage> {
    const { scenes, labels } = this.strobeScenes();
    const layout = this.instance.camera.strobeLayout ?? 'row';
    const { strip } = await renderer.strobe(scenes, this.camera, labels, { ...this.frameSize(renderer), layout });
    const order = layout === 'column' ? 'stacked oldest at the top' : 'oldest on the left';
    return { kind: 'strobe', png: strip, caption: `Five frames ${STROBE_SPACING_S} s of world time apart from one viewpoint, ${order}; the last one shows the world now.` };
  }

  /**
   * The violation as a picture can mark it: each undrawn body that names its drawn twin
   * (`BodySpec.drawnAs`, e.g. a wall's convex collider and its seamless drawn mesh) replaced by
   * that twin, once. The log keeps the engine's own record.
   */
  private drawnViolation(v: Violation): Violation {
    const twin = (n: string): string => (this.world.hasBody(n) ? this.world.bodySpec(n).drawnAs : undefined) ?? n;
    const bodies = [...new Set(v.bodies.map(twin))];
    const target = v.target?.body !== undefined ? { ...v.target, body: twin(v.target.body) } : v.target;
    return { ...v, bodies, ...(target ? { target } : {}) };
  }

  /**
   * The images of an observation: the rollback view after a violation (split, or none when
   * `split` is false — the plain rolled-back state is the current view anyway), then the
   * family's own images, or the strobe strip for moving worlds, or the current view.
   */
  async observe(renderer: Renderer, opts: { split?: boolean } = {}): Promise<ObservationImage[]> {
    const images: ObservationImage[] = [];
    const last = this.lastRollback;
    if (last && opts.split !== false) {
      const narrowed = narrowToContact(this.drawnViolation(last.violation), last.violating);
      const rb = { ...last, violation: narrowed.violation, violating: narrowed.scene };
      // The legend names only the colours the picture shows: measured on the violating scene.
      const seen = await renderer.measure(rb.violating, this.camera, this.frameSize(renderer));
      const byName = new Map(seen.bodies.map((b) => [b.name, b]));
      const inFrame = (n: string): boolean => {
        const b = byName.get(n);
        if (!b) return false;
        const [x0, y0, x1, y1] = b.bounds;
        const w = Math.min(x1, seen.width) - Math.max(x0, 0);
        const h = Math.min(y1, seen.height) - Math.max(y0, 0);
        return w >= 2 && h >= 2;
      };
      const caption = rollbackCaption(rb.violation, rb.violating, { moved: (n) => (byName.get(n)?.pixels ?? 0) > 0, tinted: inFrame });
      const png = await renderer.rollback(rb.violating, rb.restored, this.camera, rollbackHighlight(rb.violation, rb.violating), { left: rollbackTitle(rb.violation), right: 'ROLLED BACK' }, { caption, ...this.frameSize(renderer) });
      images.push({ kind: 'rollback', png, caption });
    }
    if (this.familyEnv.observe) {
      images.push(...(await this.familyEnv.observe({ renderer, camera: this.camera, scene: () => this.scene() })));
    } else if (this.instance.dynamic) {
      images.push(await this.strobeStrip(renderer));
    } else {
      images.push({ kind: 'view', png: await renderer.render(this.scene(), this.camera, this.frameSize(renderer)), caption: 'Current view.' });
    }
    return images;
  }

  /**
   * The family's view-rule declaration for the pictures it shows now (`FamilyEnv.viewParts`),
   * or null when the family declares none. `tasks/view-rule.ts` measures and checks it.
   */
  viewDeclarations(): ViewDeclaration[] | null {
    return this.familyEnv.viewParts?.({ camera: this.camera, scene: () => this.scene() }) ?? null;
  }

  /**
   * Everything the environment shows at the start of a turn: the images (when asked for), world
   * time, the plan and exact state where the diagnostic mode reveals them, and the family's
   * read-out. A rollback view is shown once: after this call it is gone, drawn or not.
   */
  async observation(opts: { renderer: Renderer | null; images: boolean; split?: boolean; plan?: boolean; state?: boolean }): Promise<EnvObservation> {
    if (opts.images && !this.drawsImages) throw new SpaceActError('invalid-state', 'this environment was opened with images: false and cannot be drawn');
    if (opts.images && !opts.renderer) throw new SpaceActError('invalid-argument', 'an observation with images needs a renderer');
    const images = opts.images ? await this.observe(opts.renderer!, { split: opts.split !== false }) : [];
    this.lastRollback = null;
    const out: EnvObservation = { images, worldTime: this.world.time };
    if (opts.plan) out.plan = this.instance.reveal.plan;
    if (opts.state) out.state = this.familyEnv.stateText();
    const extra = this.familyEnv.observationText?.();
    if (extra) out.extraText = extra;
    return out;
  }

  /** A digest of the physical state (world poses, velocities, time and family state). */
  stateHash(): string {
    return this.world.stateHash();
  }

  /** True once the episode has terminated (solved or committed). */
  get terminated(): boolean {
    return this.endReason !== null;
  }

  /**
   * Runs one call. Never throws for anything an agent can send: a bad call comes back
   * `invalid` and changes nothing; a failed check comes back `violation`, rolled back.
   */
  execute(call: ToolCall): CallResult {
    const timeBefore = this.world.time;
    const result = (status: CallResult['status'], message: string, extra: Partial<CallResult> = {}): CallResult => ({
      call,
      status,
      message,
      timeBefore,
      timeAfter: this.world.time,
      ...extra,
    });
    if (this.terminated) return result('not-run', 'the episode has already ended');
    const problems = toolCallProblems(this.tools, call);
    if (problems.length) return result('invalid', problems.join('; '));
    const spec = this.tools.find((t) => t.name === call.tool)!;
    const args = call.args ?? {};
    if (spec.kind === 'perception' && CAMERA_TOOL_NAMES.has(spec.name)) {
      try {
        const { camera, message } = applyCameraTool(this.camera, this.instance.camera, spec.name, args);
        this.camera = camera;
        return result('ok', message, { kind: spec.kind });
      } catch (err) {
        if (err instanceof SpaceActError) return result('invalid', err.message, { kind: spec.kind });
        throw err;
      }
    }
    const handler = this.familyEnv.tools[spec.name];
    if (!handler) return result('invalid', `tool "${spec.name}" is not available in this episode`, { kind: spec.kind });
    const strobeBefore = this.drawsImages ? this.strobe.slice() : this.strobe;
    let outcome: ReturnType<World['attempt']>;
    try {
      outcome = this.world.attempt(() => {
        const out = handler(args);
        const topo = this.world.checkTopology();
        if (topo) throw new ViolationError(topo);
        if (spec.kind === 'physical' || spec.kind === 'discrete') {
          const st = this.familyEnv.staticsAfter ? this.familyEnv.staticsAfter(spec.name) : {};
          if (st !== false) {
            const v = this.world.settle(st);
            if (v) throw new ViolationError(v);
          }
        }
        return typeof out === 'string' ? { message: out } : out;
      }, { captureScene: this.drawsImages });
    } catch (err) {
      this.strobe = strobeBefore;
      if (err instanceof SpaceActError) return result('invalid', err.message, { kind: spec.kind });
      throw err;
    }
    if (!outcome.ok) {
      this.strobe = strobeBefore;
      if (outcome.violatingScene) this.lastRollback = { violation: outcome.violation, violating: this.scene(outcome.violatingScene), restored: this.scene() };
      this.refusals += 1;
      const allowed = this.instance.budgets.refusals;
      if (allowed !== undefined && this.refusals > allowed) {
        this.endReason = 'failed';
        const said = allowed === 0 ? 'no refused call' : `at most ${allowed} refused call${allowed === 1 ? '' : 's'}`;
        return result('violation', `${outcome.violation.message} The episode has ended: it allows ${said}.`, { kind: spec.kind, violation: outcome.violation });
      }
      return result('violation', outcome.violation.message, { kind: spec.kind, violation: outcome.violation });
    }
    const out = outcome.value as ToolOutput;
    const extra = { kind: spec.kind, ...(out.data ? { data: out.data } : {}), ...(out.diagnostics ? { diagnostics: out.diagnostics } : {}) };
    if (spec.kind === 'final') this.endReason = 'commit';
    if (this.familyEnv.solved()) this.endReason = 'solved';
    else {
      const failure = this.familyEnv.failed?.() ?? null;
      if (failure) {
        this.endReason = 'failed';
        return result('ok', `${out.message} The task has failed for good: ${failure}`, extra);
      }
    }
    return result('ok', out.message, extra);
  }

  /**
   * Runs a call on the live world and then puts everything back exactly: the outcome a
   * look-ahead agent would see, without the episode moving. Costs no turn and no time.
   */
  preview(call: ToolCall): { result: CallResult; progress: number; solved: boolean } {
    const snap = this.world.snapshot();
    const saved = {
      strobe: this.drawsImages ? this.strobe.slice() : this.strobe,
      end: this.endReason,
      refusals: this.refusals,
      rollback: this.lastRollback,
      camera: this.camera,
    };
    try {
      const result = this.execute(call);
      return { result, progress: this.solved() ? 1 : this.progress(), solved: this.solved() };
    } finally {
      this.world.restore(snap);
      this.strobe = saved.strobe;
      this.endReason = saved.end;
      this.refusals = saved.refusals;
      this.lastRollback = saved.rollback;
      this.camera = saved.camera;
    }
  }

  /** Success test now. */
  solved(): boolean {
    return this.familyEnv.solved();
  }

  /** Progress in [0, 1], clamped so a family bug cannot push a score out of range. */
  progress(): number {
    const p = this.familyEnv.progress();
    return Number.isFinite(p) ? Math.min(1, Math.max(0, p)) : 0;
  }

  /** Releases the world and the family's resources. */
  free(): void {
    this.removeStepListener?.();
    this.familyEnv.free?.();
    this.world.free();
  }
}
