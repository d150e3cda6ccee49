import { describe, expect, it } from 'vitest';
import { evaluateGuards, origin, variableMap, type SandboxPool } from './contract-helpers.js';

/** The first instant the run's clock can show, and the length of the year it starts in. */
const EPOCH = Date.UTC(2024, 0, 1);
const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/** `Date` inside scripts: the run's clock by default, the host's with `realClock`. */
export function describeClock(pool: SandboxPool): void {
  describe('the run clock', () => {
    const now = (seed: number): number => {
      const sandbox = pool.open({ seed });
      sandbox.run(0, 't = Date.now();', origin());
      return Number(variableMap(sandbox, 0).t);
    };

    it('starts at a whole second of 2024 fixed by the seed', () => {
      expect(now(42)).toBe(now(42));
      expect(now(42)).not.toBe(now(43));
      for (const seed of [0, 42, 2 ** 53 - 1]) {
        expect(now(seed)).toBeGreaterThanOrEqual(EPOCH);
        expect(now(seed)).toBeLessThan(EPOCH + YEAR_MS);
        expect(now(seed) % 1000).toBe(0);
      }
    });

    it('stands still within a step, advances a second per step and starts again on reset', () => {
      const sandbox = pool.open({ seed: 7 });
      sandbox.run(0, 'a = Date.now(); b = new Date().getTime(); c = Date.now();', origin());
      sandbox.stepped?.();
      sandbox.stepped?.();
      sandbox.run(0, 'd = Date.now();', origin());
      const values = variableMap(sandbox, 0);
      expect(values.b).toBe(values.a);
      expect(values.c).toBe(values.a);
      expect(Number(values.d) - Number(values.a)).toBe(2000);
      sandbox.reset();
      sandbox.run(0, 'e = Date.now();', origin());
      expect(variableMap(sandbox, 0).e).toBe(values.a);
    });

    it('lets guards compare times, and replays them from the seed', () => {
      const opened = (): number[][] => {
        const sandbox = pool.open({ seed: 99 });
        sandbox.run(0, 'start = Date.now();', origin());
        return [0, 1, 2].map(() => {
          sandbox.stepped?.();
          return evaluateGuards(sandbox, 0, ['Date.now() - start < 1500', 'new Date().getUTCSeconds() % 2 === 0']);
        });
      };
      expect(opened()).toEqual(opened());
      expect(opened().map(([first]) => first)).toEqual([1, 0, 0]);
    });

    it('keeps every other use of Date: arguments, UTC, parse, prototype, subclasses, Date() as a string', () => {
      const sandbox = pool.open({ seed: 5 });
      sandbox.run(0, 'class Later extends Date { later() { return this.getTime() + 1; } }', origin());
      expect(
        evaluateGuards(sandbox, 0, [
          'new Date(2020, 0, 2).getFullYear() === 2020',
          'new Date(0).toISOString() === "1970-01-01T00:00:00.000Z"',
          'Date.UTC(2000, 0, 1) === 946684800000 && Date.parse("2000-01-01T00:00:00Z") === 946684800000',
          'new Date() instanceof Date && Object.getPrototypeOf(new Date()) === Date.prototype',
          'new Later().later() === Date.now() + 1',
          'typeof Date() === "string" && Date() === new Date().toString()',
          'new (Object.getPrototypeOf(new Date(0)).constructor)().getTime() === Date.now()',
        ]),
      ).toEqual([1, 1, 1, 1, 1, 1, 1]);
    });

    it('reads the host clock when realClock is set', () => {
      const sandbox = pool.open({ limits: { realClock: true } });
      const before = Date.now();
      sandbox.run(0, 't = Date.now();', origin());
      const t = Number(variableMap(sandbox, 0).t);
      expect(t).toBeGreaterThanOrEqual(before);
      expect(t).toBeLessThanOrEqual(Date.now());
    });
  });
}
