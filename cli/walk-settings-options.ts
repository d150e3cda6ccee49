import { walkSettings, type WalkSettings } from '../core/walk-settings.js';

/**
 * The option fields of a command that walks, as its class declares them (`planStates = planStatesOption()`,
 * common-options.ts and script-options.ts); a command that lacks one leaves that setting at its default.
 */
export interface WalkSettingsFields {
  readonly seed?: number;
  readonly blocked?: boolean;
  readonly scriptTimeout?: number;
  readonly scriptBudget?: number;
  readonly scriptMemory?: number;
  readonly realClock?: boolean;
  readonly planStates?: number;
  readonly planTime?: number;
}

/** The walk settings a command's options ask for: the one place the command line turns them into {@link WalkSettings}. */
export function walkSettingsOf(command: WalkSettingsFields): WalkSettings {
  return walkSettings({
    seed: command.seed,
    blocked: command.blocked,
    scriptLimits: { timeoutMs: command.scriptTimeout, budgetMs: command.scriptBudget, memoryBytes: command.scriptMemory, realClock: command.realClock },
    planStates: command.planStates,
    planTimeMs: command.planTime,
  });
}
