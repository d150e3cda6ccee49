import { afterEach, beforeAll, describe } from 'vitest';
import type { ScriptEngine } from '../../../core/scripting.js';
import { SandboxPool } from './contract-helpers.js';
import { describeFailures } from './contract-failures.js';
import { describeSemantics } from './contract-semantics.js';
import { describeState } from './contract-state.js';

/** Engine-specific hooks of the contract suite. */
export interface ContractHooks {
  /**
   * Throws when the engine still holds memory after every sandbox of a test was disposed. Called after
   * every test; engines that cannot tell leave it out (the leak test is then skipped).
   */
  readonly assertNoLeaks?: () => void;
}

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

    describeSemantics(pool);
    describeFailures(pool);
    describeState(pool, hooks);
  });
}
