import type { PathGeneratorFactory, WalkerPlugin } from 'walker-mbt';

// Declaration merging: with this package installed, 'round_robin' is a PathGeneratorName, so TypeScript
// accepts it wherever walker expects the name of a generator.
declare module 'walker-mbt' {
  interface PathGeneratorNames {
    round_robin: true;
  }
}

/** The `round_robin` generator: the least recently taken open edge, never-taken ones first. */
export declare const roundRobinGenerator: PathGeneratorFactory;

/** The plugin that registers `round_robin` (aliases `roundrobin`, `roundrobinpath`). */
export default function roundRobinPlugin(): WalkerPlugin;
