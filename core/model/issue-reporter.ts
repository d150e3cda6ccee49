/**
 * Codes of {@link ModelIssue}s. They are part of the public API (the draft validation endpoint and `walker check`
 * show them), so a code keeps its meaning forever; new problems get new codes.
 */
export const ModelIssueCodes = {
  /** The value is not an object with a `models` array. */
  NOT_A_MODEL_FILE: 'not_a_model_file',
  /** A field has the wrong type (e.g. `actions` is not a list of strings). */
  INVALID_FIELD: 'invalid_field',
  /** Two elements of one model (vertices and edges together) have the same id. */
  DUPLICATE_ELEMENT_ID: 'duplicate_element_id',
  /** An edge has no `targetVertexId`. */
  MISSING_TARGET_VERTEX: 'missing_target_vertex',
  /** `sourceVertexId` or `targetVertexId` names no vertex of the edge's model. */
  UNKNOWN_VERTEX: 'unknown_vertex',
  /** `startElementId` names no element of the model, or one left out because it is blocked. */
  UNKNOWN_START_ELEMENT: 'unknown_start_element',
  /** No model of the file has a start element. */
  NO_START_ELEMENT: 'no_start_element',
  /** An item of `predefinedPathEdgeIds` names no edge of the model, or one left out because it is blocked. */
  UNKNOWN_PREDEFINED_PATH_EDGE: 'unknown_predefined_path_edge',
  /** `weight` is not a number from 0 to 1. */
  INVALID_WEIGHT: 'invalid_weight',
  /** `dependency` is not an integer from 0 to 100. */
  INVALID_DEPENDENCY: 'invalid_dependency',
  /** Two models of the file have the same id. */
  DUPLICATE_MODEL_ID: 'duplicate_model_id',
  /** Warning: the walk can never reach the element from any start element. */
  UNREACHABLE_ELEMENT: 'unreachable_element',
  /**
   * Warning: `sourceVertexId` names no vertex of the model. GraphWalker then reads the edge without a source, so it
   * can only start the walk; reported for an edge that does not.
   */
  UNKNOWN_SOURCE_VERTEX: 'unknown_source_vertex',
  /** Warning: a model without `startElementId` has more than one edge that could start the walk. */
  AMBIGUOUS_START: 'ambiguous_start',
  /** Warning: a model has neither a start element nor a shared state, so the walk never enters it. */
  NO_START_NOR_SHARED_STATE: 'no_start_nor_shared_state',
  /** Warning: an item of `requirements` is an empty string. */
  EMPTY_REQUIREMENT: 'empty_requirement',
  /** Warning: an item of `actions` is an empty string (or only white space). */
  EMPTY_ACTION: 'empty_action',
  /** Warning: a vertex has no name, or an empty one. */
  UNNAMED_VERTEX: 'unnamed_vertex',
  /** Warning: the name of a vertex or edge holds white space. */
  WHITE_SPACE_IN_NAME: 'white_space_in_name',
  /** Warning: an edge without a name leads from a vertex back to it. */
  UNNAMED_SELF_LOOP: 'unnamed_self_loop',
  /**
   * A model walked by a random generator to 100 % edge or vertex coverage has vertices the walk can reach but not
   * leave: a warning for one (the walk may end there too early), an error for several (it always does).
   */
  DEAD_END: 'dead_end',
  /**
   * Warning: no state the walk can reach lets the edge through (guards and actions explored, docs/planning.md):
   * its guard never holds where the walk stands, or guards keep every walk from its source vertex.
   */
  CLOSED_EDGE: 'closed_edge',
  /**
   * Warning: a goal the guards close from every state the model's own actions lead to, on a walk whose client
   * may set data (online): refused when only the model writes the variables (offline), docs/planning.md.
   */
  GOAL_NEEDS_DATA: 'goal_needs_data',
  /** Warning: the walk reaches more states than its planning bound (`--plan-states`), so plans are made on the fly (docs/planning.md). */
  PLAN_BOUND: 'plan_bound',
  /** A guard, an action or a model action does not parse (found by the script engine, without running it). */
  SCRIPT_SYNTAX: 'script_syntax',
} as const;

/** One of {@link ModelIssueCodes}. */
export type ModelIssueCode = (typeof ModelIssueCodes)[keyof typeof ModelIssueCodes];

/** One problem found in a model file. */
export interface ModelIssue {
  /** Stable snake_case code, see {@link ModelIssueCodes}. Typed as string so other checkers can add codes. */
  code: string;
  /** What is wrong and what to fix, naming model, element and field, e.g.
   * `model 'Login', edge 'e3', field 'targetVertexId': names no vertex of this model ('n9')`. */
  message: string;
  /** An `error` makes the file unusable; a `warning` does not. */
  severity: 'error' | 'warning';
  /** Id of the model (as normalised: a generated id when the file gave none), or null for file-level issues. */
  modelId: string | null;
  /** Id of the vertex or edge, or null. */
  elementId: string | null;
  /** The field as spelled in the file, with `[i]` for an item of a list (`actions[2]`), or null. */
  field: string | null;
}

/** The kind of element an issue is about, as named in messages. */
export type ElementKind = 'vertex' | 'edge';

/**
 * Collects issues for one place in the file. The model and element are set as the checker moves along, so that
 * the per-element code stays free of closures and location arguments (loading 60,000 elements is a hot path).
 */
export class IssueReporter {
  readonly issues: ModelIssue[] = [];
  private kind: ElementKind | null = null;
  private elementId: string | null = null;

  constructor(private readonly modelId: string | null = null) {}

  /** Issues from now on are about this element (null: about the model itself). */
  at(kind: ElementKind | null, elementId: string | null): void {
    this.kind = kind;
    this.elementId = elementId;
  }

  error(code: string, field: string | null, problem: string): void {
    this.add(code, 'error', field, problem);
  }

  warning(code: string, field: string | null, problem: string): void {
    this.add(code, 'warning', field, problem);
  }

  /** Shorthand for the most common issue. */
  invalidField(field: string, problem: string): void {
    this.add(ModelIssueCodes.INVALID_FIELD, 'error', field, problem);
  }

  private add(code: string, severity: ModelIssue['severity'], field: string | null, problem: string): void {
    const where: string[] = [];
    if (this.modelId !== null) where.push(`model '${this.modelId}'`);
    if (this.elementId !== null) where.push(`${this.kind ?? 'element'} '${this.elementId}'`);
    if (field !== null) where.push(`field '${field}'`);
    const message = where.length ? `${where.join(', ')}: ${problem}` : problem;
    this.issues.push({ code, message, severity, modelId: this.modelId, elementId: this.elementId, field });
  }
}
