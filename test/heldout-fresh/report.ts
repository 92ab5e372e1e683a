// `npm run heldout:fresh`: the fresh held-out set's recall by principle and by page kind, its false alarms,
// and what was missed with the client fact each missed fault contradicts. `--json` writes the same as JSON
// to stdout.
import { printReport } from '../helpers/heldout-report';
import { FRESH } from './set';

printReport(FRESH);
