// Walks a model file offline to full edge coverage and prints the path, the data and the coverage.
// Run it from the repository root: node examples/library/offline-walk.mjs examples/models/login.json
import { Walker } from 'walker-mbt';
import { builtinPlugins } from 'walker-mbt/plugins';

const file = process.argv[2] ?? 'examples/models/login.json';
const walker = await Walker.create(builtinPlugins());
const walk = await walker.open({ file, generator: 'random(edge_coverage(100))', seed: 42 });
try {
  const path = [];
  for (const step of walk) path.push(step.name);
  const stats = walk.statistics();
  console.log(`seed ${walk.seed}: ${path.length} steps, ${stats.edgeCoverage}% of edges`);
  console.log(`first steps: ${path.slice(0, 5).join(' -> ')}`);
  console.log(`data: ${walk.data()}`);
} finally {
  walk.dispose();
}
