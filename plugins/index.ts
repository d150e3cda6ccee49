import type { WalkerPlugin } from '../core/plugin.js';
import type { ScriptLimits } from '../core/scripting.js';
import { generatorsPlugin } from './generators/index.js';
import { stopConditionsPlugin } from './conditions/index.js';
import { quickJsPlugin } from './quickjs/index.js';
import { formatsPlugin } from './formats/index.js';

export { generatorsPlugin, stopConditionsPlugin, quickJsPlugin, formatsPlugin };
export { graphmlFormat, dotFormat } from './formats/index.js';

/**
 * The plugins walker ships: the six generators, the stop conditions, the QuickJS script engine, and the GraphML
 * and DOT model formats.
 */
export function builtinPlugins(options: { scriptLimits?: Partial<ScriptLimits> } = {}): WalkerPlugin[] {
  return [generatorsPlugin(), stopConditionsPlugin(), quickJsPlugin(options.scriptLimits), formatsPlugin()];
}
