// GET /_sandbox/rules: every rule as its own module declares it (CONTRACT.md, "Rules declared once").
import { Router } from 'express';
import { ruleInfos } from '../../tracking/timeline/rule-list';
import { withQuery } from '../admin-query';

export function adminRulesRouter(): Router {
  const router = Router();
  const rules = ruleInfos();
  router.get(
    '/rules',
    withQuery('rules', (_req, res) => {
      res.json(rules);
    }),
  );
  return router;
}
