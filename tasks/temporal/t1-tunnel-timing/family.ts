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
import { leverInfo } from '../../levers.ts';
import { T1_LEVERS, type T1Scene } from './scene.ts';
import { reference } from './solver.ts';

/** What T1 is: id, version, category, title, summary and tiers. */
export const T1_DESCRIPTOR: FamilyDescriptor = {
  id: 'T1',
  version: 3,
  category: 'T',
  title: 'Tunnel timing',
  summary:
    'A ball rolls towards a gated tunnel; the agent estimates its speed from strobe frames and rulers, lets time run with wait, and fires the gate (which opens for a fixed time, once) so the ball passes without touching it. Tests temporal estimation under a frozen clock; verified by a phase-window solver over the physical path. Arrival times spread over at least twelve window widths, so no fixed firing schedule works.',
  tiers: {
    L1: {
      levers: [],
      description: 'Slow ball (0.15–0.19 m/s) reaching the gate 1.0–5.8 s after the first picture; one gate, open 0.46 s; the window to fire it is 0.17–0.26 s wide (2.5–5 cm of the ball\'s travel).',
    },
    L3: {
      levers: [],
      description: 'Ball at 0.16–0.20 m/s reaching the gate 1.0–5.2 s after the first picture; one gate, open 0.40 s (window 0.14–0.22 s); a decoy track with a blue ball at a clearly different speed.',
    },
    L5: {
      levers: [],
      description:
        'Ball at 0.17–0.21 m/s reaching the entrance 1.0–4.4 s after the first picture; gates at both ends of an opaque tunnel 0.20–0.30 m long, each open 0.35 s, once (windows 0.11–0.18 s); a decoy track: the exit gate must be timed for a ball the agent cannot see.',
    },
    L7: {
      levers: ['+hidden-slope'],
      description:
        'L5 plus an undisclosed physical change: just past where the first strobe leaves the ball the track runs very gently downhill (under 1°) and levels out 10 cm before the entrance, so the ball meets the gates (at 0.17–0.205 m/s, arriving 1.6–5.0 s after the first picture) 22–35 % faster than it started; timing from the first strobe alone fails. Windows no wider than L5\'s.',
    },
  },
};

/** T1 tunnel timing: fire a tunnel gate so a rolling ball of unknown speed passes untouched. */
export const t1TunnelTiming: TaskFamily<T1Scene> = {
  ...T1_DESCRIPTOR,
  levers: leverInfo(T1_LEVERS),
  generate: (seed, tier, lever) => generate(T1_DESCRIPTOR, seed, tier, lever),
  worldOptions,
  build,
  reference,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
};
