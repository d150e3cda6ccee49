import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ErrorCodes, ModelError } from '../../../core/errors.js';
import {
  loadModelFile,
  ModelIssuesError,
  parseModelText,
  readModelFile,
} from '../../../core/model/index.js';

const fixtures = fileURLToPath(new URL('../../fixtures/models/', import.meta.url));

/** The error a function throws (failing the test when it throws none). */
function thrown(run: () => unknown): ModelError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ModelError);
    return error as ModelError;
  }
  throw new Error('expected an error');
}

async function rejected(promise: Promise<unknown>): Promise<ModelError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ModelError);
  return error as ModelError;
}

describe('parseModelText', () => {
  it('parses plain JSON', () => {
    expect(parseModelText('{"models": []}')).toEqual({ models: [] });
  });

  it('tolerates a byte-order mark and comments, also at the end, but not inside strings', () => {
    const text = '\uFEFF/* licence */\n{"a": "x//y", // note\n "b": "/*z*/" /* c */}\n// end';
    expect(parseModelText(text)).toEqual({ a: 'x//y', b: '/*z*/' });
    expect(parseModelText('{"a": 1} // no line break after')).toEqual({ a: 1 });
  });

  it.each([
    ['{"a": 1,}', 1, 9, "a comma cannot come right before '}'; remove it"],
    ['[1, 2,]', 1, 7, "a comma cannot come right before ']'; remove it"],
    ['{\n  "a": 1\n  "b": 2\n}', 3, 3, `expected ',' or '}' after a property value, found '"b"'`],
    ['[1 2]', 1, 4, "expected ',' or ']' after an array item, found '2'"],
    ['{"a" 1}', 1, 6, "expected ':' after a property name, found '1'"],
    ['{a: 1}', 1, 2, "expected a property name in double quotes, found 'a'"],
    ['{"a": tru}', 1, 7, "expected a value (object, array, string, number, true, false or null), found 'tru'"],
    ['{"a": -}', 1, 7, "expected a number, found '-'"],
    ['{"a": "b\nc"}', 1, 9, 'a line break or control character inside a string must be escaped (\\n)'],
    ['{"a": "\\q"}', 1, 8, "invalid escape '\\q' in a string"],
    ['{"a": "\\u12x4"}', 1, 8, "invalid escape '\\u' in a string"],
    ['{"a": "open', 1, 7, 'a string is not closed with a double quote'],
    ['{"a": 1} x', 1, 10, "unexpected 'x' after the end of the JSON value"],
    ['{"models": [', 1, 13, "the text ends early, expected a value or ']'"],
    ['{"a": 1', 1, 8, "the text ends early, expected ',' or '}'"],
    ['  \n', 2, 1, 'the text is empty; expected a JSON object'],
    ['{} /* open', 1, 4, 'a /* comment is not closed with */'],
    ['\uFEFF{,}', 1, 3, "expected a property name in double quotes, found ','"],
    ['{"a": 1.}', 1, 7, "a number needs digits after '.' and 'e', found '1.'"],
    ['{"a": nulll}', 1, 7, "expected a value (object, array, string, number, true, false or null), found 'nulll'"],
    ['[1,}', 1, 4, "expected a value (object, array, string, number, true, false or null), found '}'"],
    // A broken string where no string may stand is reported as out of place, at its start.
    ['{"a": 1 "b\n"}', 1, 9, `expected ',' or '}' after a property value, found '"b'`],
    // A lone carriage return ends a line, as in editors.
    ['{\r"a" 1}', 2, 5, "expected ':' after a property name, found '1'"],
  ])('reports %j at line %i, column %i', (text, line, column, problem) => {
    const error = thrown(() => parseModelText(text, 'm.json'));
    expect(error.code).toBe(ErrorCodes.MODEL_SYNTAX);
    expect(error.message).toBe(`m.json: The model file is not valid JSON: line ${line}, column ${column}: ${problem}`);
  });

  it('names no source when given none', () => {
    expect(thrown(() => parseModelText('{')).message).toBe(
      "The model file is not valid JSON: line 1, column 2: the text ends early, expected a property name or '}'",
    );
  });

  it('stops at a nesting no model needs instead of overflowing the stack', () => {
    const deep = '['.repeat(200_000);
    expect(thrown(() => parseModelText(deep)).message).toBe(
      'The model file is not valid JSON: line 1, column 1001: arrays and objects nest more than 1000 deep here; ' +
        'a model file needs a few levels',
    );
  });

  it('still reads well-formed deep nesting, with comments too', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(Array.isArray(parseModelText(deep))).toBe(true);
    expect(Array.isArray(parseModelText(`// deep\n${deep}`))).toBe(true);
  });
});

describe('loadModelFile', () => {
  const valid = {
    models: [
      { id: 'M', startElementId: 'e0', vertices: [{ id: 'v1', name: 'v_1' }], edges: [{ id: 'e0', targetVertexId: 'v1' }] },
    ],
  };

  it('takes text or a parsed value and builds the graph', () => {
    for (const input of [JSON.stringify(valid), structuredClone(valid)]) {
      const loaded = loadModelFile(input);
      expect(loaded.file).toStrictEqual(valid);
      expect(loaded.graph.vertexCount).toBe(1);
      expect(loaded.graph.edgeCount).toBe(1);
      expect(loaded.graph.models[0].startElement).toBe(1);
      expect(loaded.warnings).toEqual([]);
    }
  });

  it('returns warnings without failing', () => {
    const withIsland = structuredClone(valid);
    withIsland.models[0].vertices.push({ id: 'island', name: 'v_Island' });
    const loaded = loadModelFile(withIsland);
    expect(loaded.warnings.map((w) => [w.code, w.elementId])).toEqual([['unreachable_element', 'island']]);
    expect(loaded.graph.vertexCount).toBe(2);
  });

  it('throws the first error, says how many more there are, and carries every issue', () => {
    const bad = {
      models: [{ id: 'M', startElementId: 'x', vertices: [{ id: 'v1', name: 'a' }, { id: 'v1', name: 'b' }], edges: [{ id: 'e0' }] }],
    };
    const error = thrown(() => loadModelFile(bad, { source: 'bad.json' }));
    expect(error).toBeInstanceOf(ModelIssuesError);
    expect(error.code).toBe(ErrorCodes.MODEL_INVALID);
    expect(error.message).toBe(
      "bad.json: model 'M', field 'startElementId': names no vertex or edge of this model ('x') (and 2 more errors)",
    );
    expect((error as ModelIssuesError).issues.map((i) => i.code)).toEqual([
      'unknown_start_element',
      'duplicate_element_id',
      'missing_target_vertex',
    ]);
  });

  it('says nothing about more errors when there is one', () => {
    const error = thrown(() => loadModelFile({ models: [{ id: 'M', startElementId: 'x', vertices: [] }] }));
    expect(error.message).toBe("model 'M', field 'startElementId': names no vertex or edge of this model ('x')");
  });

  it('uses the syntax and no-start error codes for those problems', () => {
    expect(thrown(() => loadModelFile('{"model": []}')).code).toBe(ErrorCodes.MODEL_SYNTAX);
    expect(thrown(() => loadModelFile('{"models": [')).code).toBe(ErrorCodes.MODEL_SYNTAX);
    expect(thrown(() => loadModelFile({ models: [{ id: 'M', vertices: [] }] })).code).toBe(ErrorCodes.NO_START);
  });

  it('leaves blocked elements in with blocked: false', () => {
    const blocked = structuredClone(valid) as { models: { edges: Record<string, unknown>[] }[] };
    blocked.models[0].edges.push({ id: 'e1', sourceVertexId: 'v1', targetVertexId: 'v1', properties: { blocked: true } });
    expect(loadModelFile(blocked).graph.edgeCount).toBe(1);
    expect(loadModelFile(blocked, { blocked: false }).graph.edgeCount).toBe(2);
  });
});

describe('readModelFile', () => {
  it('reads a file with a byte-order mark and comments', async () => {
    const loaded = await readModelFile(`${fixtures}commented.json`);
    expect(loaded.file.name).toBe('Commented');
    expect(loaded.file.models[0].vertices[0].properties).toEqual({ url: 'http://example.test//a/*b*/' });
    expect(loaded.file.models[0].edges[1].guard).toBe('a // b');
  });

  it('reads models joined by a shared state, and the seed', async () => {
    const loaded = await readModelFile(`${fixtures}shared-states.json`);
    expect(loaded.file.seed).toBe(7);
    expect(loaded.graph.sharedStateVertices('LOGIN')).toEqual([0, 1]);
    expect(loaded.warnings.map((w) => `${w.modelId}/${w.elementId}`)).toEqual(['login/v2']);
  });

  it('names the file in syntax errors', async () => {
    const path = `${fixtures}broken-syntax.json`;
    const error = await rejected(readModelFile(path));
    expect(error.code).toBe(ErrorCodes.MODEL_SYNTAX);
    expect(error.message).toBe(
      `${path}: The model file is not valid JSON: line 6, column 7: expected ',' or '}' after a property value, ` +
        `found '"vertices"'`,
    );
  });

  it('names the file in model errors', async () => {
    const path = `${fixtures}invalid-model.json`;
    const error = await rejected(readModelFile(path));
    expect(error.message).toBe(
      `${path}: model 'invalid', edge 'e0', field 'weight': The weight must be a value between 0 and 1, got 3 ` +
        '(and 1 more error)',
    );
    expect(error.location.source).toBe(path);
  });

  it('says why a file cannot be read', async () => {
    const missing = `${fixtures}no-such-file.json`;
    const error = await rejected(readModelFile(missing));
    expect(error.code).toBe(ErrorCodes.FILE);
    expect(error.message).toBe(`Could not read the model file '${missing}': no such file`);
    const directory = await rejected(readModelFile(fixtures));
    expect(directory.message).toBe(`Could not read the model file '${fixtures}': it is a directory`);
  });
});
