/**
 * walker-plugin-round-robin: the path generator `round_robin`. At every vertex it takes, of the out-edges
 * open now, the one taken least recently (never-taken edges first, in the model's order), so a walk spreads
 * over all edges without any randomness: the same model always gives the same path.
 *
 * A plugin needs nothing from walker at run time: it is a plain object with `meta` and `setup`, and walker
 * hands `setup` the registries to fill. The types are in index.d.ts.
 */

const PLUGIN_NAME = 'walker-plugin-round-robin';

/** The generator factory: walker calls `create` at every load and restart, for each model that names it. */
export const roundRobinGenerator = {
  name: 'round_robin',
  aliases: ['roundrobin', 'roundrobinpath'],
  create({ graph }) {
    // When each edge was last taken, by a counter of this generator's choices; 0 means never.
    const lastTaken = new Float64Array(graph.size);
    let clock = 0;
    return {
      nextEdge(walk, vertex) {
        let best = -1;
        for (const edge of walk.openEdges(vertex)) {
          if (best < 0 || lastTaken[edge] < lastTaken[best]) best = edge;
        }
        if (best >= 0) lastTaken[best] = ++clock;
        return best;
      },
    };
  },
};

/** The plugin. walker calls this default export with no arguments when it is named with `--plugin`. */
export default function roundRobinPlugin() {
  return {
    meta: { name: PLUGIN_NAME, version: '1.0.0' },
    setup(registries) {
      registries.generators.register(roundRobinGenerator);
    },
  };
}
