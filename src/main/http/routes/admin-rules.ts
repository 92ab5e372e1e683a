// GET /_sandbox/rules: every rule as its own module declares it (README, "The rules"); GET
// /_sandbox/rules/{id}: one rule explained, with the behaviours of the provider's client it checks.
import { Router } from 'express';
import { ruleInfos } from '../../tracking/timeline/rule-list';
import { nearestRuleIds, ruleDetail } from '../../tracking/timeline/behaviour-list';
import { mount } from '../admin-query';
import { shown } from '../../../shared/text';

export function adminRulesRouter(): Router {
  const router = Router();
  const rules = ruleInfos();
  mount(router, 'rules', (_req, res) => void res.json(rules));
  mount(router, 'rule', (req, res) => {
    const id = String(req.params.id);
    const detail = ruleDetail(id);
    if (detail) return void res.json(detail);
    const near = nearestRuleIds(id);
    res.status(404).json({
      error: 'NotFound',
      message: `no rule ${shown(id)}${near.length ? `: did you mean ${near.join(', ')}?` : ''} (GET /_sandbox/rules lists the ${rules.length} rules)`,
    });
  });
  return router;
}
