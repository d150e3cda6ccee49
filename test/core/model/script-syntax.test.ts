import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../../core/errors.js';
import { loadModelFile, ModelIssuesError } from '../../../core/model/load.js';
import { scriptSyntaxIssues } from '../../../core/model/script-syntax.js';
import type { ScriptEngine, ScriptKind } from '../../../core/scripting.js';
import { Walker } from '../../../core/walker.js';
import { builtinPlugins } from '../../../plugins/index.js';

/** A model whose model action, vertex action, edge action and guard are the given scripts (valid ones by default). */
function scripted(scripts: { model?: string; vertex?: string; edge?: string; guard?: string } = {}): unknown {
  return {
    models: [
      {
        id: 'Login',
        generator: 'random(edge_coverage(100))',
        startElementId: 'e0',
        actions: ['tries = 0;', scripts.model ?? 'loggedIn = false;'],
        vertices: [
          { id: 'n1', name: 'v_Prompt', actions: [scripts.vertex ?? 'shown = true;'] },
          { id: 'n2', name: 'v_Browse' },
        ],
        edges: [
          { id: 'e0', name: 'e_Start', targetVertexId: 'n1' },
          { id: 'e1', name: 'e_Login', sourceVertexId: 'n1', targetVertexId: 'n2', guard: scripts.guard ?? 'tries < 3', actions: ['x = 1;', scripts.edge ?? 'tries++;'] },
          { id: 'e2', name: 'e_Logout', sourceVertexId: 'n2', targetVertexId: 'n1' },
        ],
      },
    ],
  };
}

let walker: Walker;
beforeAll(async () => {
  walker = await Walker.create(builtinPlugins());
});

function engine(): ScriptEngine {
  return walker.registries.scriptEngines.values()[0];
}

describe('scriptSyntaxIssues (QuickJS)', () => {
  it('finds nothing in scripts that parse', () => {
    expect(scriptSyntaxIssues(loadModelFile(scripted()).graph, engine())).toEqual([]);
  });

  it('names model, element, field, line and column and gives the engine its words, for every kind of script', () => {
    const { graph } = loadModelFile(scripted({ model: 'n = ;', vertex: 'if (shown {}', edge: 'global.tries +', guard: 'tries <' }));
    expect(scriptSyntaxIssues(graph, engine()).map((i) => [i.code, i.severity, i.elementId, i.field, i.message])).toEqual([
      ['script_syntax', 'error', null, 'actions[1]', "model 'Login', field 'actions[1]': the model action does not parse, at line 1, column 5: SyntaxError: unexpected token in expression: ';'"],
      ['script_syntax', 'error', 'n1', 'actions[0]', "model 'Login', vertex 'n1', field 'actions[0]': the action does not parse, at line 1, column 11: SyntaxError: expecting ')'"],
      ['script_syntax', 'error', 'e1', 'guard', "model 'Login', edge 'e1', field 'guard': the guard does not parse, at line 1, column 8: SyntaxError: unexpected token in expression: ''"],
      ['script_syntax', 'error', 'e1', 'actions[1]', "model 'Login', edge 'e1', field 'actions[1]': the action does not parse, at line 1, column 15: SyntaxError: unexpected token in expression: ''"],
    ]);
  });

  it('parses each distinct script once', () => {
    const checked: string[] = [];
    const counting: ScriptEngine = {
      ...engine(),
      checkSyntax: (source: string, kind: ScriptKind) => {
        checked.push(`${kind}:${source}`);
        return engine().checkSyntax(source, kind);
      },
    };
    // x = 1; is the vertex's action and begins e1's two, which run (and are parsed) joined as one script;
    // 'tries = 0;' is a model action too, 'tries < 3' the guard.
    scriptSyntaxIssues(loadModelFile(scripted({ vertex: 'x = 1;' })).graph, counting);
    expect(checked.sort()).toEqual([
      'action:loggedIn = false;',
      'action:tries = 0;',
      'action:x = 1;',
      'action:x = 1;\ntries++;',
      'guard:tries < 3',
    ]);
  });
});

describe('opening a walk', () => {
  it('refuses a file whose scripts do not parse, naming the file and every such script', () => {
    const loaded = loadModelFile(scripted({ model: 'ran = true;', guard: 'tries <', edge: 'x = ;' }), { source: 'login.json' });
    let error: unknown;
    try {
      walker.walk(loaded, { seed: 1 }).dispose();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ModelIssuesError);
    expect((error as ModelIssuesError).code).toBe(ErrorCodes.MODEL_INVALID);
    expect((error as ModelIssuesError).message).toBe(
      "login.json: model 'Login', edge 'e1', field 'guard': the guard does not parse, at line 1, column 8: " +
        "SyntaxError: unexpected token in expression: '' (and 1 more error)",
    );
    expect((error as ModelIssuesError).issues.map((i) => `${i.elementId} ${i.field}`)).toEqual(['e1 guard', 'e1 actions[1]']);
  });

  it('opens a walk on scripts that parse', () => {
    const machine = walker.walk(loadModelFile(scripted()), { seed: 1 });
    expect(machine.next().id).toBe('e0');
    machine.dispose();
  });
});
