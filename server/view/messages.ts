/**
 * What the web view reads: the JSON of `GET /walker/view/...`, the data of each Server-Sent Event of
 * `.../events`, and the data a report carries inline (docs/view.md). One shape for all three, so that the page
 * and the report draw from the same data with the same code. The page's bundle imports this module too: it
 * holds types, and the one rule both sides read them by.
 */
import type { CoverageFigures, GraphShape, ModelShape } from '../../core/machine/walk-view.js';
import type { ModelStatus } from '../../core/machine/statistics.js';

export type { CoverageFigures, EdgeShape, GraphShape, ModelShape, VertexShape } from '../../core/machine/walk-view.js';
/** The draft API's answers, as the page's editor (web/editor/, docs/editor.md) holds the drafts it edits. */
export type { DraftSummary, EdgeEnvelope, VertexEnvelope } from '../drafts/responses.js';

/** One step as the view lists it among the last ones. */
export interface StepSeen {
  readonly index: number;
  readonly id: string;
  readonly name: string;
  readonly modelId: string;
}

/** Where a walk stands, as the view shows it. */
export interface WalkState {
  readonly steps: number;
  /** Element index the walk stands on; -1 before the first step. */
  readonly current: number;
  readonly statuses: readonly ModelStatus[];
  readonly statistics: CoverageFigures;
  /** As getData lists them: the current model's, then the shared ones as `global.<name>`. */
  readonly variables: ReadonlyArray<readonly [string, string]>;
  /**
   * Why the variables could not be read, when reading them failed (a getter that ran past the script limits):
   * `variables` is then empty, and the page shows them as unavailable.
   */
  readonly variablesUnavailable?: string;
  /** The reason of the last fail, if any. */
  readonly failure?: string;
  /** The last steps, oldest first, since someone began to watch the walk (or since its load or restart). */
  readonly lastSteps: readonly StepSeen[];
  /** Visit count per element index, whole: with every graph, and to a reader that missed a message. */
  readonly visits?: readonly number[];
  /** Otherwise what changed since the stream's previous message: element index and new count, in pairs. */
  readonly visitChanges?: readonly number[];
}

/** A session's walk: `GET /walker/view/session[s/{id}]` and each event of its stream. */
export interface WalkMessage {
  readonly kind: 'walk';
  /** `default` for the session of `/walker`, else the session's id. */
  readonly session: string;
  /** Counts the session's loads: a new number comes with a new graph. */
  readonly load: number;
  /** The models: in the first message of a stream and after every load; null before the first load. */
  readonly graph?: GraphShape | null;
  /**
   * In a stream, in place of a graph of more than 256 KiB of JSON: its size. The graph is read once with `GET`
   * of the same route without `/events`, so that a stream costs little whatever the model.
   */
  readonly graphBytes?: number;
  /** Null before the first load. */
  readonly walk: WalkState | null;
}

/** An issue of a draft's validation, as `GET /walker/drafts/{id}/validation` lists it. */
export interface DraftIssue {
  readonly code: string;
  readonly message: string;
  readonly severity: 'error' | 'warning';
  readonly element_id: string | null;
}

/** A draft: `GET /walker/view/drafts/{id}` and each event of its stream. */
export interface DraftMessage {
  readonly kind: 'draft';
  readonly draft: string;
  readonly revision: number;
  readonly graph: GraphShape;
  readonly valid: boolean;
  readonly issues: readonly DraftIssue[];
}

/** The last event of a stream whose session or draft is gone (deleted, expired, closed). */
export interface GoneMessage {
  readonly kind: 'gone';
  readonly code: string;
  readonly message: string;
}

/** What `walker offline --report` writes into its page: the walk at its end, and the path to replay. */
export interface ReportMessage {
  readonly kind: 'report';
  /** The model files walked, as given. */
  readonly title: string;
  readonly seed: number;
  readonly graph: GraphShape;
  /** The walk at its end, visits whole. */
  readonly walk: WalkState;
  /** The element index of every step, in order; a very long walk keeps its first steps only (docs/view.md). */
  readonly path: readonly number[];
  /** False when {@link path} stops before the walk did. */
  readonly pathComplete: boolean;
  /** The step whose test failed, in a run's report (`walker run --report`): the page marks it. */
  readonly failed?: FailedStep;
}

/** A failed step: its 1-based place in the path, its element and what failed, in one line. */
export interface FailedStep {
  readonly step: number;
  readonly element: number;
  readonly text: string;
}

export type ViewMessage = WalkMessage | DraftMessage | GoneMessage | ReportMessage;

/**
 * Whether the model file places every vertex of the model (yEd's geometry, GraphWalker's `x` and `y`): the page
 * then draws it there, and needs no layout for it; a report of such models leaves the layout out.
 */
export function placedInFile(model: ModelShape): boolean {
  return model.vertices.length > 0 && model.vertices.every((v) => v.x !== undefined);
}
