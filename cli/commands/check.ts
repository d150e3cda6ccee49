import { Command } from 'clipanion';
import { WalkerCommand } from '../command.js';
import { checkModelFiles } from '../../core/check.js';
import { commandLogger } from '../logger.js';
import { commandServices } from '../services.js';
import { walkSettingsOf } from '../walk-settings-options.js';
import { blockedOption, logLevelOption, modelsOption, planStatesOption, planTimeOption, pluginsOption } from '../common-options.js';

/** `walker check`: reports every problem of model files and their generators, without walking. */
export class CheckCommand extends WalkerCommand {
  static override paths = [['check']];

  static override usage = Command.Usage({
    description: 'Check model files and generators without walking them',
    details: `
      Prints one issue per line, \`<file>: error: <message>\` or \`<file>: warning: <message>\`, or
      \`No issues found with the model(s).\`, followed by \`<file>: note: <message>\` lines saying how walker
      will plan a walk whose states pass the planning bound or grow without end. Exits 1 when an issue is an error (loading would fail, or the walk
      cannot reach its goal), else 0: warnings (an unnamed vertex, an element no walk reaches, one dead end
      under a random generator) do not stop a walk. What GraphWalker raises as an exception instead (an unknown
      generator or stop condition, a generator that does not parse, a file whose \`models\` list is empty) is
      printed on stderr, and exits 2. The files are checked as they are walked together, each
      with the generator given with its \`-m\`; a file that cannot be read is an error of its own.
    `,
    examples: [
      ['Check a model', '$0 check -m login.json "random(edge_coverage(100))"'],
      ['Check two files walked together', '$0 check -m login.json "random(edge_coverage(100))" -m shop.json "a_star(reached_vertex(v_Paid))"'],
      ['Check with blocked elements kept', '$0 check -m login.json "random(edge_coverage(100))" -b false'],
    ],
  });

  models = modelsOption({ required: true });
  blocked = blockedOption();
  planStates = planStatesOption();
  planTime = planTimeOption();
  plugins = pluginsOption();
  logLevel = logLevelOption('silent');

  protected async perform(): Promise<number> {
    const log = commandLogger(this.logLevel, this.context.stderr);
    const { walker } = await commandServices(this.plugins);
    const targets = this.models.map(([file, generator]) => ({ file, generator }));
    const findings = await checkModelFiles(walker, targets, walkSettingsOf(this));
    for (const { file, generator } of targets) {
      const issues = findings.filter((f) => f.file === file).length;
      log.info({ file, generator, issues }, 'Model file checked');
    }
    // Notes say how walker will plan, not what is wrong: with nothing else found, the answer is still
    // GraphWalker's, which AltWalker's check reads from the start of the output.
    if (findings.every((f) => f.severity === 'note')) this.context.stdout.write('No issues found with the model(s).\n');
    // GraphWalker raises these rather than listing them, and its clients read only stderr for them.
    for (const { file, severity, message, exception } of findings) {
      (exception ? this.context.stderr : this.context.stdout).write(`${file}: ${severity}: ${message}\n`);
    }
    if (findings.some((f) => f.exception)) return 2;
    return findings.some((f) => f.severity === 'error') ? 1 : 0;
  }
}
