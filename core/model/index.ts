/**
 * The model file: its canonical types, loading and checking, the indexed {@link Graph} the machine walks, and a
 * generator of random models for benchmarks and tests.
 */
export type { EdgeJson, ModelFileJson, ModelJson, VertexJson } from './types.js';
export { Graph, type ModelInfo } from './graph.js';
export {
  collectModelIssues,
  inspectModelFile,
  isError,
  ModelIssueCodes,
  type ModelCheckOptions,
  type ModelIssue,
  type ModelIssueCode,
  type ModelIssueReport,
  type ModelInspection,
} from './issues.js';
export { loadModelFile, loadModelText, ModelIssuesError, parseModelText, readModelFile, type LoadedModelFile, type ReadModelOptions } from './load.js';
export { reachableElements } from './reachability.js';
export { generateModel, type GenerateModelOptions } from './generate.js';
