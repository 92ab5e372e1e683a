import { visitPage, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'a login with the shopper’s id',
      events: () => [visitPage('account').login('shopper-7', { at: 0 })],
    },
    {
      name: 'a login whose shopperId is blank (the beacon sends any id the page gives)',
      events: () => [visitPage('account').login('  ', { at: 0 })],
    },
    {
      name: 'edge: a customer id that holds a word (not a placeholder alone)',
      events: () => [visitPage('account').login('guest-1042', { at: 0 })],
    },
    {
      name: 'events without a shopper (nobody logged in) are not logins',
      events: () => [visitPage('p').product('P1', { at: 0 })],
    },
  ],
  invalid: [
    {
      name: 'a login with an empty shopperId',
      events: () => [visitPage('account').login('', { at: 0 })],
      findings: [
        {
          messageId: 'noShopper',
          message: 'carries no shopperId',
          fix: 'shopper.id on the page',
          events: [0],
          behaviour: 'login.shopper',
        },
      ],
    },
    {
      name: 'a template printing "guest" as shopper.id for a shopper who is not logged in',
      events: () => [visitPage('home').login('guest', { at: 0 })],
      findings: [
        {
          messageId: 'placeholder',
          message: 'logs in shopperId "guest": a placeholder',
          fix: 'leave shopper.id unset',
          events: [0],
        },
      ],
    },
  ],
} satisfies RuleCases;
