import { constants } from 'node:buffer';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCRIPT_LIMITS } from '../../core/scripting.js';
import { DEFAULT_WALK_SETTINGS } from '../../core/walk-settings.js';
import { DEFAULT_APP_OPTIONS } from '../../server/options.js';
import { MAX_MODEL_BYTES, optionWarnings, resolveAppOptions } from '../../server/resolve-options.js';
import { parseOrigin } from '../../server/origins.js';
import { testApp } from './helpers.js';

describe('resolveAppOptions', () => {
  it('fills the documented defaults', () => {
    const resolved = resolveAppOptions({});
    expect(resolved.timeouts).toEqual({ headersMs: 10_000, requestMs: 60_000, keepAliveMs: 72_000, idleMs: 60_000 });
    expect(resolved).toMatchObject({ maxModelBytes: 32 * 1024 * 1024, maxHeaderBytes: 256 * 1024, allowOrigins: [], pluginSetupTimeoutMs: 10_000 });
    expect(resolved.token).toBeUndefined();
    expect(resolved.sessions).toEqual({ ttlSeconds: 1800, maxSessions: 64, slowRequestMs: 20 });
    expect(resolved.view).toEqual({ maxStreams: 256, maxStreamsPerSource: 32, streamTimeoutMs: 30_000 });
    expect(resolved.conversions).toEqual({ timeLimitMs: 60_000, memoryMiB: 1024 });
    expect(resolveAppOptions({ conversions: { timeLimitMs: 500, memoryMiB: undefined } }).conversions).toEqual({ timeLimitMs: 500, memoryMiB: 1024 });
    expect(resolved.nodeId).toBeUndefined();
    // What `walker online` passes when none of its session options is given.
    const fromCli = resolveAppOptions({ sessions: { ttlSeconds: undefined, maxSessions: undefined, slowRequestMs: undefined } });
    expect(fromCli.sessions).toEqual(resolved.sessions);
    expect(resolveAppOptions({ timeouts: { headersMs: 50, requestMs: undefined } }).timeouts).toEqual({ ...DEFAULT_APP_OPTIONS.timeouts, headersMs: 50 });
  });

  it('builds the walk settings once from the fields given at the top level, and keeps none of them beside it', () => {
    const resolved = resolveAppOptions({ seed: 5, blocked: false, scriptLimits: { timeoutMs: 50, budgetMs: undefined }, planStates: 4, nodeId: 'n1' });
    expect(resolved.walk).toEqual({
      seed: 5,
      blocked: false,
      scriptLimits: { ...DEFAULT_SCRIPT_LIMITS, timeoutMs: 50 },
      planStates: 4,
      planTimeMs: DEFAULT_WALK_SETTINGS.planTimeMs,
    });
    expect(resolved.nodeId).toBe('n1');
    for (const field of ['seed', 'blocked', 'scriptLimits', 'planStates', 'planTimeMs']) expect(Object.hasOwn(resolved, field)).toBe(false);
    expect(resolveAppOptions({}).walk).toEqual(DEFAULT_WALK_SETTINGS);
    expect(() => resolveAppOptions({ seed: -1 })).toThrow('seed must be a non-negative whole number, got -1');
    expect(() => resolveAppOptions({ planTimeMs: 0 })).toThrow('planTimeMs must be a number of milliseconds above 0; got 0.');
  });

  it('lowers maxModelBytes to the longest string Node.js can hold, and says so', () => {
    expect(MAX_MODEL_BYTES).toBe(constants.MAX_STRING_LENGTH);
    expect(resolveAppOptions({ maxModelBytes: 2 ** 40 }).maxModelBytes).toBe(MAX_MODEL_BYTES);
    expect(optionWarnings({ maxModelBytes: 2 ** 40 })).toEqual([
      `--max-model-bytes ${2 ** 40} is more than Node.js can hold as one string; load bodies are limited to ${MAX_MODEL_BYTES} bytes instead (larger ones answer 413).`,
    ]);
    expect(resolveAppOptions({ maxModelBytes: MAX_MODEL_BYTES }).maxModelBytes).toBe(MAX_MODEL_BYTES);
    expect(optionWarnings({ maxModelBytes: MAX_MODEL_BYTES })).toEqual([]);
    expect(optionWarnings({})).toEqual([]);
  });

  it('writes the warning to the log at startup', async () => {
    const lines: string[] = [];
    const stream = new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) });
    const app = await testApp({ maxModelBytes: 2 ** 40, logger: { level: 'warn', stream } });
    expect(app.services.options.maxModelBytes).toBe(MAX_MODEL_BYTES);
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ level: 40, msg: expect.stringContaining(`limited to ${MAX_MODEL_BYTES} bytes`) as unknown }),
    ]);
  });

  it.each([
    [{ timeouts: { headersMs: 0 } }, 'timeouts.headersMs must be a positive whole number, got 0'],
    [{ timeouts: { idleMs: 1.5 } }, 'timeouts.idleMs must be a positive whole number, got 1.5'],
    [{ timeouts: { headersMs: 5000, requestMs: 1000 } }, 'timeouts.headersMs (5000) must not exceed timeouts.requestMs (1000): the headers are part of the request'],
    [{ maxHeaderBytes: -1 }, 'maxHeaderBytes must be a positive whole number, got -1'],
    [{ pluginSetupTimeoutMs: Number.NaN }, 'pluginSetupTimeoutMs must be a positive whole number, got NaN'],
    [{ drafts: { maxDrafts: 0 } }, 'drafts.maxDrafts must be a positive whole number, got 0'],
    [{ view: { maxStreamsPerSource: 0 } }, 'view.maxStreamsPerSource must be a positive whole number, got 0'],
    [{ conversions: { memoryMiB: 0 } }, 'conversions.memoryMiB must be a positive whole number, got 0'],
    [{ token: '' }, 'token must be printable ASCII without spaces (it travels in an Authorization header), and not empty'],
    [{ token: 'two words' }, 'token must be printable ASCII without spaces (it travels in an Authorization header), and not empty'],
    [{ allowOrigins: ['localhost:3000'] }, "allowOrigins: 'localhost:3000' is not an http: or https: origin; write an origin as a browser sends it, e.g. 'http://localhost:3000'"],
  ])('refuses %j', (options, message) => {
    expect(() => resolveAppOptions(options)).toThrow(new RangeError(message));
  });
});

describe('parseOrigin', () => {
  it('normalises an origin as browsers send it, forgiving a trailing slash', () => {
    expect(parseOrigin('HTTP://LocalHost:3000/')).toBe('http://localhost:3000');
    expect(parseOrigin('https://ui.example:443')).toBe('https://ui.example');
    expect(parseOrigin('http://[::1]:5173')).toBe('http://[::1]:5173');
  });

  it.each([
    ['*', 'would let every web site in (there is no wildcard)'],
    ['null', 'is the origin of sandboxed frames and local files, which any page can produce'],
    ['not a url', 'is not a URL'],
    ['file:///tmp/ui.html', 'is not an http: or https: origin'],
    ['http://ui.example/app', 'has more than scheme, host and port'],
    ['http://user@ui.example', 'has more than scheme, host and port'],
  ])('refuses %s', (text, why) => {
    expect(() => parseOrigin(text)).toThrow(`allowOrigins: '${text}' ${why}; write an origin as a browser sends it, e.g. 'http://localhost:3000'`);
  });
});
