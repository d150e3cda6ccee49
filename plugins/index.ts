import type { WalkerPlugin } from '../core/plugin.js';
import type { ScriptLimits } from '../core/scripting.js';
import { generatorsPlugin } from './generators/index.js';
import { stopConditionsPlugin } from './conditions/index.js';
import { quickJsPlugin } from './quickjs/index.js';

export { generatorsPlugin, stopConditionsPlugin, quickJsPlugin };

/** The plugins walker ships: the six generators, the stop conditions and the QuickJS script engine. */
export function builtinPlugins(options: { scriptLimits?: Partial<ScriptLimits> } = {}): WalkerPlugin[] {
  return [generatorsPlugin(), stopConditionsPlugin(), quickJsPlugin(options.scriptLimits)];
}
