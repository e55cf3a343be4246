/**
 * A4's own sightless adversary, `prior-slides`: it never looks, but it has studied other seeds.
 * From the training seeds' references it learns which (direction, cubes) slides the assembly
 * uses most often, and in which position of the plan; on the judged seed it plays, stick after
 * stick in the tool's (alphabetical) order, the most frequent slides of the plan's position,
 * keeping what is accepted and moving on after a refusal, until the budget is spent. It is the
 * strongest play without looking when nothing a call returns says where a stick is: a refusal
 * reads the same for every cause and carries no distance.
 */
import type { SightlessContext, SightlessStrategy, TrainingExample } from '../../sightless.ts';
import type { ToolCall } from '../../types.ts';

/** Slides the assembly used, most frequent first, as `direction/cubes`. */
interface PriorFit {
  slides: string[];
}

function stickNames(ctx: SightlessContext): string[] {
  const tool = ctx.view.tools.find((t) => t.name === 'slide');
  return (tool?.parameters as { properties?: { stick?: { enum?: string[] } } }).properties?.stick?.enum ?? [];
}

/** The `prior-slides` strategy. */
export const PRIOR_SLIDES: SightlessStrategy<PriorFit> = {
  name: 'prior-slides',
  description: "plays, stick after stick, the (direction, cubes) slides other seeds' references use most often, keeping what is accepted",
  bound: 0.1,
  training: 20,
  fit(training: TrainingExample[]): PriorFit {
    const count = new Map<string, number>();
    for (const ex of training) {
      for (const c of ex.reference.calls) {
        const k = `${c.args.direction}/${c.args.cubes}`;
        count.set(k, (count.get(k) ?? 0) + 1);
      }
    }
    const slides = [...count.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([k]) => k);
    return { slides };
  },
  next(ctx, fitted): ToolCall[] | null {
    const slides = fitted?.slides ?? [];
    const names = stickNames(ctx);
    if (!slides.length || !names.length) return null;
    // The i-th call overall: stick i mod n, the (i div n)-th most frequent slide.
    const done = ctx.history.flat().filter((r) => r.status !== 'not-run').length;
    const out: ToolCall[] = [];
    for (let i = done; out.length < ctx.actionCap; i++) {
      const slide = slides[Math.floor(i / names.length) % slides.length];
      const [direction, cubes] = slide.split('/');
      out.push({ tool: 'slide', args: { stick: names[i % names.length], direction, cubes: Number(cubes) } });
    }
    return out;
  },
};
