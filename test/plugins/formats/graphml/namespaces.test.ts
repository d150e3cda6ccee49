import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { read, refusal } from './read-graphml.js';
import { ErrorCodes } from '../../../../core/errors.js';
import { MAX_NAMESPACE_DECLARATIONS, MAX_PREFIXES_IN_FORCE } from '../../../../plugins/formats/graphml/namespace-scope.js';
import { LINEAR_RATIO, timeGrowth } from '../../../support/growth.js';
import { documentOf } from './yed-documents.js';


const GRAPHML = 'http://graphml.graphdrawing.org/xmlns';
const YED = 'http://www.yworks.com/xml/graphml';
const vertex = (id: string, label: string, y = 'y') =>
  `<node id="${id}"><data key="d0"><${y}:ShapeNode><${y}:NodeLabel>${label}</${y}:NodeLabel></${y}:ShapeNode></data></node>`;

function declarations(count: number): string {
  return Array.from({ length: count }, (_, i) => ` xmlns:p${i}="u${i}"`).join('');
}

/** A yEd document whose root declares `extra` namespaces more than yEd's two. */
function rootDeclaring(extra: number): string {
  return `<?xml version="1.0"?>\n<graphml xmlns="${GRAPHML}" xmlns:y="${YED}"${declarations(extra)}>\n<graph id="G">${vertex('n0', 'v_A')}</graph></graphml>`;
}


describe('XML namespaces in GraphML', () => {
  it('follow the declarations in force: an inner one hides an outer one until its element closes', () => {
    // `y` is yEd's inside the first node only; outside it, `y` names another namespace and its label is no yEd label.
    const text =
      `<graphml xmlns="${GRAPHML}" xmlns:y="urn:other" xmlns:g="${GRAPHML}"><graph id="G">` +
      `<g:node id="n0" xmlns:y="${YED}"><data key="d0"><y:ShapeNode><y:NodeLabel>v_In</y:NodeLabel></y:ShapeNode></data></g:node>` +
      `${vertex('n1', 'v_Out')}</graph></graphml>`;
    expect(refusal(text).message).toMatch(/^m\.graphml, element 'n1': the node has no yEd graphics with a label/);
    const again = text.replace(`${vertex('n1', 'v_Out')}`, vertex('n1', 'v_Out', 'z').replace('<node ', `<node xmlns:z="${YED}" `));
    expect(read(again).models[0].vertices.map((v) => v.name)).toEqual(['v_In', 'v_Out']);
  });

  it(`takes ${MAX_NAMESPACE_DECLARATIONS} declarations on an element, and refuses more at once, naming the file, line and column`, () => {
    // yEd's own two and 98 more.
    expect(read(rootDeclaring(MAX_NAMESPACE_DECLARATIONS - 2)).models[0].vertices).toEqual([{ id: 'n0', name: 'v_A' }]);
    // The declarations that took 32 s to resolve, one bindings copy per declaration.
    const hostile = rootDeclaring(12_000);
    const started = performance.now();
    const error = refusal(hostile);
    // Refused while the root is read, before anything of the rest: a few milliseconds, given a second here.
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(error.code).toBe(ErrorCodes.MODEL_SYNTAX);
    const column = hostile.split('\n')[1].indexOf('>') + 1;
    expect(error.message).toBe(
      `m.graphml: The GraphML document cannot be read: line 2, column ${column}: the <graphml> element declares more than ` +
        `${MAX_NAMESPACE_DECLARATIONS} XML namespaces (xmlns attributes); yEd declares fewer than ten: remove the declarations the document does not use`,
    );
    expect(refusal(rootDeclaring(MAX_NAMESPACE_DECLARATIONS - 1)).message).toMatch(/declares more than 100 XML namespaces/);
  });

  it(`take ${MAX_PREFIXES_IN_FORCE} prefixes in force at once, and refuse more at once, naming the element, line and column`, () => {
    /** `count` skipped elements, one in another, each binding a prefix of its own, inside a node or beside. */
    const nested = (count: number, inside: boolean) => {
      let inner = '';
      for (let i = count - 1; i >= 0; i--) inner = `<x:e xmlns:q${i}="urn:q${i}">${inner}</x:e>`;
      const node = vertex('n0', 'v_A').replace('<data key="d0">', `<data key="d0">${inside ? inner : ''}`);
      return `<?xml version="1.0"?>\n<graphml xmlns="${GRAPHML}" xmlns:y="${YED}" xmlns:x="urn:x">\n<graph id="G">${node}${inside ? '' : inner}</graph></graphml>`;
    };
    // The root binds the default namespace, y and x; `xml` is always bound.
    expect(read(nested(MAX_PREFIXES_IN_FORCE - 4, true)).models[0].vertices).toEqual([{ id: 'n0', name: 'v_A' }]);
    const hostile = nested(MAX_PREFIXES_IN_FORCE - 3, true);
    const error = refusal(hostile);
    expect(error.code).toBe(ErrorCodes.MODEL_SYNTAX);
    expect(error.message).toMatch(
      new RegExp(
        `^m\\.graphml: The GraphML document cannot be read: line 3, column \\d+: the <x:e> element brings more than ${MAX_PREFIXES_IN_FORCE} ` +
          'XML namespace prefixes into force at once, with those of the elements around it; yEd uses fewer than ten: remove the declarations the document does not use$',
      ),
    );
    // As many bound one after another, each closed before the next, are never in force at once.
    const siblings = `<x:e xmlns:x="urn:x">${Array.from({ length: 2 * MAX_PREFIXES_IN_FORCE }, (_, i) => `<x:e xmlns:q${i}="urn:q${i}"/>`).join('')}</x:e>`;
    const text = nested(0, true).replace('<data key="d0">', `<data key="d0">${siblings}`);
    expect(read(text).models[0].vertices).toEqual([{ id: 'n0', name: 'v_A' }]);
  });

  it('cost time in proportion to their number, however deep the elements that declare them nest', () => {
    // One skipped element in another, each declaring a namespace: all of them in force at the deepest, up to the 500 prefixes the part binds in turn.
    expect(read(documentOf(['nestedNamespaces'], 3)).models[0].vertices.map((v) => v.id)).toEqual(['a', 'b', 'ns']);
    // Old code copied the bindings in force for each element that declares one: 5,000 deep took 47 s.
    const timing = timeGrowth((s) => documentOf(['nestedNamespaces'], s), read, 1_250);
    expect(timing.ratio, JSON.stringify(timing)).toBeLessThan(LINEAR_RATIO);
  }, 60_000);
});
