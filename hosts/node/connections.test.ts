import { describe, expect, it } from 'vitest';
import { Connections } from './connections.ts';

const socket = (name: string) => ({ name, writableEnded: false });

/** Connections on a clock the test moves. */
function setup(graceMs = 1_000) {
  const clock = { now: 0 };
  return { clock, connections: new Connections<ReturnType<typeof socket>>(graceMs, () => clock.now) };
}

describe('Connections (the Node host drain)', () => {
  it('closes a connection idle past the grace only at the second check that finds it so', () => {
    const { clock, connections } = setup();
    const a = socket('a');
    connections.opened(a);
    const since = (clock.now = 5_000);
    expect(connections.idle(since)).toEqual([]);
    clock.now = 5_999;
    expect(connections.idle(since), 'inside the grace, counted from the shutdown').toEqual([]);
    clock.now = 6_000;
    expect(connections.idle(since), 'first check past the grace').toEqual([]);
    clock.now = 6_025;
    expect(connections.idle(since)).toEqual([a]);
  });

  it('keeps a connection whose request, written while the process stalled, is read between the two checks', () => {
    const { clock, connections } = setup();
    const a = socket('a');
    connections.opened(a);
    connections.began(a);
    clock.now = 100;
    connections.ended(a);
    const since = (clock.now = 200);
    expect(connections.idle(since)).toEqual([]);
    // A 3 s stall: the timer's check comes first and finds the connection idle past the grace...
    clock.now = 3_200;
    expect(connections.idle(since)).toEqual([]);
    // ...then the loop reads the request the client wrote meanwhile.
    connections.began(a);
    clock.now = 3_225;
    expect(connections.idle(since), 'a request in progress').toEqual([]);
    connections.ended(a);
    clock.now = 4_224;
    expect(connections.idle(since), 'the grace counts again from its answer').toEqual([]);
    clock.now = 4_225;
    expect(connections.idle(since), 'first check past the new grace').toEqual([]);
    clock.now = 4_250;
    expect(connections.idle(since)).toEqual([a]);
  });

  it('never returns a busy connection, one the host has ended, or one already closed', () => {
    const { clock, connections } = setup(10);
    const busy = socket('busy');
    const ended = socket('ended');
    const gone = socket('gone');
    const idle = socket('idle');
    for (const s of [busy, ended, gone, idle]) connections.opened(s);
    connections.began(busy);
    ended.writableEnded = true;
    connections.closed(gone);
    expect(connections.size).toBe(3);
    clock.now = 100;
    expect(connections.idle(0)).toEqual([]);
    clock.now = 200;
    expect(connections.idle(0)).toEqual([idle]);
  });

  it('lets the listener close once a check finds no connection accepted since the one before, or after the grace', () => {
    const { clock, connections } = setup();
    const since = (clock.now = 1_000);
    expect(connections.listenerDone(since), 'the check at the signal only counts').toBe(false);
    connections.opened(socket('from the backlog'));
    clock.now = 1_025;
    expect(connections.listenerDone(since)).toBe(false);
    clock.now = 1_050;
    expect(connections.listenerDone(since)).toBe(true);

    const busy = setup();
    busy.clock.now = 0;
    expect(busy.connections.listenerDone(0)).toBe(false);
    for (let t = 25; t < 1_000; t += 25) {
      busy.connections.opened(socket(`arriving at ${t}`));
      busy.clock.now = t;
      expect(busy.connections.listenerDone(0)).toBe(false);
    }
    busy.connections.opened(socket('arriving at 1000'));
    busy.clock.now = 1_000;
    expect(busy.connections.listenerDone(0), 'the grace is over').toBe(true);
  });
});
