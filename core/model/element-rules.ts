import { ModelIssueCodes, type IssueReporter } from './issue-reporter.js';
import type { EdgeJson, ModelJson, VertexJson } from './types.js';

/**
 * The conventions GraphWalker's model checker holds every element to, as warnings: none of them stops a walk,
 * but each marks something a test suite trips over later. Names become method names in generated test code
 * (and AltWalker calls methods by them), so a vertex needs one and no name may hold white space; an empty
 * requirement or action is almost always a slip of the editor. Each message starts with GraphWalker's own
 * words, so that its users recognise them, and goes on with what to do. Called for kept elements only, as
 * GraphWalker checks a model after leaving out its blocked elements.
 */

const WHITE_SPACE = /\s/;

/** A vertex's name: present, not empty, without white space. */
export function checkVertexName(vertex: VertexJson, r: IssueReporter): void {
  const name = vertex.name;
  if (name === undefined) {
    r.warning(ModelIssueCodes.UNNAMED_VERTEX, 'name', `Name of vertex cannot be null; ${NAME_IT}`);
  } else if (name === '') {
    r.warning(ModelIssueCodes.UNNAMED_VERTEX, 'name', `Name of vertex cannot be an empty string; ${NAME_IT}`);
  } else if (WHITE_SPACE.test(name)) {
    const problem = `Name of vertex cannot have any white spaces ('${name}'); ${NO_SPACES}`;
    r.warning(ModelIssueCodes.WHITE_SPACE_IN_NAME, 'name', problem);
  }
}

/** An edge's name, when it has one: without white space; and a self-loop needs one. */
export function checkEdgeName(edge: EdgeJson, r: IssueReporter): void {
  const name = edge.name;
  if (name !== undefined && WHITE_SPACE.test(name)) {
    const problem = `Name of edge cannot have any white spaces ('${name}'); ${NO_SPACES}`;
    r.warning(ModelIssueCodes.WHITE_SPACE_IN_NAME, 'name', problem);
  }
  if (!name && edge.sourceVertexId !== undefined && edge.sourceVertexId === edge.targetVertexId) {
    const problem =
      `Vertex: ${edge.sourceVertexId}, have a unnamed self loop edge; name the edge, so that a test can tell ` +
      'the loop from staying';
    r.warning(ModelIssueCodes.UNNAMED_SELF_LOOP, 'name', problem);
  }
}

/** Empty items of `requirements` and `actions` of a vertex, an edge or a model. */
export function checkEmptyItems(element: VertexJson | EdgeJson | ModelJson, r: IssueReporter): void {
  const { requirements, actions } = element;
  if (requirements !== undefined) {
    for (let i = 0; i < requirements.length; i++) {
      if (requirements[i].trim() !== '') continue;
      const problem = 'Requirement cannot be an empty string; write the requirement key, or remove the item';
      r.warning(ModelIssueCodes.EMPTY_REQUIREMENT, `requirements[${i}]`, problem);
    }
  }
  if (actions !== undefined) {
    for (let i = 0; i < actions.length; i++) {
      if (actions[i].trim() !== '') continue;
      const problem = 'Script statement cannot be an empty string; write the statement, or remove the item';
      r.warning(ModelIssueCodes.EMPTY_ACTION, `actions[${i}]`, problem);
    }
  }
}

const NAME_IT = 'give it a name: tests and generated code call a vertex by its name';
const NO_SPACES = 'tests and generated code use names as method names, which cannot hold spaces';
