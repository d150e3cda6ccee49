import { beforeAll, describe, expect, it } from 'vitest';
import type { StopCondition } from '../../../core/condition.js';
import { AllOf, AnyOf, OnVertex, whyNever } from '../../../core/machine/conditions.js';
import type { WalkState } from '../../../core/walk-state.js';
import { Graph } from '../../../core/model/graph.js';
import { Machine } from '../../../core/machine/machine.js';
import type { Registries } from '../../../core/plugin.js';
import { testRegistries } from '../../support/walkers.js';
import { boundedRatio } from '../../support/growth.js';
import { ringModel } from './fixtures.js';

/** `and` / `or` groups of any size: what they cost a walk, and what they say when they can never be fulfilled. */

const walk = {} as WalkState;

/** A condition with a fixed fulfilment, and targets and a step counter when asked for. */
function fixed(fulfilment: number, more: { targets?: number[]; counted?: number[] } = {}): StopCondition {
  const { targets, counted } = more;
  return {
    isFulfilled: () => fulfilment >= 1,
    fulfilment: () => fulfilment,
    ...(targets === undefined ? {} : { targets }),
    ...(counted === undefined ? {} : { onStep: (_walk: WalkState, element: number) => void counted.push(element) }),
  };
}

describe('groups of many operands', () => {
  it('gives the fulfilment of an `or` of 200,000 operands, where spreading them overflowed the stack', () => {
    const operands = Array.from({ length: 200_000 }, (_, i) => fixed(i === 123_456 ? 0.75 : 0.5));
    expect(new AnyOf(operands).fulfilment(walk)).toBe(0.75);
    expect(new AllOf(operands).fulfilment(walk)).toBeCloseTo(0.5, 5);
  });

  it('counts steps only where some operand does, at any depth', () => {
    const counted: number[] = [];
    expect(new AllOf([fixed(0), new AnyOf([fixed(0), fixed(1)])]).onStep).toBeUndefined();
    const group = new AnyOf([fixed(0), new AllOf([fixed(0), new OnVertex(fixed(0, { counted }))])]);
    group.onStep!(walk, 7, true);
    expect(counted).toEqual([7]);
  });

  it('gathers the targets of every leaf of a nesting, each once, in order', () => {
    const shared = [4, 5];
    let nested: StopCondition = fixed(0, { targets: [9, 4] });
    for (let depth = 0; depth < 100; depth++) nested = new AllOf([fixed(0, { targets: shared }), nested, fixed(0)]);
    expect(new AnyOf([fixed(0, { targets: [1] }), nested]).targets).toEqual([1, 4, 5, 9]);
    expect(new AllOf([fixed(0), fixed(1)]).targets).toBeUndefined();
  });

  it('gives the first reasons of an `or` whose operands all fail, and how many more there are', () => {
    const operands = Array.from({ length: 10_000 }, () => fixed(0));
    let n = 0;
    const why = whyNever(new AnyOf(operands), () => `reason ${++n}`);
    expect(why).toBe('reason 1; and reason 2; and reason 3; and 9997 more operands that can never be fulfilled either');
  });
});

describe('a long generator string costs a walk nothing per step', () => {
  let registries: Registries;
  beforeAll(async () => {
    registries = await testRegistries();
  });

  /** A walk of the ring under `generator`, which never ends; `steps()` takes 1,000 more steps. */
  function stepper(generator: string): { steps: () => void; machine: Machine } {
    const machine = new Machine({ graph: new Graph({ models: [ringModel(generator)] }), registries, seed: 1 });
    return { machine, steps: () => { for (let i = 0; i < 1000; i++) machine.next(); } };
  }

  it('walks as fast under ten `and`s of a thousand operands as under one of two', () => {
    const thousand = `any(${Array.from({ length: 1000 }, () => 'never').join(' and ')})`;
    const small = stepper('any(never and never)');
    const large = stepper(Array.from({ length: 10 }, () => thousand).join(' '));
    try {
      // The same steps either way: only the generator string differs, and it asks nothing on a step.
      expect(boundedRatio(small.steps, large.steps, 2)).toBeLessThanOrEqual(2);
    } finally {
      small.machine.dispose();
      large.machine.dispose();
    }
  });
});
