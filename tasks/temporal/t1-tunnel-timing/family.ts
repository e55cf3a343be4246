/**
 * T1 tunnel timing: a ball rolls towards a gated tunnel; the agent estimates its speed from
 * strobe frames and rulers, lets time run with `wait`, and fires the gate (open for a fixed
 * time, once) so the ball passes untouched. See README.md for the scene fields, the move
 * metric and the shortcuts considered.
 */
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build, worldOptions } from './episode.ts';
import { SHORTCUT_FILTERS, SIGHTLESS } from './filters.ts';
import { generate } from './generate.ts';
import type { T1Scene } from './scene.ts';
import { reference } from './solver.ts';

/** What T1 is: id, version, category, title, summary and tiers. */
export const T1_DESCRIPTOR: FamilyDescriptor = {
  id: 'T1',
  version: 1,
  category: 'T',
  title: 'Tunnel timing',
  summary:
    'A ball rolls towards a gated tunnel; the agent estimates its speed from strobe frames and rulers, lets time run with wait, and fires the gate (which opens for a fixed time, once) so the ball passes without touching it. Tests temporal estimation under a frozen clock; verified by a phase-window solver over the physical path.',
  tiers: {
    L1: { levers: [], description: 'Slow ball (0.20–0.30 m/s), one gate open 0.6 s, arrival 2.5–3.5 s after the first picture; window about 0.45 s.' },
    L3: { levers: [], description: 'Faster ball (0.35–0.45 m/s), one gate open 0.4 s, a decoy track with a blue ball at a clearly different speed.' },
    L5: {
      levers: [],
      description: 'Ball at 0.45–0.60 m/s, gates at both ends of an opaque tunnel (each open 0.3 s, once), a decoy track: the exit gate must be timed for a ball the agent cannot see.',
    },
    L7: {
      levers: ['+hidden-slope'],
      description:
        'L5 plus an undisclosed physical change: just past where the first strobe leaves the ball, the track turns gently downhill (about 1°), so the ball reaches the gates 22–35 % faster than it started; timing from the first strobe alone fails.',
    },
  },
};

/** T1 tunnel timing: fire a tunnel gate so a rolling ball of unknown speed passes untouched. */
export const t1TunnelTiming: TaskFamily<T1Scene> = {
  ...T1_DESCRIPTOR,
  generate: (seed, tier) => generate(T1_DESCRIPTOR, seed, tier),
  worldOptions,
  build,
  reference,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
};
