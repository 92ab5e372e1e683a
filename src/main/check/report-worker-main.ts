// The JSON report's indenting thread (report-writer.ts starts it): pages come in as compact JSON bytes, in
// batches, and are written indented to the spool file from the place they were given; each batch is
// answered with the bytes it took, so that the writer knows where the pages end and how many are in flight.
import { openSync, writeSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { JsonIndenter } from './json-indent';
import { indentPages, type IndentBatch, type IndentData } from './report-json';

const port = parentPort!;
const { file, offset } = workerData as IndentData;
const fd = openSync(file, 'r+');
let at = offset;
const indenter = new JsonIndenter((bytes) => {
  for (let done = 0; done < bytes.length;)
    done += writeSync(fd, bytes, done, bytes.length - done, at + done);
  at += bytes.length;
});

port.on('message', (batch: IndentBatch) => {
  const from = at;
  indentPages(indenter, batch);
  indenter.flush();
  port.postMessage(at - from);
});
