/**
 * What a rollback image says and marks for a violation. Plain functions without the browser,
 * so the task layer can use them without loading the renderer.
 */
import type { Highlight, Violation } from '../sim/types.ts';

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
 * target (if the family names one) in amber, and the contact point.
 */
export function rollbackHighlight(v: Violation): Highlight {
  const h: Highlight = { bodies: v.bodies.slice(0, 1) };
  if (v.bodies.length > 1) h.others = v.bodies.slice(1);
  if (v.point) h.point = v.point;
  if (v.target && (v.target.body !== undefined || v.target.point !== undefined)) h.target = { ...v.target };
  return h;
}

/** The title over the left half of a rollback image, e.g. "VIOLATION: rule broken (neighbouring pegs only)". */
export function rollbackTitle(v: Violation): string {
  return `VIOLATION: ${KIND_TITLES[v.kind] ?? v.kind}${v.rule ? ` (${v.rule})` : ''}`;
}

/**
 * The caption of a rollback image: what was violated (kind and rule), the violation's own
 * sentence, and what each highlight colour means in this picture.
 */
export function rollbackCaption(v: Violation): string {
  const h = rollbackHighlight(v);
  const legend: string[] = [];
  if (h.bodies.length) legend.push(`magenta: ${v.kind === 'collision' || v.kind === 'workspace' ? 'the part that moved' : 'the part concerned'}`);
  if (h.others?.length) legend.push(`cyan tint: ${v.kind === 'collision' ? 'what it hit' : 'the other parts involved'}`);
  if (h.target?.body !== undefined) legend.push('amber tint: the target');
  if (h.others?.length || h.target?.body !== undefined) legend.push('tinted outlines show through what hides them');
  if (h.target?.point !== undefined) legend.push('amber ring: the target point');
  if (h.point) legend.push('magenta ring: where it happened');
  const kind = `${KIND_TITLES[v.kind] ?? v.kind}${v.rule ? ` (rule: ${v.rule})` : ''}`;
  const sentence = /[.!?]$/.test(v.message.trim()) ? v.message.trim() : `${v.message.trim()}.`;
  return `${kind}. ${sentence}${legend.length ? ` Left: the moment of the violation; ${legend.join('; ')}.` : ' Left: the moment of the violation.'} Right: the state it was rolled back to.`;
}
