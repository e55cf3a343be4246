/**
 * Plain data types shared by the physical world, the renderer and the tasks.
 *
 * Everything here is JSON: a scene description can be written to a file, sent to the
 * browser page, hashed, or checked into `fixtures/`. Units are SI (metres, kilograms,
 * seconds); angles inside data are radians only where a quaternion holds them, and degrees
 * wherever a person or a model reads them. The world is Y-up.
 */

/** A vector in metres (or metres per second), `[x, y, z]`, Y up. */
export type Vec3 = [number, number, number];

/** A unit quaternion `[x, y, z, w]`. */
export type Quat = [number, number, number, number];

/** A rigid pose: position `p` in metres and orientation `q`. */
export interface Pose {
  p: Vec3;
  q: Quat;
}

/** The identity orientation. */
export const IDENTITY_QUAT: Quat = [0, 0, 0, 1];

/**
 * One convex or mesh piece of a body, in the body's own frame (optionally offset by `pose`).
 * Several shapes in one body make a compound body.
 */
export type ShapeSpec =
  | { type: 'box'; half: Vec3; pose?: Pose }
  | { type: 'ball'; radius: number; pose?: Pose }
  /** Axis along the shape's local Y. */
  | { type: 'cylinder'; radius: number; halfHeight: number; pose?: Pose }
  /**
   * A capsule: the points within `radius` of a segment from −`halfHeight` to +`halfHeight` along
   * the shape's local Y (a rod with round ends; total length 2 · (halfHeight + radius)).
   */
  | { type: 'capsule'; radius: number; halfHeight: number; pose?: Pose }
  /** The convex hull of the points. */
  | { type: 'hull'; points: Vec3[]; pose?: Pose }
  /** A triangle mesh; only for static bodies. */
  | { type: 'mesh'; vertices: Vec3[]; indices: [number, number, number][]; pose?: Pose };

/** Physical material of a body's colliders. */
export interface Material {
  /** kg/m³ */
  density: number;
  /** Coulomb friction coefficient; pairs combine by the rule in `sim/materials.ts`. */
  friction: number;
  /** 0 = perfectly inelastic. */
  restitution: number;
}

/**
 * How a body takes part in the simulation.
 * - `dynamic`: moved by gravity and contacts.
 * - `static`: never moves.
 * - `kinematic`: moved only by the world's swept moves (a held part).
 */
export type BodyKind = 'dynamic' | 'static' | 'kinematic';

/** Everything needed to create a body. */
export interface BodySpec {
  /** Unique, stable name; the handle used by tools, logs and the renderer. */
  name: string;
  kind: BodyKind;
  pose: Pose;
  shapes: ShapeSpec[];
  material?: Partial<Material>;
  /** CSS colour for rendering, e.g. `#c0392b`. */
  color?: string;
  /** 0..1; below 1 the renderer draws the body translucent. */
  opacity?: number;
  /** `false`: the body collides but is not drawn (e.g. an invisible workspace wall). */
  visible?: boolean;
  /**
   * For a body that is not drawn: the drawn body that shows it (a convex-decomposed collider and
   * its seamless drawn mesh). A rollback image marks that body in this one's place, and its
   * caption does not call the part undrawn. Ignored for drawn bodies.
   */
  drawnAs?: string;
  /** `false`: the body is drawn but has no collider (a painted target zone, a ghost outline). */
  collides?: boolean;
  /** Free-form labels for tasks (e.g. `"disk"`, `"decoy"`); the world ignores them. */
  tags?: string[];
  /**
   * What a person calls the body, as the task's rules do (`wall`, `rail`, `block C`): violation
   * messages say this instead of `name`. Names are handles and may number parts by position
   * (`wall-21`), which in a message would tell a sightless prober which part it hit — a map of
   * the scene the picture alone should give. Many bodies may share one spoken name; a message
   * lists it once. Default: `name`.
   */
  spokenName?: string;
  /**
   * Shapes drawn with the body (same colour and pose) that have no collider: they never touch
   * anything, add no mass, take no part in sweeps, contact queries or the body's bounding box,
   * and are not in the state hash (like the rest of the spec they are fixed at creation). For
   * detail the physics leaves out on purpose, such as the studs on top of a brick. Triangle
   * meshes are allowed on any kind of body here, since no mass is computed from them.
   */
  visual?: ShapeSpec[];
  /**
   * Continuous collision detection for a fast dynamic body (a launched ball), so it cannot pass
   * through thin walls between two steps. Default `false`.
   */
  ccd?: boolean;
}

/** A body as the renderer needs it: geometry, appearance and current pose. */
export interface SceneBody {
  name: string;
  shapes: ShapeSpec[];
  /**
   * Drawn-only shapes ({@link BodySpec.visual}); absent when the body has none. The renderer
   * draws them exactly like `shapes` in every view (RGB, depth, mask, highlight): a picture shows
   * what a camera would see, and a camera sees a brick's studs.
   */
  visual?: ShapeSpec[];
  pose: Pose;
  color: string;
  opacity: number;
  visible: boolean;
}

/**
 * An in-scene measuring ruler placed by a task. Ticks every `minor` metres, longer ticks and
 * a distance label (measured from the ruler's own start, never a world coordinate) every
 * `major` metres.
 */
export interface RulerSpec {
  from: Vec3;
  to: Vec3;
  /** Direction the ticks point (perpendicular to the ruler); default +Y, or +Z for a vertical ruler. */
  tickDir?: Vec3;
  /** metres; default 0.01 */
  minor?: number;
  /** metres; default 0.1 */
  major?: number;
  color?: string;
}

/**
 * The key light of a scene: the one light that casts shadows. Directions use the camera's
 * convention (azimuth 0 from +Z, 90 from +X; elevation above the horizon, degrees).
 */
export interface KeyLight {
  azimuth: number;
  /** Degrees in (0, 90]; a shadow on the floor is h / tan(elevation) long behind a body of height h. */
  elevation: number;
  /** Default 2.4 (the default key light's). */
  intensity?: number;
  /** Default true. */
  shadows?: boolean;
  /**
   * The shadow map's normal bias, metres: each receiving point is looked up in the shadow map
   * as if moved this far along its surface normal, which keeps lit faces free of self-shadow
   * speckle but shortens every shadow by about this much over tan(elevation). Default 0.004 × the
   * radius of the sphere around the bodies (≈ 0.7 mm for a 17 cm scene). A scene whose shadows are
   * measured (B6's) sets it small; absent, the picture is as it always was.
   */
  shadowNormalBias?: number;
  /**
   * Side of the key light's square shadow map, texels (a power of two, 512–8192). Default 2048;
   * a larger map gives sharper shadow edges (a narrower penumbra) at more drawing time.
   */
  shadowMapSize?: number;
}

/** What the renderer draws: bodies plus the task's rulers. */
export interface SceneDescription {
  bodies: SceneBody[];
  rulers: RulerSpec[];
  /** Optional ground plane (drawn only) at this height; default none. */
  ground?: { y: number; color?: string; size?: number };
  background?: string;
  /** Default: a key light fixed above, in front and to the right (azimuth ≈ 32°, elevation ≈ 56°), with shadows. */
  light?: KeyLight;
}

/** What was violated; the first violation of an action stops and rolls it back. */
export type ViolationKind = 'collision' | 'statics' | 'topology' | 'workspace' | 'rule';

/** A structured record of the first violation of an action. */
export interface Violation {
  kind: ViolationKind;
  /** Names of the bodies involved (the moving one first where there is one). */
  bodies: string[];
  /** A world point where it happened (contact point), if any. */
  point?: Vec3;
  /** A sentence a model can read. Uses SI units and never reveals hidden coordinates. */
  message: string;
  /** For swept moves: fraction of the path travelled before contact, 0..1. */
  toi?: number;
  /** Short name of the broken rule (kind `rule`), e.g. "neighbouring pegs only"; shown in the rollback image. */
  rule?: string;
  /** What the refused action aimed at (a body, a point or both); marked in the rollback image. */
  target?: { body?: string; point?: Vec3 };
}

/**
 * What a rollback image marks: `bodies` (the part that moved or failed) in magenta, `others`
 * (what it hit, or what else the violation involves) tinted in a second colour, an optional
 * `target` (body and/or point the refused action aimed at) in a third, and the contact `point`.
 */
export interface Highlight {
  bodies: string[];
  point?: Vec3;
  others?: string[];
  target?: { body?: string; point?: Vec3 };
}
