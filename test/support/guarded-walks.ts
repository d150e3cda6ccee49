import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadedModelFile } from '../../core/model/load.js';
import type { Walker } from '../../core/walker.js';

/**
 * The guarded models that the planning tests and `bench/planning.ts` walk, and one capped walk of them, so that
 * both count steps the same way.
 */

/** A guarded model of `test/fixtures/models/guarded/`, and the goals `a_star` is sent to in it. */
export interface GuardedModel {
  readonly file: string;
  /** A vertex that guards keep far from the start: `a_star(reached_vertex(...))`. */
  readonly vertex: string;
  /** An edge that guards keep far from the start: `a_star(reached_edge(...))`. */
  readonly edge: string;
}

/** Every guarded model whose full edge coverage some walk reaches (README.md in the folder says why each is hard). */
export const GUARDED_MODELS: readonly GuardedModel[] = [
  { file: 'counter.json', vertex: 'v_Summary', edge: 'e_ClearQueue' },
  { file: 'lockout.json', vertex: 'v_Locked', edge: 'e_UnlockByHelpDesk' },
  { file: 'cart.json', vertex: 'v_OrderConfirmed', edge: 'e_AddItemToFullCart' },
  { file: 'toggles.json', vertex: 'v_Tethering', edge: 'e_RadiosLockedNotice' },
  { file: 'vending.json', vertex: 'v_Dispensing', edge: 'e_Restock' },
  { file: 'feature-flags.json', vertex: 'v_LegacyCheckout', edge: 'e_PayWithWallet' },
];

/** The seeds every guarded model is walked with. */
export const SEEDS: readonly number[] = Array.from({ length: 10 }, (_, i) => i + 1);

/** The folder of the guarded models, from `test/support` or from `dist/test/support` (the bench). */
export function guardedModelsFolder(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const root = here.endsWith(join('dist', 'test', 'support')) ? join(here, '..', '..', '..') : join(here, '..', '..');
  return join(root, 'test', 'fixtures', 'models', 'guarded');
}

/** How one walk went. */
export interface WalkOutcome {
  /** Elements handed out, the start element included. */
  readonly steps: number;
  /** The stop condition holds: the walk ended by itself. */
  readonly ended: boolean;
  /** The error that stopped the walk (a dead end, say), if one did. */
  readonly failure?: string;
}

/**
 * Walks `loaded` with one generator and seed until it ends, fails, or has handed out `cap` elements; `options`
 * adds to how the walk is opened (its planning bounds, say).
 */
export function walkCapped(
  walker: Walker,
  loaded: LoadedModelFile,
  generator: string,
  seed: number,
  cap: number,
  options: Omit<Parameters<Walker['walk']>[1] & object, 'generator' | 'seed'> = {},
): WalkOutcome {
  const machine = walker.walk(loaded, { ...options, generator, seed });
  let steps = 0;
  try {
    while (steps < cap && machine.hasNext()) {
      machine.next();
      steps++;
    }
    return { steps, ended: !machine.hasNext() };
  } catch (error) {
    return { steps, ended: false, failure: (error as Error).message };
  } finally {
    machine.dispose();
  }
}

/**
 * Whether a random walk of `loaded` whose client runs `script(i)` through setData after every `every` steps
 * (as a test step may change the model's data) covers every edge within `cap` steps; a walk that fails
 * covers nothing.
 */
export function coversWithClientData(walker: Walker, loaded: LoadedModelFile, seed: number, cap: number, every: number, script: (i: number) => string): boolean {
  const machine = walker.walk(loaded, { seed, dataWriters: 'client' });
  try {
    for (let i = 0; i < cap && machine.hasNext(); i++) {
      machine.next();
      if (i % every === every - 1) machine.setData(script(Math.floor(i / every)));
    }
    return machine.statistics().edgeCoverage === 100;
  } catch {
    return false;
  } finally {
    machine.dispose();
  }
}
