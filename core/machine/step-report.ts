import type { Machine, Step } from './machine.js';

/** What a step description carries beyond the element: GraphWalker's `--verbose` and `--unvisited`. */
export interface StepReportOptions {
  /** The element id, the current model's variables, the element's properties and actions. */
  readonly verbose?: boolean;
  /** How many elements the current model has, and which of them the walk has not stepped on yet. */
  readonly unvisited?: boolean;
  /** Where the walk stands after the step, as GraphWalker's WebSocket service pushes it ({@link StepProgress}). */
  readonly progress?: boolean;
}

/** What GraphWalker's WebSocket service says of each step (its `visitedElement` message) beside the element. */
export interface StepProgress {
  /** The model's name as the file gives it, not its base name; absent when it has none. */
  readonly modelName?: string;
  /** How often the walk has stepped on this element, this step included. */
  readonly visitedCount: number;
  /** Steps since the load or restart. */
  readonly totalCount: number;
  /** How far the current model's stop condition is fulfilled, 0 to 1. */
  readonly fulfilment: number;
  /** The current model's variables (not the shared `global.` ones), each value as a string. */
  readonly data: Readonly<Record<string, string>>;
}

/** An element of the current model not yet visited; the id only in verbose reports, the name only when it has one. */
export interface UnvisitedElement {
  readonly elementName?: string;
  readonly elementId?: string;
}

/**
 * What a step says of itself beside its name, in GraphWalker's shapes (its `Util.getStepAsJSON`): lists of
 * single-member objects for data and properties, `Action` with a capital A. Members that do not apply are
 * left out, never null, so a serialiser writes only what is there.
 */
export interface StepReport {
  /** The base name of the model's name; absent when the model has none. */
  readonly modelName?: string;
  readonly currentElementID?: string;
  /** The current model's variables (not the shared `global.` ones), each value as a string. */
  readonly data?: readonly Readonly<Record<string, string>>[];
  /** The element's properties, values as the model file gives them. */
  readonly properties?: readonly Readonly<Record<string, unknown>>[];
  /** Only when the element has actions. */
  readonly actions?: readonly { readonly Action: string }[];
  readonly numberOfElements?: number;
  readonly numberOfUnvisitedElements?: number;
  readonly unvisitedElements?: readonly UnvisitedElement[];
  readonly progress?: StepProgress;
}

/**
 * GraphWalker's model name for a step: the name without any path up to the last `/` or `\` and without an
 * extension from the last `.` (Apache's `FilenameUtils.getBaseName`), so `shop/Cart.json` is `Cart`.
 * Test clients such as AltWalker call the class of that name.
 */
export function modelBaseName(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return dot < 0 ? base : base.slice(0, dot);
}

/**
 * Describes the step the machine has just taken, after the element's actions ran. Cheap without options (one
 * member); the verbose and unvisited members cost a read of the variables and a pass over the unvisited
 * elements, so they are built only when asked for.
 */
export function reportStep(machine: Machine, step: Step, options: StepReportOptions = {}): StepReport {
  const g = machine.graph;
  const model = g.models[step.modelIndex];
  const report: { -readonly [K in keyof StepReport]: StepReport[K] } = {};
  const modelName = modelBaseName(model.name);
  if (modelName !== undefined) report.modelName = modelName;
  if (options.verbose === true) {
    report.currentElementID = step.id;
    report.data = machine.modelVariables().map(([name, value]) => ({ [name]: value }));
    report.properties = Object.entries(g.properties[step.element]).map(([key, value]) => ({ [key]: value }));
    const actions = g.actions[step.element];
    if (actions.length > 0) report.actions = actions.map((Action) => ({ Action }));
  }
  if (options.unvisited === true) {
    const unvisited = machine.unvisitedElements(step.modelIndex);
    report.numberOfElements = model.vertices.length + model.edges.length;
    report.numberOfUnvisitedElements = unvisited.length;
    report.unvisitedElements = unvisited.map((e) => {
      const item: { elementName?: string; elementId?: string } = {};
      const name = g.names[e];
      if (name !== undefined) item.elementName = name;
      if (options.verbose === true) item.elementId = g.ids[e];
      return item;
    });
  }
  if (options.progress === true) {
    report.progress = {
      ...(model.name === undefined ? {} : { modelName: model.name }),
      visitedCount: machine.visits(step.element),
      totalCount: machine.steps,
      fulfilment: machine.fulfilment(),
      data: Object.fromEntries(machine.modelVariables()),
    };
  }
  return report;
}
