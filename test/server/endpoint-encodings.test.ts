import { describe, expect, it } from 'vitest';
import { encodingOf, type Dialect } from '../../server/routes/execution/dialect.js';
import { ENDPOINTS } from '../../server/routes/execution/endpoints.js';
import { walkerDialect } from '../../server/routes/execution/walker-dialect.js';
import { graphwalkerDialect } from '../../server/routes/graphwalker/dialect.js';

const byName = (name: string) => ENDPOINTS.find((e) => e.name === name)!;

describe('how a dialect answers an endpoint (encodingOf)', () => {
  it('serves every endpoint under /walker, and all but getModel under /graphwalker', () => {
    expect(ENDPOINTS.filter((e) => encodingOf(walkerDialect, e) === undefined).map((e) => e.name)).toEqual([]);
    expect(ENDPOINTS.filter((e) => encodingOf(graphwalkerDialect, e) === undefined).map((e) => e.name)).toEqual(['getModel']);
  });

  it("takes the dialect's own encoding over the answer the endpoint shares, and the shared one otherwise", () => {
    const statistics = byName('getStatistics');
    expect(encodingOf(walkerDialect, statistics)).toBe(walkerDialect.encodings.getStatistics);
    expect(encodingOf(graphwalkerDialect, statistics)).toBe(statistics.answer);
    expect(encodingOf(walkerDialect, byName('hasNext'))).toBe(byName('hasNext').answer);
  });

  it('refuses, naming both, a dialect that has no answer for an endpoint and does not leave it out', () => {
    const lacking: Dialect = { ...graphwalkerDialect, name: 'lacking', encodings: {}, leavesOut: [] };
    expect(() => encodingOf(lacking, byName('getNext'))).toThrow(/The lacking dialect has no answer for the endpoint getNext/);
    // One it shares an answer for is served all the same.
    expect(encodingOf(lacking, byName('setData'))).toBe(byName('setData').answer);
  });
});
