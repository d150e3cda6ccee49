import { describe, expect, it } from 'vitest';
import { SLOW_WINDOW, SlowRequests } from '../../server/sessions/slow-requests.js';

const RULE = { slowRequestMs: 20, slowRequests: 2 };

/**
 * The rule on a fake CPU clock. `request(wallMs, cpuMs)` is one request as HostedSession times it: the CPU
 * clock read before it when the rule asks for it, the work (the CPU clock advances by `cpuMs`), the judgement.
 */
function judge() {
  let cpu = 0;
  let cpuReads = 0;
  const rule = new SlowRequests(RULE, () => {
    cpuReads++;
    return cpu;
  });
  const request = (wallMs: number, cpuMs = wallMs, load = false): boolean => {
    const started = rule.cpuStart(load);
    cpu += cpuMs;
    return rule.judge(wallMs, started, load);
  };
  return { request, cpuReads: () => cpuReads };
}

describe('the slow-request rule', () => {
  it('moves a walk on its second slow request, once the CPU clock confirms the work was its own', () => {
    const { request } = judge();
    expect(request(1)).toBe(false);
    expect(request(200)).toBe(false);
    expect(request(1)).toBe(false);
    expect(request(200)).toBe(true);
  });

  it('leaves a walk whose requests were slow only because the machine kept its thread waiting', () => {
    const { request } = judge();
    // The first slow request cannot be told apart (nothing read the CPU before it), and counts.
    expect(request(30, 1)).toBe(false);
    // From then on the CPU clock says each of these ran a millisecond: none is slow, and the walk stays.
    for (let i = 0; i < 3 * SLOW_WINDOW; i++) expect(request(i % 2 === 0 ? 45 : 1, 1)).toBe(false);
  });

  it('takes a request that ran a quarter of the slow-request time for work of its own', () => {
    const { request } = judge();
    expect(request(200, 200)).toBe(false);
    // A script waiting on the real clock runs what a loaded machine gives its thread.
    expect(request(200, 0.24 * RULE.slowRequestMs)).toBe(false);
    expect(request(200, 0.25 * RULE.slowRequestMs)).toBe(true);
  });

  it('forgets a slow request after a window of fast ones', () => {
    const { request } = judge();
    expect(request(200)).toBe(false);
    for (let i = 1; i < SLOW_WINDOW; i++) expect(request(1)).toBe(false);
    expect(request(200)).toBe(false);
    expect(request(1)).toBe(false);
    expect(request(200)).toBe(true);
  });

  it('judges loads apart: a slow load and a slow step make no pair, two slow loads do', () => {
    const { request } = judge();
    expect(request(300, 300, true)).toBe(false);
    expect(request(200)).toBe(false);
    expect(request(1)).toBe(false);
    expect(request(300, 300, true)).toBe(true);
  });

  it('reads the CPU clock only while a slow request is among the recent ones', () => {
    const { request, cpuReads } = judge();
    for (let i = 0; i < 100; i++) request(1);
    expect(cpuReads()).toBe(0);
    request(200);
    for (let i = 1; i < SLOW_WINDOW; i++) request(1);
    // Before each of the next window's requests, and after each of them that was slow by the wall clock.
    expect(cpuReads()).toBe(SLOW_WINDOW - 1);
    request(1);
    expect(cpuReads()).toBe(SLOW_WINDOW);
    request(1);
    expect(cpuReads()).toBe(SLOW_WINDOW);
  });

  it('reads no CPU clock on the steps of a walk whose only slow request was its load', () => {
    const { request, cpuReads } = judge();
    request(300, 300, true);
    for (let i = 0; i < 100; i++) request(1);
    expect(cpuReads()).toBe(0);
    // The next load is in doubt, and read.
    request(1, 1, true);
    expect(cpuReads()).toBe(1);
  });
});
