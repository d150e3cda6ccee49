import { describe, expect, it } from 'vitest';
import { walkThreadName } from '../../server/sessions/thread-name.js';

describe('the name of a walk thread', () => {
  it('tells apart sessions whose ids share a long node id, within the 15 characters Linux keeps', () => {
    const node = 'build-agent-eu-west-17';
    const [a, b] = [walkThreadName(`${node}-0f3a9c2e-7d41-4b8e-9a6f-2c5d8e1b3a70`), walkThreadName(`${node}-5e8b1d4c-2a97-4f3c-8e6d-9b0a7c4f1e25`)];
    expect(a).toBe('walk 5d8e1b3a70');
    expect(b).toBe('walk 0a7c4f1e25');
    expect(a.length).toBeLessThanOrEqual(15);
  });

  it('keeps a short id whole', () => {
    expect(walkThreadName('s1')).toBe('walk s1');
  });
});
