/**
 * What a rollback image says and marks for a violation. Plain functions without the browser,
 * so the task layer can use them without loading the renderer.
 */
import type { Highlight, SceneDescription, Violation } from '../sim/types.ts';

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
  const others = v.bodies.slice(1).filter(drawn);
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
 * The caption of a rollback image: what was violated (kind and rule), the violation's own
 * sentence, and what each highlight colour means in this picture (given the violating scene,
 * which named bodies it cannot mark because they are not drawn).
 */
export function rollbackCaption(v: Violation, scene?: SceneDescription): string {
  const h = rollbackHighlight(v, scene);
  const undrawn = [...v.bodies, ...(v.target?.body !== undefined ? [v.target.body] : [])].filter(
    (n) => scene && !scene.bodies.some((b) => b.name === n && b.visible !== false),
  );
  const legend: string[] = [];
  if (h.bodies.length) legend.push(`magenta: ${v.kind === 'collision' || v.kind === 'workspace' ? 'the part that moved' : 'the part concerned'}`);
  if (h.others?.length) legend.push(`cyan tint: ${v.kind === 'collision' ? 'what it hit' : 'the other parts involved'}`);
  if (h.target?.body !== undefined) legend.push('amber tint: the target');
  if (h.others?.length || h.target?.body !== undefined) legend.push('tinted outlines show through what hides them');
  if (h.target?.point !== undefined) legend.push('amber ring: the target point');
  if (h.point) legend.push('magenta ring: where it happened');
  if (undrawn.length) legend.push(`not drawn, so not marked: ${undrawn.map((n) => `'${n}'`).join(', ')}`);
  const kind = `${KIND_TITLES[v.kind] ?? v.kind}${v.rule ? ` (rule: ${v.rule})` : ''}`;
  const sentence = /[.!?]$/.test(v.message.trim()) ? v.message.trim() : `${v.message.trim()}.`;
  return `${kind}. ${sentence}${legend.length ? ` Left: the moment of the violation; ${legend.join('; ')}.` : ' Left: the moment of the violation.'} Right: the state it was rolled back to.`;
}
