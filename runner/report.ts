import { writeFile } from 'node:fs/promises';
import type { Machine } from '../core/machine/machine.js';
import { RunnerError, RunnerErrorCodes } from './errors.js';
import type { WalkOutcome } from './run-result.js';

/**
 * The HTML report of `walker offline --report` for a run: the walk as it ended, whose failed model and the
 * failure's reason (model, element and message, from the walk's `fail`) the page shows, and the path, whose
 * last step is the failing one.
 */
export async function writeReport(file: string, machine: Machine, outcome: WalkOutcome, title: string): Promise<void> {
  const { reportMessage, reportPage } = await import('../server/view/report-page.js');
  try {
    await writeFile(file, reportPage(reportMessage(machine, outcome.path, title)));
  } catch (error) {
    throw new RunnerError(RunnerErrorCodes.OPTION, `Could not write the report '${file}': ${(error as Error).message}`);
  }
}
