import { writeFile } from 'node:fs/promises';
import type { Machine } from '../core/machine/machine.js';
import { RunnerError, RunnerErrorCodes } from './errors.js';
import { failedStepLine, type WalkOutcome } from './run-result.js';

/**
 * The HTML report of `walker offline --report` for a run: the walk as it ended, whose failed model and the
 * failure's reason (model, element and message, from the walk's `fail`) the page shows, and the path, whose
 * last step is the failing one. A failed test's step is named too, so that the page marks it: its element,
 * its line in the last steps, and its place on the replay slider.
 */
export async function writeReport(file: string, machine: Machine, outcome: WalkOutcome, title: string): Promise<void> {
  const { reportMessage, reportPage } = await import('../server/view/report-page.js');
  const f = outcome.failure;
  const failed = f?.step === undefined ? undefined : { step: f.step.index, element: f.step.element, text: failedStepLine(f.step, f) };
  try {
    await writeFile(file, reportPage(reportMessage(machine, outcome.path, title, failed)));
  } catch (error) {
    throw new RunnerError(RunnerErrorCodes.OPTION, `Could not write the report '${file}': ${(error as Error).message}`);
  }
}
