import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModelFile } from '../../../../core/model/load.js';
import { withInferredStarts } from '../../../../core/model/start-element.js';
import { decodeModelBytes } from '../../../../core/model/text-encoding.js';
import type { EdgeJson, ModelFileJson, ModelJson, VertexJson } from '../../../../core/model/types.js';
import { graphmlFormat } from '../../../../plugins/formats/graphml/index.js';

/** test/fixtures/models/graphml/: GraphWalker's yEd test models and ours (see the README there). */
const FOLDER = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'models', 'graphml');

function read(path: string): ModelFileJson {
  // In the encoding each declares, as the command line reads files.
  const text = decodeModelBytes(readFileSync(join(FOLDER, path)), path);
  // As a conversion answers it (convertGraphml, the editor's import): the start settled by core's rule.
  return withInferredStarts((graphmlFormat.read as NonNullable<typeof graphmlFormat.read>)(text, { path }));
}

function model(path: string): ModelJson {
  const file = read(path);
  expect(file.models).toHaveLength(1);
  return file.models[0];
}

const named = (m: ModelJson, name: string): (VertexJson | EdgeJson)[] => [...m.vertices, ...m.edges].filter((e) => e.name === name);
const edge = (m: ModelJson, name: string): EdgeJson => m.edges.find((e) => e.name === name) as EdgeJson;
const vertex = (m: ModelJson, name: string): VertexJson => m.vertices.find((v) => v.name === name) as VertexJson;
const names = (elements: readonly { name?: string }[]): (string | undefined)[] => elements.map((e) => e.name);

describe('GraphWalker and our yEd fixtures', () => {
  it('all read, but the three that GraphWalker refuses for their labels (and our broken guard)', () => {
    const files = readdirSync(FOLDER, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.graphml')).sort();
    expect(files).toHaveLength(42);
    const refused = files.filter((f) => {
      try {
        read(f);
        return false;
      } catch {
        return true;
      }
    });
    expect(refused).toEqual([
      'cli/IncorrectModels/badEdgeName.graphml',
      'cli/IncorrectModels/wrongVertexSyntax.graphml',
      'ours/BrokenGuard.graphml',
    ]);
  });

  it('name each model after its file and drop the Start vertex, whose edge becomes the start edge', () => {
    const m = model('cli/CorrectModels/simplestModel.graphml');
    expect(m.name).toBe('simplestModel');
    // yEd writes an empty description on every element; GraphWalker keeps it as the property "".
    expect(m.vertices).toEqual([{ id: 'n1', name: 'v1', properties: { description: '', x: 22.289375620039685, y: 77.96875 } }]);
    expect(m.edges).toEqual([{ id: 'e0', name: 'e1', targetVertexId: 'n1', properties: { description: '' } }]);
    expect(m.startElementId).toBe('e0');
  });

  it('read UC01 as GraphWalker does: 7 vertices, 12 edges, repeated names, the init edge and its actions', () => {
    const m = model('io/UC01.graphml');
    expect(m.vertices).toHaveLength(7);
    expect(m.edges).toHaveLength(12);
    expect(named(m, 'e_SearchBook')).toHaveLength(4);
    expect(named(m, 'e_ShoppingCart')).toHaveLength(3);
    const init = edge(m, 'e_init');
    expect(m.startElementId).toBe(init.id);
    expect(init.sourceVertexId).toBeUndefined();
    expect(init.targetVertexId).toBe(vertex(m, 'v_BrowserStopped').id);
    // `e_init / num_of_books = 0; MAX_BOOKS = 5;`: each action with the space before it, as GraphWalker's UC01.json has them.
    expect(init.actions).toEqual([' num_of_books = 0;', ' MAX_BOOKS = 5;']);
    const add = edge(m, 'e_AddBookToCart');
    expect([add.guard, add.actions]).toEqual(['num_of_books<=MAX_BOOKS', [' num_of_books++;']]);
    expect(edge(m, 'e_StartBrowser').sourceVertexId).toBe(vertex(m, 'v_BrowserStopped').id);
  });

  it('read names, guards, actions, shared states and description properties of Login', () => {
    const m = model('io/Login.graphml');
    expect(vertex(m, 'v_ClientNotRunning')).toMatchObject({ sharedState: 'CLIENT_NOT_RUNNNG', properties: { description: 'Start the client process' } });
    expect(vertex(m, 'v_Browse').sharedState).toBe('LOGGED_IN');
    expect(edge(m, 'e_ValidPremiumCredentials').properties?.description).toBe('Log in a s Premium user, using valid credentials');
    expect(edge(m, 'e_Init').actions).toEqual(['validLogin=false;', 'rememberMe=false;']);
    expect(m.edges.filter((e) => e.name === 'e_StartClient').map((e) => e.guard)).toEqual(['!rememberMe||!validLogin', 'rememberMe&&validLogin']);
  });

  it('make INIT: actions the model actions, in the order of the vertices', () => {
    expect(model('io/init/init.graphml').actions).toEqual(['validLogin=false;', 'rememberMe=false;']);
    expect(model('cli/shared_state/Model_B.graphml').actions).toEqual(['eB=0;', ' eC=0;', ' eD=0;']);
  });

  it('read REQTAG: lists, weights, dependencies and guards beside them', () => {
    const cart = model('io/reqtags/ShoppingCart.graphml');
    expect([cart.vertices.length, cart.edges.length]).toEqual([6, 11]);
    expect(vertex(cart, 'v_BaseURL').requirements).toEqual(['UC01 2.2.1']);
    expect(vertex(cart, 'v_ShoppingCart').requirements).toEqual(['UC01 2.3', 'UC01 2.4']);
    expect(model('io/dependency/model.graphml').edges[0].dependency).toBe(100);
    expect(model('io/dependency/modelWithoutDependency.graphml').edges[0].dependency).toBeUndefined();
    const guarded = model('io/dependency/modelwithguard.graphml').edges[0];
    expect(guarded).toMatchObject({ id: 'eb0d77ff-669b-4a11-a5d7-ab308591a7f0', name: 'e_init', guard: '!neverWentThere', dependency: 75 });
    expect(model('io/weight/model.graphml').edges[0].weight).toBe(100);
  });

  it('read guards over several lines, and several labels of one node joined', () => {
    const guards = model('io/Guards.graphml');
    expect(guards.edges.map((e) => e.guard)).toEqual(Array(2).fill('isEthernetConnected()\n&& !hasInternetConnection()'));
    const fn = model('io/FunctionAsAction.graphml');
    // Split at every ';' as GraphWalker splits them; joined, they are the script as written.
    expect(edge(fn, 'init').actions?.join('')).toBe(
      ' elements = [1,2,3]; value = 0; toString = function(){for(var i = 0;i<elements.length;i++){value+=elements[i]}return value};',
    );
    expect(names(fn.vertices)).toEqual(['a', 'Exit']);
  });

  it('mark BLOCKED elements, which loading leaves out unless told to keep them', () => {
    const path = 'cli/CorrectModels/blockedVertex.graphml';
    const m = model(path);
    expect(vertex(m, 'v2').properties?.blocked).toBe(true);
    const kept = loadModelFile(read(path), { blocked: false }).file.models[0];
    const left = loadModelFile(read(path)).file.models[0];
    expect([names(kept.vertices), names(kept.edges)]).toEqual([['v1', 'v2'], ['e1', 'e2']]);
    // v2 is blocked, and e2 leads into it.
    expect([names(left.vertices), names(left.edges)]).toEqual([['v1'], ['e1']]);
    const counts = (p: string, blocked: boolean) => {
      const f = loadModelFile(read(p), { blocked }).file.models[0];
      return [f.vertices.length, f.edges.length];
    };
    // GraphWalker's UtilTest counts, before and after filtering.
    expect(counts('io/blocked/blockedBranch1.graphml', true)).toEqual([3, 3]);
    expect(counts('io/blocked/blockedVertex1.graphml', true)).toEqual([2, 2]);
    // GraphWalker counts 2 and 1 here, and is left without its start edge, which leads into the blocked v1:
    // walker says so instead of walking a model that cannot start.
    expect(() => counts('io/blocked/blockedVertex2.graphml', true)).toThrow(
      "model 'blockedVertex2', field 'startElementId': names 'e0', which is left out of the walk because its target vertex 'n1' is blocked",
    );
    expect(counts('io/blocked/singleEdge.graphml', true)).toEqual([2, 2]);
    expect(counts('io/blocked/singleVertex.graphml', true)).toEqual([1, 1]);
  });

  it('read custom properties: key defaults, overrides per element, keys of nodes only on vertices', () => {
    const one = model('io/customProp/Issue128_Graph01.graphml');
    for (const v of one.vertices) {
      expect(v.properties).toMatchObject({ CustomNodeProperty: 'OverRideNodeValue', description: 'The description' });
      expect(v.properties?.x).toBeGreaterThan(0);
    }
    expect(one.edges[0].properties).toEqual({ description: 'The edge description' });
    expect(model('io/customProp/Issue128_Graph02.graphml').edges[0].properties).toEqual({ CustomEdgeProperty: '' });
    const three = model('io/customProp/Issue128_Graph03.graphml');
    expect(three.vertices.map((v) => v.properties?.CustomNodeProperty)).toEqual(['DefaultNodeValue', 'DefaultNodeValue']);
    expect(three.edges[0].properties).toEqual({ CustomEdgeProperty: 'DefaultEdgeValue' });
    // A graph with a group: the group is no vertex, its nodes are, with yEd's nested ids.
    const seven = model('io/customProp/Issue128_Graph07.graphml');
    expect(seven.vertices.map((v) => v.id)).toEqual(['n0', 'n1::n0', 'n1::n1']);
    expect(seven.edges).toHaveLength(2);
    for (const v of seven.vertices) {
      expect(v.properties).toMatchObject({ 'CNP 1': 'Default Value 1', 'CNP 2': 'OverRide 2', 'CNP 3': 'OverRide 3', description: 'Node Description' });
    }
  });

  it('read shared states, named and unnamed, and edges of every yEd shape', () => {
    const a = model('io/SharedA.graphml');
    expect([a.vertices.length, a.edges.length]).toEqual([2, 6]);
    expect(a.vertices.find((v) => v.sharedState === 'MY_STATE')?.name).toBeUndefined();
    expect(model('io/SharedB.graphml').vertices.map((v) => v.sharedState)).toEqual([undefined, 'MY_STATE']);
    const crash = model('io/shared_state/Crash.graphml');
    expect(crash.vertices.map((v) => v.sharedState)).toEqual(['LOGGED_IN', undefined, 'CLIENT_NOT_RUNNNG']);
    expect(crash.edges.every((e) => e.sourceVertexId !== undefined)).toBe(true);
    expect(model('java/MyModel.graphml').vertices[0]).toMatchObject({ name: 'vertex1', sharedState: 'MySharedState' });
    expect(model('websocket/WebSocketFlow.graphml').edges).toHaveLength(7);
  });

  it('read every label form of our LabelGrammar model', () => {
    const m = model('ours/LabelGrammar.graphml');
    // ` start ` in lower case with spaces is the Start vertex; e_Open leaves it.
    expect(m.startElementId).toBe(edge(m, 'e_Open').id);
    expect(names(m.vertices)).toEqual(['v_Home', 'ui.cart.v_Cart', 'v_Archive', 'v_Receipt']);
    expect(m.actions).toEqual(['count = 0;', ' items = [];']);
    expect(vertex(m, 'v_Home').requirements).toEqual(['REQ-1', 'REQ-2']);
    expect(vertex(m, 'ui.cart.v_Cart').sharedState).toBe('CART');
    expect(vertex(m, 'v_Archive').properties?.blocked).toBe(true);
    expect(vertex(m, 'v_Receipt').requirements).toEqual(['REQ-3']);
    expect(edge(m, 'e_Add')).toMatchObject({ guard: 'items.length < 3', actions: [' items.push(count);', ' count++;'], weight: 0.7, requirements: ['REQ-4'] });
    expect(edge(m, 'e_Back')).toMatchObject({ actions: [' items = [];'], dependency: 2 });
    expect(edge(m, 'e_Pay')).toMatchObject({ guard: 'count > 0 && items[0] >= 0', actions: [' count = 0;', ' items = [];'], weight: 0.3 });
    expect(edge(m, 'e_Skip').properties?.blocked).toBe(true);
    expect(edge(m, 'e_Refresh').actions).toEqual([' count = count;']);
  });

  it('link files through SHARED: states as JSON models', () => {
    const left = model('ours/SharedLeft.graphml');
    const right = model('ours/SharedRight.graphml');
    expect(left.vertices.find((v) => v.sharedState === 'DOOR')?.name).toBe('v_LeftDoor');
    expect(right.vertices.find((v) => v.sharedState === 'DOOR')?.name).toBe('v_RightDoor');
    expect([left.actions, right.actions]).toEqual([['hops = 0;'], ['hops = 0;']]);
    expect(right.startElementId).toBeUndefined();
  });

  it('refuse a label that does not parse, naming the file, the element, the label and the place', () => {
    expect(() => read('ours/BrokenGuard.graphml')).toThrow(
      "ours/BrokenGuard.graphml, element 'e2', field 'label': the edge label 'e_Back [ready == true' does not parse at column 8: " +
        "the '[' that opens a guard is never closed by ']' (line 104 of the document)",
    );
    expect(() => read('cli/IncorrectModels/badEdgeName.graphml')).toThrow(/element 'e1', field 'label': the edge label '1_badName' does not parse at column 1/);
    expect(() => read('cli/IncorrectModels/wrongVertexSyntax.graphml')).toThrow(/element 'n0', field 'label': the vertex label '1' does not parse at column 1/);
  });

  it("leave a file without a Start vertex without a start element, which a load on its own refuses", () => {
    const single = read('cli/IncorrectModels/singleVertex.graphml');
    expect(single.models[0].startElementId).toBeUndefined();
    expect(() => loadModelFile(single)).toThrow(/The model has neither a start element or a defined shared state/);
  });
});
