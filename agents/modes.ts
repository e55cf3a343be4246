import { SpaceActError } from '../core/errors.ts';

/**
 * Diagnostic modes. Each removes or adds exactly one thing; they combine where that makes
 * sense (`state` implies `plan`).
 * - `plan`: a reference plan in words is added to the text.
 * - `state`: the plan plus the exact layout and payload poses, every turn.
 * - `no-camera`: camera tools are removed; the view stays at the initial camera.
 * - `blind`: no images at all.
 * - `nonote`: the persistent note is neither shown nor kept.
 * - `nosplit`: after a violation the agent sees only the rolled-back state, not the split view.
 * - `cap1`: one action per turn.
 */
export interface Mode {
  plan: boolean;
  state: boolean;
  noCamera: boolean;
  blind: boolean;
  nonote: boolean;
  nosplit: boolean;
  cap1: boolean;
}

const NAMES: Record<string, keyof Mode> = {
  plan: 'plan',
  state: 'state',
  'no-camera': 'noCamera',
  blind: 'blind',
  nonote: 'nonote',
  nosplit: 'nosplit',
  cap1: 'cap1',
};

/** The default condition: nothing added, nothing removed. */
export const DEFAULT_MODE: Mode = {
  plan: false, state: false, noCamera: false, blind: false, nonote: false, nosplit: false, cap1: false,
};

/**
 * Parses `--mode` text: names joined by `+` or `,` (e.g. `plan+nosplit`), or `default`.
 * Leading `+` is allowed (`+plan`).
 */
export function parseMode(text: string | undefined): Mode {
  const mode = { ...DEFAULT_MODE };
  if (!text || text === 'default' || text === 'main') return mode;
  for (const raw of text.split(/[+,]/)) {
    const name = raw.trim();
    if (!name) continue;
    const key = NAMES[name];
    if (!key) {
      throw new SpaceActError('invalid-argument', `unknown mode "${name}"; modes are: ${Object.keys(NAMES).join(', ')}`, { mode: text });
    }
    mode[key] = true;
  }
  if (mode.state) mode.plan = true;
  if (mode.blind && mode.nosplit) {
    throw new SpaceActError('invalid-argument', 'blind and nosplit cannot combine: blind shows no images at all', { mode: text });
  }
  return mode;
}

/** The canonical text of a mode (`default` or names joined by `+` in a fixed order). */
export function modeName(mode: Mode): string {
  const names = Object.entries(NAMES)
    .filter(([, key]) => mode[key] && !(key === 'plan' && mode.state))
    .map(([name]) => name);
  return names.length ? names.join('+') : 'default';
}
