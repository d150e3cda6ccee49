import { afterEach, beforeAll, describe } from 'vitest';
import type { ScriptEngine } from '../../../core/scripting.js';
import { SandboxPool } from './contract-helpers.js';
import { describeClock } from './contract-clock.js';
import { describeFailures } from './contract-failures.js';
import { describeHostileScripts } from './contract-hostile.js';
import { describeLimits } from './contract-limits.js';
import { describeSemantics } from './contract-semantics.js';
import { describeState } from './contract-state.js';
import { describeSyntax } from './contract-syntax.js';

/** Engine-specific hooks of the contract suite. */
export interface ContractHooks {
  /**
   * Throws when the engine still holds memory after every sandbox of a test was disposed. Called after
   * every test; engines that cannot tell leave it out (the leak test is then skipped).
   */
  readonly assertNoLeaks?: () => void;
  /**
   * False for a build whose allocator aborts the process when an allocation fails (a sanitizer build): it
   * cannot survive a memory limit, so its memory-limit tests are not declared.
   */
  readonly survivesMemoryLimit?: boolean;
  /** The groups of tests to declare; every group by default. */
  readonly groups?: readonly ContractGroup[];
}

/** The contract's groups of tests, by the part of the engine's promise they check. */
export const CONTRACT_GROUPS = ['semantics', 'failures', 'limits', 'clock', 'hostile', 'state', 'syntax'] as const;
export type ContractGroup = (typeof CONTRACT_GROUPS)[number];

/**
 * The evaluator contract of core/scripting.ts (docs/behaviour.md, docs/api-execution.md), as one suite that every
 * script engine runs: `describeScriptEngineContract('my-engine', () => createMyEngine())`.
 */
export function describeScriptEngineContract(
  name: string,
  makeEngine: () => ScriptEngine | Promise<ScriptEngine>,
  hooks: ContractHooks = {},
): void {
  describe(`script engine contract: ${name}`, () => {
    const pool = new SandboxPool();

    beforeAll(async () => {
      pool.engine = await makeEngine();
    });

    afterEach(() => {
      pool.disposeAll();
      hooks.assertNoLeaks?.();
    });

    const groups: Record<ContractGroup, () => void> = {
      semantics: () => describeSemantics(pool),
      failures: () => describeFailures(pool),
      limits: () => describeLimits(pool, hooks),
      clock: () => describeClock(pool),
      hostile: () => describeHostileScripts(pool),
      state: () => describeState(pool, hooks),
      syntax: () => describeSyntax(pool),
    };
    for (const group of hooks.groups ?? CONTRACT_GROUPS) groups[group]();
  });
}
