/**
 * M1 shortcut filters and sightless strategies: exactly one hole has the peg's outline, its
 * mirror image is among the decoys, the peg starts well away from the fitting orientation, and
 * where it starts it hides no hole and no ruler label in the first view.
 * See README.md for the shortcuts considered.
 */
import { qangle } from '../../../sim/math.ts';
import type { SightlessStrategy } from '../../sightless.ts';
import type { InstanceFilter, ToolCall } from '../../types.ts';
import { lineSearch, nextProbeCalls, stopProbing } from '../../kits/held-part/prober.ts';
import { mirror, oneSidedKey } from './polyomino.ts';
import { GRID, goalQuat, PEG_HEIGHT, PLATE, REFERENCE_DEPTH, RULER_ZERO, WORKSPACE, type M1Scene } from './scene.ts';
import { hiddenByPeg } from './sight.ts';

/** Why a scene is not a fair instance, or null (a generator-side shortcut filter). */
export function sceneProblem(scene: M1Scene): string | null {
  const own = oneSidedKey(scene.pegCells);
  const matches = scene.holes.filter((h) => oneSidedKey(h.cells) === own);
  if (matches.length !== 1 || scene.holes[scene.match]?.kind !== 'match') return `${matches.length} holes have the peg's outline; exactly one must`;
  if (!scene.holes.some((h) => h.kind === 'mirror' && oneSidedKey(h.cells) === oneSidedKey(mirror(scene.pegCells)))) return 'no hole is the mirror image of the peg';
  const err = (qangle(scene.start.q, goalQuat(scene)) * 180) / Math.PI;
  if (err < 29.9) return `the peg starts only ${err.toFixed(1)}° from the fitting orientation`;
  return null;
}

/** Cheap static checks every instance must pass (the generator re-draws until they hold; verify reports them). */
export const SHORTCUT_FILTERS: InstanceFilter<M1Scene>[] = [
  { name: 'fair-layout', check: (inst) => sceneProblem(inst.scene) },
  // M1 hides nothing on purpose: the peg's start must not stand in front of a hole or a ruler's labels.
  { name: 'holes-and-rulers-in-sight', check: (inst) => hiddenByPeg(inst.scene, inst.camera.initial, inst.rulers)[0] ?? null },
];


/** Slot centres learned from published examples: where holes were seen, grouped by column and row. */
interface LearnedSlots {
  slots: Array<[number, number]>;
}

/**
 * A feel-your-way prober (issue 36), playing as a text-only model that has read the rules and
 * some published examples could: it finds the peg's centre by line searches against the
 * workspace's sides (the workspace is the same for every seed), then, from the top of the
 * workspace, tries to lower the peg at each place a hole could be (the slot centres seen in
 * examples, on a 5 mm grid around each) in each turn the rules allow, keeping on until a
 * lowering is done or the budget is spent. Against the old rules (no action budget, holes and
 * start on 5 mm ticks, quarter turns at L1) it finds the hole by exhaustion; with continuous draws
 * and a budget of a few times the reference it cannot.
 */
export const feelForHole: SightlessStrategy<LearnedSlots> = {
  name: 'feel-for-hole',
  description: "Finds the peg's centre by line searches against the workspace's sides, then lowers it over every place and turn a hole could be (slots seen in examples, a 5 mm grid around each), until it goes in or the budget is spent.",
  bound: 0.05,
  fit(training) {
    const groups = new Map<string, { x: number; z: number; n: number }>();
    for (const t of training) {
      for (const h of (t.instance.scene as M1Scene).holes) {
        const key = `${Math.round(h.x / 0.13)}/${Math.sign(h.z)}`;
        const g = groups.get(key) ?? { x: 0, z: 0, n: 0 };
        g.x += h.x;
        g.z += h.z;
        g.n++;
        groups.set(key, g);
      }
    }
    const snap = (v: number, zero: number): number => zero + Math.round((v - zero) / GRID) * GRID;
    return { slots: [...groups.values()].map((g) => [snap(g.x / g.n, RULER_ZERO[0]), snap(g.z / g.n, RULER_ZERO[2])] as [number, number]).sort((a, b) => a[0] - b[0] || a[1] - b[1]) };
  },
  next(ctx, fitted) {
    const slots = fitted?.slots ?? [];
    if (!slots.length) return null;
    const tier = ctx.view.tier;
    const onTicks = /lie on the/.test(ctx.view.rules);
    return nextProbeCalls(ctx, (p) => {
      const T = (dx: number, dy: number, dz: number): ToolCall => ({ tool: 'translate', args: { dx_m: dx, dy_m: dy, dz_m: dz } });
      const ws = WORKSPACE;
      // Line searches to the +x, then the -x side: their sum gives the peg's width, so its centre.
      lineSearch(p, (d) => T(d, 0, 0), 0.256, 0.0005);
      const bx = lineSearch(p, (d) => T(-d, 0, 0), 0.5, 0.0005);
      const hx = (ws.max[0] - ws.min[0] - bx) / 2;
      lineSearch(p, (d) => T(0, 0, d), 0.256, 0.0005);
      const bz = lineSearch(p, (d) => T(0, 0, -d), 0.5, 0.0005);
      const hz = (ws.max[2] - ws.min[2] - bz) / 2;
      lineSearch(p, (d) => T(0, d, 0), 0.256, 0.0005);
      const hy = PEG_HEIGHT / 2;
      let x = ws.min[0] + hx;
      let z = ws.min[2] + hz;
      const y = ws.max[1] - hy;
      const snap = (v: number, zero: number): number => (onTicks ? zero + Math.round((v - zero) / GRID) * GRID : v);
      // Where the peg started (its slot holds no hole).
      const startSlot = slots.reduce((best, s) => (Math.hypot(s[0] - (x + 0), s[1] - z) < Math.hypot(best[0] - x, best[1] - z) ? s : best), slots[0]);
      const lower = PLATE.top - REFERENCE_DEPTH + hy - y;
      const yaws = tier === 'L1' ? [90, 180, 270] : Array.from({ length: 21 }, (_, k) => 30 + 15 * k);
      const offsets: Array<[number, number]> = [];
      for (let i = -2; i <= 2; i++) for (let j = -2; j <= 2; j++) offsets.push([i * GRID, j * GRID]);
      offsets.sort((a, b) => Math.hypot(...a) - Math.hypot(...b));
      // Away from the workspace's sides before turning (a turn changes the peg's footprint).
      p.probe(T(startSlot[0] - x, 0, startSlot[1] - z), true);
      x = startSlot[0];
      z = startSlot[1];
      let turnedBy = 0;
      for (const yawDeg of yaws) {
        const turn = yawDeg - turnedBy;
        p.probe({ tool: 'rotate', args: { axis: 'y', angle_deg: turn > 180 ? turn - 360 : turn } }, true);
        turnedBy = yawDeg;
        for (const s of slots) {
          if (s === startSlot) continue;
          for (const [ox, oz] of offsets) {
            const tx = snap(s[0] + ox, RULER_ZERO[0]);
            const tz = snap(s[1] + oz, RULER_ZERO[2]);
            if (p.probe(T(tx - x, 0, tz - z), true)) {
              x = tx;
              z = tz;
            }
            if (p.probe(T(0, lower, 0))) {
              if (/matching hole/.test(p.lastMessage())) stopProbing();
              p.probe(T(0, -lower, 0), true);
            }
          }
        }
      }
    });
  },
};

/** M1's own sightless strategies for the shortcut battery. */
export const SIGHTLESS: SightlessStrategy[] = [feelForHole as SightlessStrategy];
