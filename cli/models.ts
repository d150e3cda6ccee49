/** The `-m` arguments of the commands: read by core, which the test runner shares (docs/runner.md). */
export { readModelArguments, readModelFiles, type ModelArguments, type ModelArgumentOptions } from '../core/model/model-arguments.js';
