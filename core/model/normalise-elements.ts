import { EDGE, LEFT_OUT, type ElementScope } from './element-scope.js';
import {
  describeValue,
  isBlocked,
  isObject,
  readDependency,
  readProperties,
  readText,
  readTextList,
  readWeight,
  type RawObject,
} from './fields.js';
import { checkEdgeName, checkEmptyItems, checkVertexName } from './element-rules.js';
import { ModelIssueCodes, type IssueReporter } from './issue-reporter.js';
import type { EdgeJson, VertexJson } from './types.js';

/** Why a blocked element is left out, for messages that name it. */
const BLOCKED_REASON = 'it is blocked (properties.blocked)';

/**
 * Normalises `vertices[index]`. Returns undefined when the vertex is not an object or is left out because it is
 * blocked; its problems are reported to the scope either way.
 */
export function normaliseVertex(raw: unknown, index: number, scope: ElementScope): VertexJson | undefined {
  if (!isElementObject(raw, `vertices[${index}]`, scope.issues)) return undefined;
  const r = scope.issues;
  // Built field by field so that the output has exactly the canonical fields, in the order of types.ts.
  const vertex = { id: scope.claimId(raw, 'vertex', index) } as VertexJson;
  const name = readText(raw.name, 'name', r);
  if (name !== undefined) vertex.name = name;
  const sharedState = readText(raw.sharedState, 'sharedState', r);
  if (sharedState) vertex.sharedState = sharedState;
  copyCommonFields(raw, vertex, r);
  if (scope.blocked && isBlocked(vertex.properties)) {
    scope.leaveOut(vertex.id, BLOCKED_REASON);
    return undefined;
  }
  // A name of the wrong type is reported as that already.
  if (vertex.name !== undefined || raw.name === undefined || raw.name === null) checkVertexName(vertex, r);
  checkEmptyItems(vertex, r);
  return vertex;
}

/**
 * Normalises `edges[index]` and checks its vertex ids. Returns undefined when the edge is not an object, is
 * blocked, or touches a blocked vertex (GraphWalker drops a blocked vertex with all its edges).
 */
export function normaliseEdge(raw: unknown, index: number, scope: ElementScope): EdgeJson | undefined {
  if (!isElementObject(raw, `edges[${index}]`, scope.issues)) return undefined;
  const r = scope.issues;
  const edge = { id: scope.claimId(raw, 'edge', index) } as EdgeJson;
  const name = readText(raw.name, 'name', r);
  if (name !== undefined) edge.name = name;
  // An empty or null source is how editors write a start edge.
  const source = readText(raw.sourceVertexId, 'sourceVertexId', r);
  if (source) edge.sourceVertexId = source;
  const target = readText(raw.targetVertexId, 'targetVertexId', r);
  edge.targetVertexId = target ?? '';
  const guard = readText(raw.guard, 'guard', r);
  if (guard !== undefined && guard.trim() !== '') edge.guard = guard;
  copyCommonFields(raw, edge, r);
  const weight = readWeight(raw.weight, r, scope.forConversion);
  if (weight !== undefined) edge.weight = weight;
  const dependency = readDependency(raw.dependency, r, scope.forConversion);
  if (dependency !== undefined) edge.dependency = dependency;

  if (scope.blocked && isBlocked(edge.properties)) {
    // A blocked edge takes no part in the walk, so its vertex ids do not need to resolve.
    scope.leaveOut(edge.id, BLOCKED_REASON);
    return undefined;
  }
  if (!resolveEnds(edge, raw, scope)) return undefined;
  checkEdgeName(edge, r);
  checkEmptyItems(edge, r);
  return edge;
}

/**
 * Checks both vertex ids of a kept edge; false when it cannot be kept (the target is unknown, or an end is
 * blocked). A source that names no vertex is dropped, as GraphWalker's reader drops it: the edge can then
 * only start the walk (java-style models write `"sourceVertexId": "Start"` for their start edge).
 */
function resolveEnds(edge: EdgeJson, raw: RawObject, scope: ElementScope): boolean {
  const source = edge.sourceVertexId;
  if (source !== undefined && scope.flagsOf(source) === undefined) {
    delete edge.sourceVertexId;
    scope.noteUnknownSource(edge.id, source);
  }
  const kept = edge.sourceVertexId === undefined || endKept(edge, edge.sourceVertexId, 'sourceVertexId', scope);
  if (edge.targetVertexId !== '') return endKept(edge, edge.targetVertexId, 'targetVertexId', scope) && kept;
  const given = raw.targetVertexId === undefined || raw.targetVertexId === null ? 'is missing' : 'is empty';
  const problem = `Edge must have a target vertex: targetVertexId ${given}; give the id of the vertex it leads to`;
  scope.issues.error(ModelIssueCodes.MISSING_TARGET_VERTEX, 'targetVertexId', problem);
  return false;
}

/** False when the vertex id is unknown (reported) or names a blocked vertex (the edge is left out with it). */
function endKept(edge: EdgeJson, vertexId: string, field: string, scope: ElementScope): boolean {
  const flags = scope.flagsOf(vertexId);
  if (flags === undefined || flags & EDGE) {
    const problem =
      flags === undefined
        ? `names no vertex of this model ('${vertexId}')`
        : `names an edge ('${vertexId}'), not a vertex`;
    scope.issues.error(ModelIssueCodes.UNKNOWN_VERTEX, field, problem);
    return false;
  }
  if ((flags & LEFT_OUT) === 0) return true;
  const end = field === 'sourceVertexId' ? 'source' : 'target';
  scope.leaveOut(edge.id, `its ${end} vertex '${vertexId}' is blocked`);
  return false;
}

/** The fields vertices and edges share, after their own ones (the canonical field order). */
function copyCommonFields(raw: RawObject, element: VertexJson | EdgeJson, r: IssueReporter): void {
  const actions = readTextList(raw.actions, 'actions', r);
  if (actions !== undefined) element.actions = actions;
  const requirements = readTextList(raw.requirements, 'requirements', r);
  if (requirements !== undefined) element.requirements = requirements;
  const properties = readProperties(raw.properties, r);
  if (properties !== undefined) element.properties = properties;
}

/** True when the value is an object; otherwise reports it against its position in the list. */
function isElementObject(raw: unknown, position: string, r: IssueReporter): raw is RawObject {
  if (isObject(raw)) return true;
  r.at(null, null);
  r.invalidField(position, `must be an object, got ${describeValue(raw)}`);
  return false;
}
