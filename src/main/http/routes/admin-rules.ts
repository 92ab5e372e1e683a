// GET /_sandbox/rules: every rule as its own module declares it (README, "The rules").
import { Router } from 'express';
import { ruleInfos } from '../../tracking/timeline/rule-list';
import { mount } from '../admin-query';

export function adminRulesRouter(): Router {
  const router = Router();
  const rules = ruleInfos();
  mount(router, 'rules', (_req, res) => void res.json(rules));
  return router;
}
