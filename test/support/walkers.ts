import type { PathGeneratorFactory } from '../../core/generator.js';
import { createRegistries, installPlugins, type Registries, type WalkerPlugin } from '../../core/plugin.js';
import { stopConditionsPlugin } from '../../plugins/conditions/index.js';
import { vmEngine } from './vm-engine.js';

/** A generator that always takes the first open out-edge: makes machine tests' paths obvious. */
export const firstEdge: PathGeneratorFactory = {
  name: 'first' as PathGeneratorFactory['name'],
  create: () => ({ nextEdge: (walk, vertex) => walk.openEdges(vertex)[0] ?? -1 }),
};

/** A generator that takes a uniformly random open out-edge, drawing from the walk's random source. */
export const anyEdge: PathGeneratorFactory = {
  name: 'any' as PathGeneratorFactory['name'],
  create: () => ({
    nextEdge: (walk, vertex) => {
      const open = walk.openEdges(vertex);
      return open.length === 0 ? -1 : open[walk.random.int(open.length)];
    },
  }),
};

/** Registries with the real stop conditions, the two test generators and the node:vm engine. */
export async function testRegistries(extra: readonly WalkerPlugin[] = []): Promise<Registries> {
  const registries = createRegistries();
  const testPlugin: WalkerPlugin = {
    meta: { name: 'machine-test', version: '0' },
    setup: (r) => {
      r.generators.register(firstEdge);
      r.generators.register(anyEdge);
      r.scriptEngines.register(vmEngine());
    },
  };
  await installPlugins(registries, [stopConditionsPlugin(), testPlugin, ...extra]);
  return registries;
}
