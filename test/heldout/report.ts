// `npm run heldout`: the held-out set's recall by principle, its false alarms, and what was missed.
// `--json` writes the same as JSON to stdout.
import { printReport } from '../helpers/heldout-report';
import { HELDOUT } from './set';

printReport(HELDOUT);
