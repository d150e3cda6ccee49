import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { StopConditionFactory } from '../../core/condition.js';
import type { WalkerPlugin } from '../../core/plugin.js';
import { ThrownValueError, toError } from '../../server/thrown.js';
import { call as draftCall, smallDraft } from './drafts/helpers.js';
import { call, load, nok, testApp } from './helpers.js';
import { loop } from './models.js';

class PluginFailure extends Error {
  override readonly name = 'PluginFailure';
}

/** Each kind of value a plugin may throw, and the text the service makes of it. */
const THROWN: Array<[string, () => unknown, string]> = [
  ['a string', () => 'the rope broke', "a string was thrown instead of an Error: 'the rope broke'"],
  ['null', () => null, 'null was thrown instead of an Error'],
  ['undefined', () => undefined, 'undefined was thrown instead of an Error'],
  ['an object', () => ({ reason: 'tired' }), 'an object was thrown instead of an Error: {"reason":"tired"}'],
  ['an Error subclass', () => new PluginFailure('the generator gave up'), 'the generator gave up'],
  ['an Error subclass without a message', () => new PluginFailure(), 'PluginFailure without a message'],
  ['an Error with a statusCode of its own', () => Object.assign(new Error('not found, says the plugin'), { statusCode: 404 }), 'not found, says the plugin'],
];

type Place = 'generator.create' | 'generator.nextEdge' | 'condition.create' | 'condition.isFulfilled';

/** A plugin whose generator `thrower` and condition `boom` throw `value()` at `place`, and behave elsewhere. */
function throwingPlugin(place: Place, value: () => unknown): WalkerPlugin {
  const boom: StopConditionFactory = {
    name: 'boom' as StopConditionFactory['name'],
    argument: 'none',
    endsOnVertex: false,
    create: () => {
      if (place === 'condition.create') throw value();
      return { isFulfilled: () => (place === 'condition.isFulfilled' ? raise(value()) : false), fulfilment: () => 0 };
    },
  };
  return {
    meta: { name: 'thrower', version: '1.0.0' },
    setup(registries) {
      registries.conditions.register(boom);
      registries.generators.register({
        name: 'thrower' as 'random',
        create: () => {
          if (place === 'generator.create') throw value();
          return { nextEdge: (walk, vertex) => (place === 'generator.nextEdge' ? raise(value()) : walk.openEdges(vertex)[0]) };
        },
      });
    },
  };
}

function raise(value: unknown): never {
  throw value;
}

describe('a value thrown by plugin code', () => {
  describe.each(THROWN)('%s', (_kind, value, text) => {
    it('from making a generator or condition fails the load with nok, and keeps the loaded model', async () => {
      for (const [place, generator] of [['generator.create', 'thrower(length(5))'], ['condition.create', 'random(boom)']] as const) {
        const app = await testApp({ plugins: [throwingPlugin(place, value)] });
        await load(app, loop('random(length(3))'));
        const res = await load(app, loop(generator));
        expect(res).toMatchObject({ status: 200, type: 'application/json; charset=utf-8', body: nok(`Unexpected error: ${text}`) });
        expect((await call(app, 'GET', '/walker/getNext')).body).toMatchObject({ result: 'ok', currentElementID: 'e0' });
      }
    });

    it('from a step answers nok with HTTP 200 and takes no step', async () => {
      const app = await testApp({ plugins: [throwingPlugin('generator.nextEdge', value)] });
      await load(app, loop('thrower(length(5))'));
      await call(app, 'GET', '/walker/getNext');
      await call(app, 'GET', '/walker/getNext');
      const before = (await call(app, 'GET', '/walker/getStatistics')).body;
      const res = await call(app, 'GET', '/walker/getNext');
      expect(res).toMatchObject({ status: 200, body: nok(`Unexpected error: ${text}`) });
      expect((await call(app, 'GET', '/walker/getStatistics')).body).toEqual(before);
    });

    it('from a stop condition answers hasNext with nok', async () => {
      const app = await testApp({ plugins: [throwingPlugin('condition.isFulfilled', value)] });
      await load(app, loop('random(boom)'));
      expect(await call(app, 'GET', '/walker/hasNext')).toMatchObject({ status: 200, body: nok(`Unexpected error: ${text}`) });
    });

    it('from draft validation answers the draft format, 500 internal', async () => {
      const app = await testApp({ plugins: [throwingPlugin('generator.create', value)] });
      const id = await smallDraft(app);
      await draftCall(app, 'PATCH', `/walker/drafts/${id}`, { generator: 'thrower(length(1))' });
      const res = await draftCall(app, 'GET', `/walker/drafts/${id}/validation`);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ code: 'internal', message: 'The server failed to handle the request; it is logged.' });
    });
  });

  it('is logged whole at error level, the value included', async () => {
    const lines: string[] = [];
    const stream = new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) });
    const app = await testApp({ plugins: [throwingPlugin('condition.isFulfilled', () => ({ reason: 'tired' }))], logger: { level: 'error', stream } });
    await load(app, loop('random(boom)'));
    await call(app, 'GET', '/walker/hasNext');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ level: 50, err: { type: 'ThrownValueError', value: { reason: 'tired' } } });
  });
});

describe('toError', () => {
  it('keeps an Error and wraps anything else, never throwing itself', () => {
    const error = new RangeError('x');
    expect(toError(error)).toBe(error);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(toError(circular).message).toBe('an object was thrown instead of an Error: [object Object]');
    expect(toError(42).message).toBe('a number was thrown instead of an Error: 42');
    expect(toError([1, 2]).message).toBe('an array was thrown instead of an Error: [1,2]');
    expect(toError('x'.repeat(500)).message).toHaveLength('a string was thrown instead of an Error: '.length + 120);
    expect((toError(null) as ThrownValueError).value).toBeNull();
  });
});
