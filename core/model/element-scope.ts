import { asText, describeValue, type RawObject } from './fields.js';
import { IssueReporter, ModelIssueCodes, type ElementKind } from './issue-reporter.js';

/** Flags of an element id in a {@link ElementScope}. */
export const VERTEX = 1;
export const EDGE = 2;
/** Left out of the walk: blocked, or an edge of a blocked vertex. */
export const LEFT_OUT = 4;

/**
 * The element ids of one model while it is being normalised: which id is a vertex or an edge, which are left out
 * and why, and deterministic ids for elements that have none. Numbers in one Map keep this cheap for models of
 * tens of thousands of elements.
 */
export class ElementScope {
  /** Element issues, in element order; the model's own issues are collected separately and come first. */
  readonly issues: IssueReporter;
  private readonly ids = new Map<string, number>();
  private readonly leftOutReasons = new Map<string, string>();
  /** Every explicit id of the model; built only when some element lacks an id. */
  private explicitIds: Set<string> | undefined;
  /** Edges whose `sourceVertexId` named no vertex, with the id it named, in edge order. */
  readonly unknownSources: Array<{ readonly edgeId: string; readonly named: string }> = [];

  constructor(
    readonly modelId: string,
    readonly blocked: boolean,
    /** The file is read to be converted, not walked: problems only a walk has are warnings (issues.ts). */
    readonly forConversion: boolean,
    private readonly rawVertices: readonly unknown[],
    private readonly rawEdges: readonly unknown[],
  ) {
    this.issues = new IssueReporter(modelId);
  }

  /** The flags of an id (see {@link VERTEX}, {@link EDGE}, {@link LEFT_OUT}), or undefined when unknown. */
  flagsOf(id: string): number | undefined {
    return this.ids.get(id);
  }

  /** Why an element was left out, as a clause after "because". */
  leftOutReason(id: string): string {
    return this.leftOutReasons.get(id) ?? 'it is blocked';
  }

  /**
   * Registers the element at `index` of the vertices or edges, points the reporter at it and returns its id:
   * the given one, or a generated one. A repeated id is reported (ids are unique per model, vertices and edges
   * together; the same id in two models is fine).
   */
  claimId(raw: RawObject, kind: ElementKind, index: number): string {
    let id = asText(raw.id);
    if (id === null) {
      this.issues.at(kind, null);
      const field = `${kind === 'vertex' ? 'vertices' : 'edges'}[${index}].id`;
      this.issues.invalidField(field, `must be a string, got ${describeValue(raw.id)}`);
      id = undefined;
    }
    if (id === undefined || id === '') id = this.generateId(kind, index);
    this.issues.at(kind, id);
    const flags = kind === 'vertex' ? VERTEX : EDGE;
    const earlier = this.ids.get(id);
    if (earlier === undefined) this.ids.set(id, flags);
    else {
      const other = earlier & VERTEX ? 'a vertex' : 'an edge';
      const problem =
        `Id of the ${kind} is not unique: '${id}' is already the id of ${other} of this model; element ids must ` +
        'be unique within a model';
      this.issues.error(ModelIssueCodes.DUPLICATE_ELEMENT_ID, 'id', problem);
    }
    return id;
  }

  /** Records an edge read without a source because its `sourceVertexId` named no vertex. */
  noteUnknownSource(edgeId: string, named: string): void {
    this.unknownSources.push({ edgeId, named });
  }

  /** Marks an element as left out of the walk. */
  leaveOut(id: string, reason: string): void {
    this.ids.set(id, (this.ids.get(id) ?? 0) | LEFT_OUT);
    if (!this.leftOutReasons.has(id)) this.leftOutReasons.set(id, reason);
  }

  /**
   * `<modelId>-v<index>` or `-e<index>`, never random, so that the same file always gets the same ids and a
   * seeded walk replays identically. Suffixed when the file already uses that id.
   */
  private generateId(kind: ElementKind, index: number): string {
    this.explicitIds ??= this.collectExplicitIds();
    const base = `${this.modelId}-${kind === 'vertex' ? 'v' : 'e'}${index}`;
    let id = base;
    for (let n = 2; this.explicitIds.has(id) || this.ids.has(id); n++) id = `${base}-${n}`;
    return id;
  }

  private collectExplicitIds(): Set<string> {
    const ids = new Set<string>();
    for (const list of [this.rawVertices, this.rawEdges]) {
      for (const element of list) {
        const id = typeof element === 'object' && element !== null ? asText((element as RawObject).id) : undefined;
        if (id) ids.add(id);
      }
    }
    return ids;
  }
}
