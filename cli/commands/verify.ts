import { Command, Option } from 'clipanion';
import { WalkerCommand } from '../command.js';
import { blockedOption, modelFilesOption, pluginsOption } from '../common-options.js';
import { readModelFiles } from '../models.js';
import { commandServices } from '../services.js';

/** `walker verify`: what a test module lacks for the models, per model (docs/runner.md). */
export class VerifyCommand extends WalkerCommand {
  static override paths = [['verify']];

  static override usage = Command.Usage({
    description: 'List the classes and methods a test module lacks for model files',
    details: `
      Loads the test module as \`walker run\` does and lists, per model, a missing class or the vertex and edge
      names without a method. Prints nothing and exits 0 when nothing is missing; exits 1 when something is.
    `,
    examples: [['Check the example', '$0 verify examples/runner/shop.test.ts -m examples/runner/shop.json']],
  });

  tests = Option.String({ name: 'tests' });
  models = modelFilesOption();
  blocked = blockedOption();
  plugins = pluginsOption();

  protected async perform(): Promise<number> {
    const [{ loadTestModule }, { TestSuite }, { verifyTestCode }] = await Promise.all([
      import('../../runner/load-module.js'),
      import('../../runner/test-suite.js'),
      import('../../runner/verify.js'),
    ]);
    const { walker } = await commandServices(this.plugins);
    const files = await readModelFiles(this.models, { formats: walker.registries.formats, blocked: this.blocked });
    const suite = new TestSuite(await loadTestModule(this.tests));
    const missing = verifyTestCode(suite, files.map((f) => f.graph));
    const lines = missing.map(({ model, classMissing, methods }) =>
      classMissing
        ? `${model}: no class '${model}'; it needs the methods ${methods.join(', ')}`
        : `${model}: missing method${methods.length > 1 ? 's' : ''} ${methods.join(', ')}`,
    );
    this.context.stdout.write(lines.map((l) => `${l}\n`).join(''));
    return missing.length > 0 ? 1 : 0;
  }
}
