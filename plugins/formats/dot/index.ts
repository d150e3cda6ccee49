import type { ModelFormat } from '../../../core/format.js';
import type { EdgeJson, ModelFileJson, ModelJson, VertexJson } from '../../../core/model/types.js';
import { isLabelName } from '../graphml/label-names.js';
import { vertexView } from '../graphml/label-writer.js';

/**
 * Graphviz DOT, for pictures of models (`walker convert -f dot | dot -Tsvg`): write-only. Labels are
 * GraphWalker's: a vertex's name, an edge's name with `[guard]` and `/actions` on lines of their own, and
 * `Start -> v` for a start edge. A name or shared state that the label grammar would not read as itself alone
 * (`e_Logout [false]` reads as a name and a guard) is written as a JSON string, in double quotes, so that
 * the picture shows it as one name. Several models are clusters of one graph, and vertices that share a state
 * are joined by dashed lines.
 */
export const dotFormat: ModelFormat = {
  name: 'dot',
  aliases: ['graphviz'],
  extensions: ['.dot', '.gv'],
  mediaType: 'text/vnd.graphviz',
  write: writeDot,
};

function writeDot(file: ModelFileJson): string {
  const single = file.models.length === 1;
  const lines = [`digraph ${quote(single ? (file.models[0].name ?? file.models[0].id) : (file.name ?? 'models'))} {`];
  file.models.forEach((model, i) => {
    const prefix = single ? '' : `${model.id}/`;
    const indent = single ? '  ' : '    ';
    if (!single) lines.push(`  subgraph ${quote(`cluster_${i}`)} {`, `    label=${quote(model.name ?? model.id)};`);
    for (const line of modelLines(model, prefix)) lines.push(indent + line);
    if (!single) lines.push('  }');
  });
  for (const line of sharedStateLines(file.models, single)) lines.push(line);
  lines.push('}', '');
  return lines.join('\n');
}

function modelLines(model: ModelJson, prefix: string): string[] {
  const lines = model.vertices.map((v) => `${quote(prefix + v.id)} [label=${quote(vertexLabel(v))}];`);
  // The Start point is no vertex; its name must not be one.
  const ids = new Set(model.vertices.map((v) => prefix + v.id));
  let start = `${prefix}Start`;
  while (ids.has(start)) start += '_';
  if (model.edges.some((e) => e.sourceVertexId === undefined)) lines.push(`${quote(start)} [label="Start", shape=point];`);
  for (const edge of model.edges) {
    const source = edge.sourceVertexId === undefined ? start : prefix + edge.sourceVertexId;
    lines.push(`${quote(source)} -> ${quote(prefix + edge.targetVertexId)} [label=${quote(edgeLabel(edge))}];`);
  }
  return lines;
}

function vertexLabel(vertex: VertexJson): string {
  const name = labelName(vertex.name);
  if (vertex.sharedState === undefined) return name;
  const state = vertexView('sharedState', vertex.sharedState) === vertex.sharedState ? vertex.sharedState : JSON.stringify(vertex.sharedState);
  return `${name}\nSHARED: ${state}`;
}

function edgeLabel(edge: EdgeJson): string {
  let label = labelName(edge.name);
  if (edge.guard !== undefined) label += `\n[${edge.guard}]`;
  if (edge.actions !== undefined && edge.actions.length > 0) label += `\n/${edge.actions.join('')}`;
  return label;
}

/** A name as the label shows it: as it is where the grammar reads it so, else as a JSON string. */
function labelName(name: string | undefined): string {
  if (name === undefined) return '';
  return isLabelName(name) ? name : JSON.stringify(name);
}

/** Dashed lines between vertices of different models that share a state: where a walk may jump. */
function sharedStateLines(models: readonly ModelJson[], single: boolean): string[] {
  if (single) return [];
  const byState = new Map<string, string[]>();
  for (const model of models) {
    for (const v of model.vertices) {
      if (v.sharedState === undefined) continue;
      const ids = byState.get(v.sharedState);
      if (ids === undefined) byState.set(v.sharedState, [`${model.id}/${v.id}`]);
      else ids.push(`${model.id}/${v.id}`);
    }
  }
  const lines: string[] = [];
  for (const [state, ids] of byState) {
    for (let i = 1; i < ids.length; i++) {
      lines.push(`  ${quote(ids[0])} -> ${quote(ids[i])} [style=dashed, dir=none, constraint=false, label=${quote(state)}];`);
    }
  }
  return lines;
}

/** A DOT string: quotes and backslashes escaped, line breaks as Graphviz's `\n`. */
function quote(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`).replace(/\r?\n/g, '\\n')}"`;
}
