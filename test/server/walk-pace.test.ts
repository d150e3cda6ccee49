import { describe, expect, it } from 'vitest';
import { SessionActivity, WalkPace } from '../../server/sessions/walk-pace.js';

describe("a busy walk's pace in its thread (WalkPace)", () => {
  it('owes, while others are served, what its last request took of the CPU less the time since it ended', () => {
    let cpu = 0;
    const pace = new WalkPace(() => cpu);
    const started = pace.begin();
    cpu += 120;
    pace.ran(started, 1_000);
    expect(pace.owed(true, 1_000)).toBe(120);
    expect(pace.owed(true, 1_050)).toBe(70);
    // Long enough ago, or nearly: nothing to wait for.
    expect(pace.owed(true, 1_119.5)).toBe(0);
    expect(pace.owed(true, 2_000)).toBe(0);
    // Nobody else served: full pace.
    expect(pace.owed(false, 1_000)).toBe(0);
  });

  it("counts the CPU a request took, not its time on the wall clock: a thread kept waiting for a core owes only what it ran", () => {
    let cpu = 0;
    const pace = new WalkPace(() => cpu);
    const started = pace.begin();
    cpu += 30;
    // 200 ms by the wall clock passed meanwhile, but the thread ran 30 of them.
    pace.ran(started, 200);
    expect(pace.owed(true, 200)).toBe(30);
  });
});

describe("the sessions' requests (SessionActivity)", () => {
  it('tell a session whether another started a request between two of its own', () => {
    const activity = new SessionActivity();
    const first = activity.started();
    const second = activity.started();
    expect(SessionActivity.othersBetween(first, second)).toBe(false);
    activity.started();
    const fourth = activity.started();
    expect(SessionActivity.othersBetween(second, fourth)).toBe(true);
  });
});
