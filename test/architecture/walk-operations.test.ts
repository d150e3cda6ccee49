import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ExecutionSession, JournalOp, operationOfCode, WALK_OPERATIONS, type WalkOperation } from '../../core/session.js';
import { MAX_OPERATION_ARGS, WALK_OPERATION_NAMES } from '../../core/walk-proxy.js';
import { LocalWalk } from '../../server/sessions/local-walk.js';
import { WorkerWalk } from '../../server/sessions/worker-walk.js';
import { ObservedWalk, RecentSteps } from '../../server/view/observed-walk.js';

/** The members of the SessionWalk interface as core/session.ts declares them, read from the source, with their arity. */
function sessionWalkMembers(): string[] {
  return [...sessionWalkArities().keys()];
}

function sessionWalkArities(): Map<string, number> {
  const path = new URL('../../core/session.ts', import.meta.url);
  const source = ts.createSourceFile('session.ts', readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const members = new Map<string, number>();
  source.forEachChild((node) => {
    if (ts.isInterfaceDeclaration(node) && node.name.text === 'SessionWalk') {
      for (const member of node.members) {
        if (member.name === undefined) continue;
        const arity = ts.isMethodSignature(member) ? member.parameters.length : Infinity;
        members.set(member.name.getText(source), arity);
      }
    }
  });
  return members;
}

const rows = (): Array<[string, WalkOperation]> => Object.entries(WALK_OPERATIONS) as Array<[string, WalkOperation]>;

describe('the walk operations table (WALK_OPERATIONS, core/session.ts)', () => {
  it('names every operation of SessionWalk, and none it lacks', () => {
    const members = sessionWalkMembers();
    expect(members.length).toBeGreaterThan(10);
    expect([...WALK_OPERATION_NAMES].sort()).toEqual([...members].sort());
  });

  it('takes at most the arguments a forwarder passes on', () => {
    for (const [name, arity] of sessionWalkArities()) expect(arity, `SessionWalk.${name}`).toBeLessThanOrEqual(MAX_OPERATION_ARGS);
  });

  it('is what the walk and every proxy of it answer', () => {
    const worker = WorkerWalk.prototype as unknown as Record<string, unknown>;
    for (const name of WALK_OPERATION_NAMES) {
      expect(typeof ExecutionSession.prototype[name], `ExecutionSession.${name}`).toBe('function');
      expect(typeof LocalWalk.prototype[name], `LocalWalk.${name}`).toBe('function');
      expect(typeof ObservedWalk.prototype[name], `ObservedWalk.${name}`).toBe('function');
      // WorkerWalk's view is a field of each instance, the rest its prototype's.
      if (name !== 'view') expect(typeof worker[name], `WorkerWalk.${name}`).toBe('function');
    }
  });

  it('says how the journal replays every operation that changes the walk', () => {
    for (const [name, row] of rows()) {
      if (row.changes) expect(row.journal !== undefined || row.opens === 'load', `${name} changes the walk but a journal cannot repeat it`).toBe(true);
    }
  });

  it('gives each journaled operation a byte of its own, which the journal reads back', () => {
    const codes = rows().flatMap(([name, row]) => (row.journal === undefined ? [] : [[name, row.journal.code] as const]));
    expect(new Set(codes.map(([, code]) => code)).size).toBe(codes.length);
    for (const [name, code] of codes) {
      expect(code).toBeGreaterThan(0);
      expect(code).toBeLessThan(256);
      expect(operationOfCode(code)?.name).toBe(name);
      expect((JournalOp as Record<string, number>)[name]).toBe(code);
    }
    expect(operationOfCode(0)).toBeUndefined();
  });

  it('lets a watcher note what the table says: a step adds itself, a load or restart starts afresh', async () => {
    const steps = new RecentSteps(4);
    const observed = new ObservedWalk(steps);
    const step = { element: 3, id: 'e_3', name: 'e_go', modelId: 'm' };
    let restarted = 0;
    observed.inner = {
      next: () => ({ step, report: {} }),
      restart: () => Promise.resolve().then(() => void restarted++),
      stepCount: () => 1,
    } as never;
    expect(observed.next()).toEqual({ step, report: {} });
    expect(observed.stepCount()).toBe(1);
    expect(steps.list()).toEqual([{ index: 3, id: 'e_3', name: 'e_go', modelId: 'm' }]);
    await observed.restart();
    expect(restarted).toBe(1);
    expect(steps.list()).toEqual([]);
  });
});
