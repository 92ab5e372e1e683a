import { bench } from './timelines';
import { renderTable, renderTargets } from './bench';
const r = await bench.run((l) => console.log(l));
console.log(renderTable(r.table.columns, r.table.rows));
for (const n of r.notes ?? []) console.log('note:', n);
console.log(renderTargets(r.targets));
