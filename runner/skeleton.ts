import type { Graph } from '../core/model/graph.js';
import { namesByClass } from './model-names.js';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * A test module that `verify` accepts and `run` executes: the run's fixtures, and a class per model with a
 * method per distinct vertex and edge name, each empty, with the parameters `run` passes. TypeScript or
 * JavaScript (an ES module).
 */
export function skeletonModule(graphs: readonly Graph[], language: 'ts' | 'js'): string {
  const ts = language === 'ts';
  const params = ts ? 'data: Data, step: Step' : 'data, step';
  const returns = ts ? ': void' : '';
  const out: string[] = [
    '// Test code for walker run (docs/runner.md): a class per model, a method per vertex and edge name.',
    '// A method gets (data, step): the model\'s variables, which it may change, and the step it tests.',
    '',
  ];
  if (ts) {
    out.push(
      '/** The model\'s variables as plain values; what a method changes is written back to the walk. */',
      'type Data = Record<string, unknown>;',
      '/** The element the walk stands on. */',
      'interface Step {',
      '  readonly id: string;',
      '  readonly name: string;',
      '  readonly modelName: string;',
      '  readonly properties: Readonly<Record<string, unknown>>;',
      '  readonly index: number;',
      '}',
      '',
    );
  }
  out.push(`/** Before the first step. */`, `export function setUpRun()${returns} {}`, '', `/** After the last step, however the run ended. */`, `export function tearDownRun()${returns} {}`);
  for (const [model, { vertices, edges }] of namesByClass(graphs)) {
    if (vertices.length + edges.length === 0) continue;
    // A model name that is no identifier is exported under its own name as a string (ES2022).
    const local = IDENTIFIER.test(model) ? model : `Model_${model.replace(/\W/g, '_')}`;
    out.push('', `${local === model ? 'export ' : ''}class ${local} {`);
    const methods = [...vertices.map((n) => ['vertex', n] as const), ...edges.map((n) => ['edge', n] as const)];
    methods.forEach(([kind, name], i) => {
      if (i > 0) out.push('');
      out.push(`  /** ${kind} ${name} */`, `  ${IDENTIFIER.test(name) ? name : JSON.stringify(name)}(${params})${returns} {}`);
    });
    out.push('}');
    if (local !== model) out.push(`export { ${local} as ${JSON.stringify(model)} };`);
  }
  return `${out.join('\n')}\n`;
}
