/**
 * walker's core as a library: load model files, walk them offline with a seed, read statistics and data,
 * and the contracts plugin packages implement. See docs/library.md.
 */
export { Walker, type OpenOptions } from './walker.js';
export { Machine, NO_MORE_STEPS_MESSAGE, NO_GENERATOR_MESSAGE, type MachineOptions, type Step } from './machine/machine.js';
export type {
  WalkStatistics,
  ModelStatus,
  UnvisitedEdge,
  UnvisitedVertex,
  RequirementItem,
  FailedRequirementItem,
} from './machine/statistics.js';
export { reportStep, modelBaseName, type StepReport, type StepReportOptions, type UnvisitedElement } from './machine/step-report.js';
export { Graph, type ModelInfo } from './model/graph.js';
export type { ModelFileJson, ModelJson, VertexJson, EdgeJson } from './model/types.js';
export { loadModelFile, loadModelText, readModelFile, parseModelText, type LoadedModelFile, type ReadModelOptions } from './model/load.js';
export type { ModelFormat, ModelSource } from './format.js';
export { formatOf, readModelValue, type ModelFormats } from './model/formats.js';
export { jsonFormat } from './model/json-format.js';
export { collectModelIssues, type ModelIssue } from './model/issues.js';
export { inspectModelSet, type ModelSetPart, type ModelSetInspection, type FileIssue } from './model/model-set.js';
export { scriptSyntaxIssues } from './model/script-syntax.js';
export { checkModelFiles, type CheckTarget, type CheckFinding } from './check.js';
export { parseGenerators, printGenerators } from './language/parser.js';
export type { GeneratorExpr, ConditionExpr, ConditionCall, ConditionGroup } from './language/ast.js';
export { Registry, type Named } from './registry.js';
export {
  createRegistries,
  installPlugins,
  isWalkerPlugin,
  scriptEngineOf,
  type Registries,
  type WalkerPlugin,
} from './plugin.js';
export { loadPlugin } from './plugin-loader.js';
export {
  ExecutionSession,
  NOT_LOADED_MESSAGE,
  type SessionDefaults,
  type SessionLoadOptions,
  type SessionLoadResult,
} from './session.js';
export type { PathGenerator, PathGeneratorFactory, PathGeneratorName, PathGeneratorNames, GeneratorInit } from './generator.js';
export type {
  StopCondition,
  StopConditionFactory,
  StopConditionName,
  StopConditionNames,
  ConditionArgument,
  ConditionArgumentValue,
} from './condition.js';
export type { WalkState, WalkScope, RequirementCounts } from './walk-state.js';
export {
  DEFAULT_SCRIPT_LIMITS,
  type ScriptEngine,
  type ScriptKind,
  type ScriptSyntaxError,
  type ScriptSandbox,
  type SandboxOptions,
  type SandboxReservation,
  type ScriptLimits,
  type GuardSet,
  withReservation,
  actionScriptsOf,
  SHARED_VARIABLE_PREFIX,
  SNAPSHOT_SEPARATOR,
} from './scripting.js';
export { DEFAULT_WALK_SETTINGS, walkSettings, type WalkSettings, type WalkSettingsInput } from './walk-settings.js';
// What an engine's host stepper (ScriptEngine.hostStepper) answers the planner with.
export {
  CLOSED,
  OPEN,
  MAYBE,
  UNPREDICTABLE,
  HostStepperDeclined,
  type HostStepper,
  type StateStepper,
} from './planning/state-space.js';
export { createRandom, freshSeed, isSeed, SeededRandom, type RandomSource } from './random.js';
export {
  ErrorCodes,
  WalkerError,
  ModelError,
  GeneratorSyntaxError,
  UnknownGeneratorNameError,
  ScriptError,
  type ErrorCode,
  type ModelLocation,
  type ScriptOrigin,
} from './errors.js';
export { VERSION, PACKAGE_NAME } from './version.js';
