/**
 * A6 part-to-whole: the polycube seed's question — which of four pairs of components forms the
 * target? — made physical, and also offered as the seed's four-option question.
 *
 * One family, two forms, told apart by the seed: seeds below 1000 are the assembly form (tiers
 * L1–L7 grow the target and add decoys and, at L7, a turned board); seeds from 1000 on are the
 * question form, where seed `1000 + 3p + k` is problem `p` in presentation `k` (see
 * `polycomp.ts`). Both run through the same episode loop: the question is a one-turn,
 * one-call episode whose observation is drawn by the family (`FamilyEnv.observe`).
 */
import type { FamilyDescriptor, TaskFamily } from '../../types.ts';
import { build } from './episode.ts';
import { answerPlace, batterySeeds, randomSuccessBound, SHORTCUT_FILTERS, SIGHTLESS, TELLS } from './filters.ts';
import { generate } from './generate.ts';
import { polycompInstances, SERIES_LENGTH } from './polycomp.ts';
import { leverInfo } from '../../levers.ts';
import { A6_LEVERS } from './physical.ts';
import type { A6Scene } from './scene.ts';
import { reference } from './solver.ts';

/** What A6 is: id, version, category, title, summary and tiers. */
export const A6_DESCRIPTOR: FamilyDescriptor = {
  id: 'A6',
  version: 5,
  category: 'A',
  title: 'Part-to-whole',
  summary:
    'A target polycube is shown as a translucent outline on a board; four trays each hold two pieces, and only one tray\'s pair can form the target under rotation and translation. Pick the pair and assemble it into the outline by turning and lowering each piece. Distractors are the correct cut (or another cut) of the target with one cube moved or one component mirrored, never singled out by sharing the most (or fewest) pieces with the others; targets are rectangular loops, toy-like shapes, cleaved blocks and joinery. The same problems are offered as the polycube seed\'s four-option question in its three presentations (seeds from 1000 on, suite `polycomp`). Certified with the polycube toolkit: exactly one option forms the target.',
  tiers: {
    L1: {
      levers: [],
      description:
        'Targets of 6–8 cubes; distractors are a cut of the target (the correct one or another) with one cube moved or one part mirrored, with no decoy constraint, so a distractor piece may stick out past the target\'s proportions; the board is aligned with the first view.',
    },
    L3: {
      levers: [],
      description:
        'Targets of 8–11 cubes; decoys: every piece of every tray fits inside the outline on its own, and moved cubes stay within the bounds of the piece they join where they can.',
    },
    L5: { levers: [], description: 'Targets of 10–14 cubes, decoys as at L3. The question suite `polycomp` uses this tier.' },
    L7: { levers: ['+rot'], description: 'L5 with the board turned by 90°, 180° or 270° on the table: its columns and rows must be read from its marks (question form: cameras may look from below).' },
  },
};

/** A6 part-to-whole: find and place the two components that form a target polycube; also as the seed's four-option question. */
export const a6PartToWhole: TaskFamily<A6Scene> = {
  ...A6_DESCRIPTOR,
  levers: leverInfo(A6_LEVERS),
  generate: (seed, tier, lever) => generate(A6_DESCRIPTOR, seed, tier, lever),
  build,
  reference,
  certify: { unique: true },
  randomSuccessBound,
  shortcutFilters: SHORTCUT_FILTERS,
  sightless: SIGHTLESS,
  tells: TELLS,
  textVaries: [
    {
      what: "place tool's cell ranges",
      reason:
        "The schema bounds the cells place accepts by the board's grid, which is drawn on the board with lines, a black origin square and two painted strips; it bounds where the outline may lie, not its shape or which tray fills it.",
      values: (i) => {
        const place = i.tools.find((t) => t.name === 'place');
        const props = (place?.parameters as { properties?: { cell?: unknown } } | undefined)?.properties;
        return props?.cell ? [JSON.stringify(props.cell)] : [];
      },
    },
    {
      what: 'question presentation',
      reason:
        "Question-form seeds come in the seed benchmark's three presentations (one composite image, five neutral or five descriptive labels); the title and the first rule say which pictures follow, nothing about the answer.",
      values: (i) => (i.tools.some((t) => t.name === 'answer') ? [i.title, i.rules.split('\n')[0]] : []),
    },
  ],
  answerPlace,
  batterySeeds,
  suites: {
    polycomp: {
      description: `The polycube seed's question series: ${SERIES_LENGTH} problems at L5 (65 rectangular loops, 24 toy-like shapes, 14 cleaved blocks, 17 joinery cases), each in the three presentations (composite image; five images labelled Image 1–5; five labelled Target and Option A–D), ${SERIES_LENGTH * 3} instances.`,
      instances: polycompInstances,
    },
  },
};
