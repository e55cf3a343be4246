/**
 * The view rule over a family's first observation: what the family declares its pictures must
 * show (`FamilyEnv.viewParts`, in its `episode.ts`), measured by the renderer's own id and depth
 * buffers (`Renderer.measure`) and judged by the pure `checkViewRule` (render/view-rule.ts).
 * Every required body is visible at its minimum size and not cut by the frame, no shown ruler
 * label is cut by the frame or overlaps another, every ruler the rules mention is readable, every
 * arrow the rules tell the agent to read shows its head and most of its shaft (measured shape by
 * shape: `arrows`, drawn alone and in the full picture), and no label of a ruler the tier hides
 * on purpose is shown. A family that declares nothing fails,
 * with a message that says what to declare, so no family can skip the rule.
 */
import type { MeasureResult, Renderer } from '../render/renderer.ts';
import { checkViewRule, type ViewVerdict } from '../render/view-rule.ts';
import type { TaskEnv } from './env.ts';
import type { ViewDeclaration } from './types.ts';

/** One declared picture, measured and judged. */
export interface ViewCheck {
  label: string;
  measurement: MeasureResult;
  verdict: ViewVerdict;
}

/** The view rule's verdict on an instance's first observation. */
export interface FirstViewVerdict {
  /** The instance checked. */
  instance: string;
  /** Whether the family declares its view parts at all. */
  declared: boolean;
  views: ViewCheck[];
  /** One line per failure (empty when the rule holds), naming the instance and the picture. */
  problems: string[];
}

/** What a family that declares no view parts is told to do. */
export function undeclaredMessage(familyId: string): string {
  return (
    `${familyId} declares no view parts, so the view rule cannot check its first view: give the FamilyEnv that build() ` +
    `returns (its episode.ts) a viewParts(ctx) method returning one entry per picture of the first observation, with ` +
    `bodies: every body the rules mention, each { name, minPixels } (visible pixels at 768×768; a long table or floor may add mayBeCut: true); ` +
    `hidden: the bodies this tier hides on purpose (e.g. behind the +occ wall); hiddenRulers: rulers this tier hides on purpose; ` +
    `hiddenBecause: why (the lever, or the task's premise), required when anything is hidden; hiddenAtMost: the most parts the tier text promises to hide, also required then; ` +
    `rulers: the rulers the rules tell the agent to read (default: every ruler not hidden); and, for a family that draws its own pictures ` +
    `(observe), each picture's scene, camera, width and height. See AUTHORING.md, "4a. What the first view must show".`
  );
}

/** The declaration with its defaults filled: the picture, its size and the rulers to read. */
function resolved(env: TaskEnv, d: ViewDeclaration, renderer: Renderer): Required<Pick<ViewDeclaration, 'label' | 'scene' | 'camera' | 'width' | 'height' | 'rulers'>> & ViewDeclaration {
  const scene = d.scene ?? env.scene();
  const hiddenRulers = new Set(d.hiddenRulers ?? []);
  const rulers = d.rulers ?? (scene.rulers ?? []).map((_, i) => i).filter((i) => !hiddenRulers.has(i));
  // The first view is drawn at the instance's own frame size where it sets one (T1's wide
  // strobe frames), so that is the picture measured.
  const frame = env.frameSize(renderer);
  return { ...d, label: d.label ?? 'first view', scene, camera: d.camera ?? env.camera, width: d.width ?? frame.width, height: d.height ?? frame.height, rulers };
}

/**
 * Measures every picture the family declares for the environment's current state (call it
 * before the first action: the first view) and checks each against the view rule: one
 * `Renderer.measure` per declared picture.
 */
export async function checkFirstView(env: TaskEnv, renderer: Renderer): Promise<FirstViewVerdict> {
  const id = env.instance.id;
  const declared = env.viewDeclarations();
  const bodies = (declared ?? []).reduce((n, d) => n + (d.bodies?.length ?? 0), 0);
  if (!declared || declared.length === 0 || bodies === 0) {
    return { instance: id, declared: false, views: [], problems: [`${id}: ${undeclaredMessage(env.family.id)}`] };
  }
  const views: ViewCheck[] = [];
  const problems: string[] = [];
  for (const raw of declared) {
    const d = resolved(env, raw, renderer);
    const alone = (d.letters ?? []).map((l) => l.body);
    const byShape = (d.arrows ?? []).map((a) => a.body);
    const measurement = await renderer.measure(d.scene, d.camera, { width: d.width, height: d.height, ...(alone.length ? { alone } : {}), ...(byShape.length ? { byShape } : {}) });
    const verdict = checkViewRule(measurement, d);
    views.push({ label: d.label, measurement, verdict });
    for (const f of verdict.failures) problems.push(`${id} ${d.label}: ${f.message} [${f.kind}]`);
  }
  return { instance: id, declared: true, views, problems };
}
