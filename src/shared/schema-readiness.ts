// Schema of `GET /_sandbox/readiness` (src/shared/readiness.ts): each behaviour of the client model as a
// site's traffic shows it.
import { Type } from '@sinclair/typebox';
import { BEHAVIOUR_AREAS } from './client-model';
import { READINESS_STATUSES, RULE_INPUTS, type ReadinessDto } from './readiness';
import { closed, dto, literals } from './schema-base';
import { RuleIdSchema, SeveritySchema } from './schema-visits';

const ReadinessRowSchema = closed({
  id: Type.String({ description: 'the behaviour id (docs/client-model.md)' }),
  title: Type.String(),
  area: literals(BEHAVIOUR_AREAS),
  status: literals(READINESS_STATUSES),
  tag: Type.Optional(Type.String({ description: 'the widget’s profile tag' })),
  example: Type.Optional(closed({ pageLoadId: Type.String() }, 'ok: the newest page showing it')),
  worst: Type.Optional(
    closed(
      {
        rule: RuleIdSchema,
        severity: SeveritySchema,
        pageLoadId: Type.String(),
        request: Type.Optional(
          Type.String({
            description:
              'on the page of requests without a pageLoadId (pageLoadId ""): which request, e.g. `ev_3, a refused CORS preflight to /beacon/v2/demo42/search/render`',
          }),
        ),
        message: Type.String({
          description:
            'what the finding says happened, cut short at a word past 160 characters (its page says it whole)',
        }),
        fix: Type.String({ description: 'how to fix it, one line' }),
      },
      'findings: the newest of its most severe findings, its page, what it says and its fix',
    ),
  ),
  wrongTags: Type.Optional(
    Type.Array(Type.String(), {
      description:
        'a widget’s events row: the other tags its events were sent with (their responseId is this widget’s; they and their findings count here)',
    }),
  ),
  next: Type.Optional(Type.String({ description: 'unseen: the client call or script tag' })),
  why: Type.Optional(Type.String({ description: 'not-applicable: why' })),
  unverified: Type.Optional(
    Type.Array(
      closed({
        lacks: literals([...RULE_INPUTS, 'off'] as const),
        rules: Type.Array(RuleIdSchema),
        how: Type.String(),
      }),
      {
        description:
          'ok, but none of the rules that guard it could judge this traffic: what they lacked (an input, or being on), which rules, and how to give it',
      },
    ),
  ),
});

export const ReadinessShape = closed(
  {
    siteId: Type.String(),
    expect: Type.Array(Type.String(), {
      description: 'what the site means to implement (accounts[].readiness.expect)',
    }),
    behaviours: Type.Array(ReadinessRowSchema),
    summary: closed({
      ok: Type.Integer(),
      findings: Type.Integer(),
      unseen: Type.Integer(),
      notApplicable: Type.Integer(),
      unverified: Type.Optional(
        Type.Integer({ description: 'of the ok rows, those no rule could check' }),
      ),
    }),
    gaps: Type.Optional(
      Type.Array(Type.String(), {
        description:
          'what keeps the site from being ready for expect, a line each (empty: ready); absent when nothing is expected',
      }),
    ),
  },
  'per behaviour of the client model: ok, findings, unseen or not-applicable',
);
/** typed as the DTO (test/unit/admin-schemas.test.ts holds the shape to it) */
export const ReadinessSchema = dto<ReadinessDto>(ReadinessShape);
