import { PageBuilder, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'a POST the service reads',
      events: () => [new PageBuilder().render('r1', { at: 0 })],
    },
  ],
  invalid: [
    {
      name: 'a browser’s CORS preflight refused (405)',
      events: () => {
        const p = new PageBuilder();
        return [
          {
            ...p.render('r1', { at: 0, accepted: false }),
            status: 405,
            body: null,
            errors: [{ message: 'invalid request method: `OPTIONS` - requires `POST`', path: '' }],
          },
        ];
      },
      // the render it would have sent is lost: the render's behaviour
      findings: [
        {
          message: 'browser’s CORS preflight',
          fix: 'text/plain',
          events: [0],
          behaviour: 'search.render',
        },
      ],
    },
    {
      name: 'a clickthrough sent as application/xml (415): the click’s behaviour, not the context’s',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          {
            ...p.click('r1', 'a', { at: 3000, accepted: false }),
            status: 415,
            body: null,
            contentType: 'application/xml',
            errors: [{ message: 'unsupported Content-Type `application/xml`', path: '' }],
          },
        ];
      },
      findings: [
        {
          message: 'Content-Type is "application/xml"',
          events: [1],
          behaviour: 'search.clickthrough',
        },
      ],
    },
    {
      name: 'a path that is no endpoint (404): the request the client builds, identity.context',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          {
            ...p.event('rendr', { responseId: 'r1' }, { at: 300, accepted: false }),
            status: 404,
            errors: [{ message: 'invalid endpoint path or missing siteId in path', path: '' }],
          },
        ];
      },
      findings: [
        {
          message:
            /its path \/beacon\/v2\/demo42\/search\/rendr is not a beacon v2 endpoint \(invalid endpoint path or missing siteId in path; did you mean \/beacon\/v2\/demo42\/search\/render\?\)\. The real service answers 404/,
          events: [1],
          behaviour: 'identity.context',
        },
      ],
    },
    {
      name: 'a siteId in capitals (404): the lowercase one is named',
      events: () => {
        const p = new PageBuilder();
        const sent = p.render('r1', { at: 0 });
        return [
          {
            ...sent,
            siteId: 'Demo42',
            path: '/beacon/v2/Demo42/search/render',
            accepted: false,
            status: 404,
            errors: [
              {
                message:
                  'invalid siteId pattern: received `Demo42` - expected pattern `^[a-z0-9]{6}$`',
                path: '',
              },
            ],
          },
        ];
      },
      findings: [
        {
          message:
            /has no valid siteId \(invalid siteId pattern: received `Demo42` - expected pattern `\^\[a-z0-9\]\{6\}\$`; siteIds are lowercase: did you mean \/beacon\/v2\/demo42\/search\/render\?\)/,
          events: [0],
        },
      ],
    },
  ],
} satisfies RuleCases;
