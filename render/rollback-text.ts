/**
 * What a rollback image says and marks for a violation. Plain functions without the browser,
 * so the task layer can use them without loading the renderer.
 */
import { compileShape, shapeAabb, type Aabb } from '../sim/shapes.ts';
import type { Highlight, SceneBody, SceneDescription, Vec3, Violation } from '../sim/types.ts';

/** Shapes within this much of the nearest one to the contact count as touched (metres). */
const CONTACT_SLACK = 0.005;
/** Suffix of the scene body that holds the touched shapes of a body split for a rollback image. */
const TOUCHED = '~touched';

function aabbDistance(b: Aabb, p: Vec3): number {
  let d2 = 0;
  for (let i = 0; i < 3; i++) {
    const d = Math.max(b.min[i] - p[i], 0, p[i] - b.max[i]);
    d2 += d * d;
  }
  return Math.sqrt(d2);
}

/**
 * A rollback scene that singles out what was hit: every other body of a collision that is made
 * of several shapes (a corridor's walls as one body, a frame of bars) is split, for the picture
 * only, into the shapes at the contact point and the rest, and the violation names the touched
 * part — so the cyan tint lands on the wall that was hit, not on the whole corridor. The world,
 * the log and the message are unchanged; a picture without a contact point is returned as is.
 */
export function narrowToContact(v: Violation, scene: SceneDescription): { violation: Violation; scene: SceneDescription } {
  if (v.kind !== 'collision' || !v.point) return { violation: v, scene };
  const point = v.point;
  const bodies: SceneBody[] = [];
  const renamed = new Map<string, string>();
  const others = new Set(v.bodies.slice(1));
  for (const b of scene.bodies) {
    if (!others.has(b.name) || b.shapes.length < 2 || b.visible === false) {
      bodies.push(b);
      continue;
    }
    const dist = b.shapes.map((sh) => aabbDistance(shapeAabb(compileShape(sh), b.pose), point));
    const nearest = Math.min(...dist);
    const hit = b.shapes.filter((_, i) => dist[i] <= nearest + CONTACT_SLACK);
    if (hit.length === b.shapes.length) {
      bodies.push(b);
      continue;
    }
    const { visual: _visual, ...bare } = b;
    bodies.push({ ...b, shapes: b.shapes.filter((_, i) => dist[i] > nearest + CONTACT_SLACK) });
    bodies.push({ ...bare, name: `${b.name}${TOUCHED}`, shapes: hit });
    renamed.set(b.name, `${b.name}${TOUCHED}`);
  }
  if (!renamed.size) return { violation: v, scene };
  return { violation: { ...v, bodies: v.bodies.map((n, i) => (i > 0 ? (renamed.get(n) ?? n) : n)) }, scene: { ...scene, bodies } };
}

const KIND_TITLES: Record<Violation['kind'], string> = {
  collision: 'Collision',
  statics: 'Not stable',
  topology: 'Joint or attachment broken',
  workspace: 'Outside the workspace',
  rule: 'Rule broken',
};

/**
 * What a rollback image marks for a violation: the first body (the one that moved or failed)
 * in magenta, the others (what it hit, or the rest involved) tinted cyan, the violation's
 * target (if the family names one) in amber, and the contact point. Given the violating
 * `scene`, bodies it does not draw (an invisible collider) are left out, since a picture
 * cannot mark them.
 */
export function rollbackHighlight(v: Violation, scene?: SceneDescription): Highlight {
  const drawn = (n: string): boolean => !scene || scene.bodies.some((b) => b.name === n && b.visible !== false);
  const h: Highlight = { bodies: v.bodies.slice(0, 1).filter(drawn) };
  // A body that is also the target is drawn amber, not cyan (P6: the smaller disk a disk may not
  // rest on is both), so the caption must not promise a cyan tint nothing shows.
  const others = v.bodies.slice(1).filter((n) => drawn(n) && n !== v.target?.body);
  if (others.length) h.others = others;
  if (v.point) h.point = v.point;
  const target = { ...(v.target?.body !== undefined && drawn(v.target.body) ? { body: v.target.body } : {}), ...(v.target?.point ? { point: v.target.point } : {}) };
  if (target.body !== undefined || target.point !== undefined) h.target = target;
  return h;
}

/** The title over the left half of a rollback image, e.g. "VIOLATION: rule broken (neighbouring pegs only)". */
export function rollbackTitle(v: Violation): string {
  return `VIOLATION: ${KIND_TITLES[v.kind] ?? v.kind}${v.rule ? ` (${v.rule})` : ''}`;
}

/**
 * Which marked bodies a rollback image actually shows: `moved` for the magenta body (drawn
 * where nothing stands in front of it), `tinted` for the cyan and amber ones (their outlines show
 * through what hides them, so being inside the frame is enough). Measured by the renderer
 * (`Renderer.measure` of the violating scene); without it every drawn body counts as shown.
 */
export interface RollbackPresence {
  moved(body: string): boolean;
  tinted(body: string): boolean;
}

/**
 * The caption of a rollback image: what was violated (kind and rule), the violation's own
 * sentence, and what each highlight colour means in this picture — only the colours the
 * picture shows (given `present`), and never a body's internal name: parts the scene does not
 * draw are said to be unmarked without naming them.
 */
export function rollbackCaption(v: Violation, scene?: SceneDescription, present?: RollbackPresence): string {
  const h = rollbackHighlight(v, scene);
  const undrawn = [...v.bodies, ...(v.target?.body !== undefined ? [v.target.body] : [])].filter(
    (n) => scene && !scene.bodies.some((b) => b.name === n && b.visible !== false),
  );
  const moved = h.bodies.filter((b) => present?.moved(b) ?? true);
  const others = (h.others ?? []).filter((b) => present?.tinted(b) ?? true);
  const target = h.target?.body !== undefined && (present?.tinted(h.target.body) ?? true);
  const legend: string[] = [];
  if (moved.length) legend.push(`magenta: ${v.kind === 'collision' || v.kind === 'workspace' ? 'the part that moved' : 'the part concerned'}`);
  if (others.length) legend.push(`cyan tint: ${v.kind === 'collision' ? 'what it hit' : 'the other parts involved'}`);
  if (target) legend.push('amber tint: the target');
  if (others.length || target) legend.push('tinted outlines show through what hides them');
  if (h.target?.point !== undefined) legend.push('amber ring: the target point');
  if (h.point) legend.push('magenta ring: where it happened');
  if (undrawn.length) legend.push(`${undrawn.length === 1 ? 'a part involved is' : 'some parts involved are'} not drawn, so not marked`);
  const kind = `${KIND_TITLES[v.kind] ?? v.kind}${v.rule ? ` (rule: ${v.rule})` : ''}`;
  const sentence = /[.!?]$/.test(v.message.trim()) ? v.message.trim() : `${v.message.trim()}.`;
  return `${kind}. ${sentence}${legend.length ? ` Left: the moment of the violation; ${legend.join('; ')}.` : ' Left: the moment of the violation.'} Right: the state it was rolled back to.`;
}
