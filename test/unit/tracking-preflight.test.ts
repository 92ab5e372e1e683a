// The personalization preflight stand-in: answers what beacon.js sends with 200, and says why otherwise.
import { describe, expect, it } from 'vitest';
import { handlePreflight } from '../../src/main/tracking/preflight';

const post = (body: unknown, method = 'POST') =>
  handlePreflight({
    method,
    contentType: 'text/plain',
    rawBody:
      body === null ? null : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
  });

describe('personalization preflight', () => {
  it('answers 200 to what beacon.js sends (PreflightRequestModel)', () => {
    expect(post({ userId: 'u', siteId: 'abc123' })).toEqual({
      status: 200,
      body: { success: true },
    });
    expect(
      post({
        userId: 'u',
        siteId: 'abc123',
        shopper: 'me',
        cart: ['sku-1'],
        lastViewed: ['sku-2', 'sku-3'],
      }).status,
    ).toBe(200);
  });

  it('accepts the GET form with query parameters (comma lists)', () => {
    expect(
      handlePreflight({
        method: 'GET',
        rawBody: null,
        query: { userId: 'u', siteId: 'abc123', cart: 'a,b' },
      }).status,
    ).toBe(200);
    expect(handlePreflight({ method: 'GET', rawBody: null, query: { siteId: 'abc123' } })).toEqual({
      status: 400,
      body: {
        success: false,
        error: 'ValidationError',
        messages: ['missing required key-value: userId'],
      },
    });
  });

  it('lets a browser ask first (OPTIONS → 204) and refuses other methods with 405', () => {
    expect(post(null, 'OPTIONS')).toEqual({ status: 204, body: null });
    expect(post(null, 'DELETE')).toEqual({
      status: 405,
      body: {
        success: false,
        error: 'InvalidMethodError',
        messages: ['invalid request method: `DELETE` - requires `POST`'],
      },
    });
  });

  it('names every problem of a bad body', () => {
    expect(post(null).body).toMatchObject({ messages: ['missing JSON POST body'] });
    expect(post('{').body).toMatchObject({ messages: ['invalid JSON POST body'] });
    expect(post({ siteId: 5, cart: 'x', lastViewed: [1] }).body).toMatchObject({
      messages: [
        'missing required key-value: userId',
        'invalid data type passed for key: siteId',
        'invalid data type passed for key: lastViewed',
      ],
    });
  });
});
