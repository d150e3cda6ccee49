import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../../core/errors.js';
import { createRegistries } from '../../../core/plugin.js';
import { generatorsPlugin } from '../../../plugins/generators/index.js';

describe('generatorsPlugin', () => {
  it('is a walker plugin named walker-generators', () => {
    expect(generatorsPlugin().meta.name).toBe('walker-generators');
  });

  it('registers the six generators under their names and GraphWalker aliases, case-insensitively', async () => {
    const registries = createRegistries();
    await generatorsPlugin().setup(registries);
    expect(registries.generators.names()).toEqual([
      'random',
      'weighted_random',
      'quick_random',
      'a_star',
      'shortest_all_paths',
      'predefined_path',
    ]);
    const aliases: Record<string, string> = {
      RandomPath: 'random',
      weightedRandomPath: 'weighted_random',
      QuickRandom: 'quick_random',
      quickrandompath: 'quick_random',
      AStarPath: 'a_star',
      ShortestAllPaths: 'shortest_all_paths',
      PREDEFINEDPATH: 'predefined_path',
      Weighted_Random: 'weighted_random',
    };
    for (const [alias, name] of Object.entries(aliases)) expect(registries.generators.get(alias).name).toBe(name);
  });

  it('refuses to be registered twice', async () => {
    const registries = createRegistries();
    await generatorsPlugin().setup(registries);
    expect(() => generatorsPlugin().setup(registries)).toThrow(expect.objectContaining({ code: ErrorCodes.DUPLICATE_NAME }));
  });
});
