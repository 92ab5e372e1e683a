// `serve` and the desktop app compile the beacon validators in idle turns after they start, so that a
// storefront's first beacon of a kind does not wait for its validator (src/main/warm-validators.ts).
import { describe, expect, it } from 'vitest';
import {
  BEACON_ENDPOINTS,
  WARM_ORDER,
  compiledEndpoints,
  validateBeaconBody,
} from '../../src/main/tracking/schemas';
import { warmValidatorsInBackground } from '../../src/main/warm-validators';

const turn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('validator warm-up', () => {
  it('orders every endpoint once, the search page first', () => {
    expect([...WARM_ORDER].sort()).toEqual([...BEACON_ENDPOINTS].sort());
    expect(new Set(WARM_ORDER).size).toBe(WARM_ORDER.length);
    expect(WARM_ORDER.slice(0, 2)).toEqual(['search/render', 'search/impression']);
  });

  it('compiles one endpoint per turn, in order, and stops when told', async () => {
    const order = ['sms/render', 'email/render', 'chat/impression'];
    const before = compiledEndpoints();
    expect(before.filter((e) => order.includes(e))).toEqual([]);
    const stop = warmValidatorsInBackground(order);
    expect(compiledEndpoints()).toEqual(before); // nothing in the caller's turn
    for (let i = 0; i < 20 && !compiledEndpoints().includes('sms/render'); i++) await turn();
    const first = compiledEndpoints();
    expect(first).toContain('sms/render');
    expect(first).not.toContain('chat/impression');
    stop();
    for (let i = 0; i < 5; i++) await turn();
    expect(compiledEndpoints()).not.toContain('chat/impression');
  });

  it('leaves validation as it was: a warmed endpoint judges bodies as a cold one does', async () => {
    const stop = warmValidatorsInBackground(['cart/add']);
    for (let i = 0; i < 20 && !compiledEndpoints().includes('cart/add'); i++) await turn();
    stop();
    expect(compiledEndpoints()).toContain('cart/add');
    expect(
      validateBeaconBody('cart/add', {})
        .map((i) => i.message)
        .join('\n'),
    ).toMatch(/context/);
  });
});
