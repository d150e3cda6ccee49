import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../../core/errors.js';
import { createRegistries, isWalkerPlugin } from '../../../core/plugin.js';
import { builtInStopConditions, stopConditionsPlugin } from '../../../plugins/conditions/index.js';

/** docs/generators.md, Java aliases included, and each condition's argument kind. */
const EXPECTED = [
  ['edge_coverage', ['edgecoverage'], 'integer', true],
  ['vertex_coverage', ['vertexcoverage'], 'integer', true],
  ['requirement_coverage', ['requirementcoverage'], 'integer', true],
  ['dependency_edge_coverage', ['dependencyedgecoverage'], 'integer', true],
  ['reached_vertex', ['reachedvertex'], 'name', false],
  ['reached_edge', ['reachededge'], 'name', false],
  ['reached_shared_state', ['reachedsharedstate'], 'name', false],
  ['time_duration', ['timeduration'], 'integer', true],
  ['length', [], 'integer', true],
  ['never', [], 'none', false],
  ['predefined_path', ['predefinedpath'], 'none', true],
] as const;

async function installed() {
  const registries = createRegistries();
  await stopConditionsPlugin().setup(registries);
  return registries;
}

describe('stopConditionsPlugin', () => {
  it('is a walker plugin named walker-conditions', () => {
    const plugin = stopConditionsPlugin();
    expect(isWalkerPlugin(plugin)).toBe(true);
    expect(plugin.meta.name).toBe('walker-conditions');
  });

  it('registers every condition docs/generators.md lists, and nothing else', async () => {
    const registries = await installed();
    expect(registries.conditions.names()).toEqual(EXPECTED.map(([name]) => name));
    expect(builtInStopConditions.map((f) => f.name)).toEqual(EXPECTED.map(([name]) => name));
  });

  it.each(EXPECTED)('%s: aliases, argument kind and vertex rule', async (name, aliases, argument, endsOnVertex) => {
    const registries = await installed();
    const factory = registries.conditions.get(name);
    for (const alias of aliases) expect(registries.conditions.get(alias)).toBe(factory);
    expect(registries.conditions.get(name.toUpperCase())).toBe(factory);
    expect(factory.argument).toBe(argument);
    expect(factory.endsOnVertex).toBe(endsOnVertex);
  });

  it('finds the Java spelling case-insensitively', async () => {
    const registries = await installed();
    expect(registries.conditions.get('EdgeCoverage').name).toBe('edge_coverage');
    expect(registries.conditions.get('ReachedSharedState').name).toBe('reached_shared_state');
  });

  it('cannot be installed twice into the same registries', async () => {
    const registries = await installed();
    await expect(async () => stopConditionsPlugin().setup(registries)).rejects.toMatchObject({
      code: ErrorCodes.DUPLICATE_NAME,
      message: "The stop condition name 'edge_coverage' of plugin 'walker-conditions' is already registered by plugin 'walker-conditions'.",
    });
  });

  it('can be installed into separate registries', async () => {
    await installed();
    expect((await installed()).conditions.values()).toHaveLength(EXPECTED.length);
  });
});
