import { setImmediate as nextTurn } from 'node:timers/promises';
import type { GraphShape } from '../../core/machine/walk-view.js';

/** Elements serialised between two turns of the event loop: a few ms of work, for names of 300 characters. */
const ELEMENTS_PER_TURN = 1_000;

/**
 * A graph shape as JSON, in parts, made over several turns of the event loop: the JSON of a large model made in
 * one piece would hold every other client for as long as it takes.
 * `JSON.parse` of the parts joined equals the shape (members may come in another order).
 */
export async function serialiseGraph(shape: GraphShape): Promise<Buffer[]> {
  const parts: Buffer[] = [];
  let text = '';
  let elements = 0;
  /** Adds one element's JSON; hands the text over as a part, and lets the loop turn, every so many. */
  const element = async (json: string): Promise<void> => {
    text += json;
    if (++elements % ELEMENTS_PER_TURN !== 0) return;
    parts.push(Buffer.from(text));
    text = '';
    await nextTurn();
  };
  const { models, ...graph } = shape;
  text += `${opening(graph)}"models":[`;
  for (let m = 0; m < models.length; m++) {
    const { vertices, edges, ...model } = models[m];
    text += `${m === 0 ? '' : ','}${opening(model)}"vertices":[`;
    for (let i = 0; i < vertices.length; i++) await element(`${i === 0 ? '' : ','}${JSON.stringify(vertices[i])}`);
    text += '],"edges":[';
    for (let i = 0; i < edges.length; i++) await element(`${i === 0 ? '' : ','}${JSON.stringify(edges[i])}`);
    text += ']}';
  }
  text += ']}';
  parts.push(Buffer.from(text));
  return parts;
}

/** An object's JSON without its closing brace, ready for more members: `{"a":1,` or `{`. */
function opening(members: object): string {
  const json = JSON.stringify(members);
  return json === '{}' ? '{' : `${json.slice(0, -1)},`;
}
