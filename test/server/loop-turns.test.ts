import { once } from 'node:events';
import { createServer, connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LOOP_TURN_AFTER_MS, LoopTurns } from '../../server/sessions/loop-turns.js';

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

/** Two connected sockets of a local server: what `client` writes, `served` reads. */
async function socketPair(): Promise<{ client: Socket; served: Socket }> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const accepted = once(server, 'connection');
  const client = connect((server.address() as { port: number }).port, '127.0.0.1');
  const [served] = (await accepted) as [Socket];
  await once(client, 'connect');
  cleanups.push(() => {
    client.destroy();
    served.destroy();
    server.close();
  });
  return { client, served };
}

describe('LoopTurns', () => {
  it('lets work start at once until work has held the loop for the limit in all', () => {
    const turns = new LoopTurns();
    turns.spent(LOOP_TURN_AFTER_MS / 2);
    turns.spent(LOOP_TURN_AFTER_MS / 2 - 1);
    expect(turns.pending).toBeUndefined();
    turns.spent(1);
    expect(turns.pending).toBeInstanceOf(Promise);
  });

  it('holds the next work until the loop has read what arrived while work held it, then lets it start', async () => {
    const turns = new LoopTurns();
    const first = await socketPair();
    const second = await socketPair();
    const order: string[] = [];
    second.served.on('data', () => order.push('read'));
    const done = new Promise<void>((resolve) => {
      first.served.once('data', () => {
        // Inside a read, as a request's handler runs: what arrives now (a signal, another request) is read in
        // the loop's next pass, not this one.
        second.client.write('x');
        turns.spent(LOOP_TURN_AFTER_MS);
        void turns.pending?.then(() => {
          order.push('turned');
          resolve();
        });
      });
    });
    first.client.write('x');
    await done;
    expect(order).toEqual(['read', 'turned']);
    expect(turns.pending).toBeUndefined();
  });

  it('runs waiting work after the turn, in order, each seeing those still behind it as contention', async () => {
    const turns = new LoopTurns();
    expect(turns.afterTurn(() => 'now')).toBeUndefined();
    turns.spent(LOOP_TURN_AFTER_MS);
    const seen: Array<[string, boolean]> = [];
    const first = turns.afterTurn(() => seen.push(['first', turns.contended]));
    const second = turns.afterTurn(() => seen.push(['second', turns.contended]));
    expect(turns.contended).toBe(true);
    await Promise.all([first, second]);
    expect(seen).toEqual([
      ['first', true],
      ['second', false],
    ]);
    expect(turns.contended).toBe(false);
  });

  it('counts afresh after a turn', async () => {
    const turns = new LoopTurns();
    turns.spent(LOOP_TURN_AFTER_MS);
    await turns.pending;
    turns.spent(LOOP_TURN_AFTER_MS - 1);
    expect(turns.pending).toBeUndefined();
  });
});
