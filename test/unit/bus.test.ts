// The bus tells the domain whether a message type has a taker right now, so work done only to report
// (judging changed pages for the live list) is skipped while no UI, stream client or notifier listens.
import { describe, expect, it } from 'vitest';
import { Bus } from '../../src/main/bus';
import type { StreamMessage } from '../../src/shared/stream';

describe('Bus.wants', () => {
  it('is false with no listener, true for a listener of every type, and follows each listener’s wants', () => {
    const bus = new Bus();
    expect(bus.wants('timeline')).toBe(false);
    let open = false;
    const got: string[] = [];
    const off = bus.on((m) => got.push(m.type), { wants: (t) => open && t === 'timeline' });
    expect(bus.wants('timeline')).toBe(false);
    open = true;
    expect(bus.wants('timeline')).toBe(true);
    expect(bus.wants('event')).toBe(false);
    // a message the listener does not want is not handed to it
    bus.emit({ type: 'event', data: {} } as StreamMessage);
    bus.emit({ type: 'timeline', data: {} } as StreamMessage);
    expect(got).toEqual(['timeline']);
    const offAll = bus.on(() => undefined);
    expect(bus.wants('event')).toBe(true);
    offAll();
    off();
    expect(bus.wants('timeline')).toBe(false);
  });
});
