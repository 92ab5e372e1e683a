// A rung above the check benchmark's floor: read the NDJSON file line by line, JSON.parse each line and
// check its body against the project's own beacon v2 schemas (validateBeaconBody, as check and ingest do);
// nothing kept, nothing reported. Prints its CPU (µs, user and system) and peak RSS (KiB) as the last lines of
// stderr, `cpu=N` and `maxrss=N`.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { validateBeaconBody } from '../../src/main/tracking/schemas';

const file = process.argv[2];
if (!file) throw new Error('usage: check-floor-validate.ts <events.ndjson>');
let issues = 0;
for await (const line of createInterface({ input: createReadStream(file) })) {
  if (!line) continue;
  const e = JSON.parse(line) as { category: string; event: string; body: unknown };
  issues += validateBeaconBody(`${e.category}/${e.event}`, e.body).length;
}
const usage = process.resourceUsage();
process.stderr.write(
  `${issues} issues\ncpu=${usage.userCPUTime + usage.systemCPUTime}\nmaxrss=${usage.maxRSS}\n`,
);
