import { beforeAll, describe, expect, it } from 'vitest';
import { Machine } from '../../../core/machine/machine.js';
import { ScriptError } from '../../../core/errors.js';
import type { Registries } from '../../../core/plugin.js';
import type { Graph } from '../../../core/model/graph.js';
import { testRegistries } from '../../support/walkers.js';
import { Graph as ModelGraph } from '../../../core/model/graph.js';
import { graphOf, ringModel, sharedModels } from './fixtures.js';

let registries: Registries;
beforeAll(async () => {
  registries = await testRegistries();
});

const machine = (graph: Graph, seed = 1): Machine => new Machine({ graph, registries, seed });

/** The ring, with a counter: ab is open only while n < 2, and every ab increments it. */
function guardedRing(generator = 'first(length(15))'): Graph {
  const ring = ringModel(generator, { actions: ['n = 0;', 'label = "ring";'] });
  ring.edges = ring.edges.map((e) => (e.id === 'ab' ? { ...e, guard: 'n < 2', actions: ['n++;'] } : e));
  return graphOf(ring);
}

describe('guards and actions', () => {
  it('takes a guarded edge only while its guard holds', () => {
    const m = machine(guardedRing());
    const path: string[] = [];
    while (m.hasNext()) path.push(m.next().id);
    expect(path).toEqual(['A', 'ab', 'B', 'bc', 'C', 'ca', 'A', 'ab', 'B', 'bc', 'C', 'ca', 'A', 'ac', 'C']);
  });

  it('runs model actions at load and reports variables in first-assignment order', () => {
    const m = machine(guardedRing());
    expect(m.data()).toBe('n=0; label=ring');
    m.next();
    m.next();
    expect(m.data()).toBe('n=1; label=ring');
  });

  it('runs vertex actions on every visit', () => {
    const ring = ringModel('first(length(6))', { actions: ['visits = 0;'] });
    ring.vertices[0] = { ...ring.vertices[0], actions: ['visits += 1;'] };
    const m = machine(graphOf(ring));
    while (m.hasNext()) m.next();
    expect(m.data()).toBe('visits=2');
  });

  it('shares `global.` variables between models and lists them last', () => {
    const a = ringModel('first(length(2))', { id: 'a', actions: ['global.shared = 1;', 'own = true;'] });
    const b = { ...ringModel('first(length(2))', { id: 'b' }), startElementId: undefined };
    b.edges = b.edges.map((e) => ({ ...e, guard: 'global.shared > 0' }));
    const m = machine(graphOf(a, b));
    expect(m.data()).toBe('own=true; global.shared=1');
  });

  it('changes variables with setData, and a script error names the script problem', () => {
    const m = machine(guardedRing());
    m.setData('n = 5; extra = "x";');
    expect(m.data()).toBe('n=5; label=ring; extra=x');
    expect(() => m.setData('y.z = 1;')).toThrow(ScriptError);
    expect(() => m.setData('y.z = 1;')).toThrow(/ReferenceError: y is not defined/);
  });

  it('reruns model actions and clears variables on restart', () => {
    const m = machine(guardedRing());
    m.setData('extra = 1;');
    m.next();
    m.next();
    m.restart();
    expect(m.data()).toBe('n=0; label=ring');
    expect(m.statistics().totalNumberOfVisitedEdges).toBe(0);
  });

  it('drives Math.random in scripts from the seed', () => {
    const ring = ringModel('first(length(1))', { actions: ['r = Math.random();'] });
    const r = (seed: number) => machine(graphOf(ring), seed).data();
    expect(r(3)).toBe(r(3));
    expect(r(3)).not.toBe(r(4));
  });

  it('evaluates the guards of a vertex once per step, however often the step asks', () => {
    // At the hub the machine asks whether the walk can stay, then about the other model's unnamed hub, then
    // the generator asks again: a guard with a side effect (or Math.random) must see one evaluation per step.
    const file = sharedModels('any(never)', 'any(never)');
    const [left, right] = file.models;
    left.actions = ['global.asked = 0;'];
    left.edges = left.edges.map((e) => (e.id === 'l2' ? { ...e, guard: '(global.asked = global.asked + 1) > 0' } : e));
    right.vertices = right.vertices.map((v) => (v.id === 'RH' ? { id: 'RH', sharedState: 'HUB' } : v));
    right.edges = right.edges.map((e) => (e.id === 'r1' ? { ...e, guard: 'true' } : e));
    const m = new Machine({ graph: new ModelGraph(file), registries, seed: 7 });
    const path: string[] = [];
    while (path.length < 60) path.push(m.next().id);
    const decisionsAtHub = path.slice(0, -1).filter((id) => id === 'LH').length;
    expect(decisionsAtHub).toBeGreaterThan(5);
    expect(m.data()).toContain(`global.asked=${decisionsAtHub}`);
  });

  it('keeps no answer from a guard evaluation that failed: the next ask in the same step evaluates again', () => {
    // The first evaluation at A throws (tries becomes 1); nothing runs before the walk asks again, so only
    // a remembered half-made answer could spare the second evaluation, which opens ab (tries becomes 2).
    const ring = ringModel('first(length(3))', { actions: ['tries = 0;'] });
    ring.edges = ring.edges.map((e) => (e.id === 'ab' ? { ...e, guard: '(tries = tries + 1) < 2 ? missing.x : true' } : e));
    const m = machine(graphOf(ring));
    expect(m.next().id).toBe('A');
    expect(() => m.next()).toThrow(/ReferenceError: missing is not defined/);
    expect(m.next().id).toBe('ab');
    expect(m.data()).toBe('tries=2');
  });
});
