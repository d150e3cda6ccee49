import type { WalkerPlugin } from '../../core/plugin.js';
import { VERSION } from '../../core/version.js';
import { dotFormat } from './dot/index.js';
import { graphmlFormat } from './graphml/index.js';

export { dotFormat, graphmlFormat };

/** The model formats walker ships beside core's JSON: yEd's GraphML (read and write) and Graphviz DOT (write). */
export function formatsPlugin(): WalkerPlugin {
  return {
    meta: { name: 'walker-formats', version: VERSION },
    setup(registries) {
      registries.formats.register(graphmlFormat);
      registries.formats.register(dotFormat);
    },
  };
}
