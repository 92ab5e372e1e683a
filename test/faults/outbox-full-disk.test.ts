// A mail's delivery is told on the stream (`outbox`) only once it is stored: when the disk is full as the
// SMTP server answers, the delivery stays in memory (stored by a later write) and is not told, so no
// client sees a status a restart would not show.
import { readFileSync } from 'node:fs';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { OutboxMessage } from '../../src/shared/indexing';
import type { StreamMessage } from '../../src/shared/stream';
import { put, runToEnd, startFrozen } from '../api/indexing-helpers';
import { canMountTmpfs, cleanups, runCleanups, smallDisk } from './fault-helpers';

afterEach(runCleanups);

/** An SMTP server that holds its answer to each mail's data until `answer()`; `received` once it has one. */
async function heldSmtp() {
  let received!: () => void;
  const got = new Promise<void>((resolve) => (received = resolve));
  let answer!: () => void;
  const answered = new Promise<void>((resolve) => (answer = resolve));
  const server = net.createServer((socket) => {
    let data = false;
    let buffer = '';
    socket.write('220 fake ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString();
      for (let nl = buffer.indexOf('\r\n'); nl >= 0; nl = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        if (data) {
          if (line !== '.') continue;
          data = false;
          received();
          void answered.then(() => socket.write('250 queued\r\n'));
        } else if (/^EHLO/i.test(line)) socket.write('250-fake\r\n250 OK\r\n');
        else if (/^DATA/i.test(line)) {
          data = true;
          socket.write('354 go ahead\r\n');
        } else if (/^QUIT/i.test(line)) socket.end('221 bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
  return { port: (server.address() as AddressInfo).port, got, answer };
}

describe.skipIf(!canMountTmpfs)('an outbox mail delivered while the disk is full', () => {
  it('is not told on the stream as delivered: every outbox message told is stored', async () => {
    const disk = smallDisk('4m');
    const data = path.join(disk.dir, 'data');
    const smtp = await heldSmtp();
    const sb = await startFrozen({
      dataDir: data,
      smtp: { host: '127.0.0.1', port: smtp.port, from: 'sandbox@test.example' },
    });
    cleanups.push(() => sb.close());
    const told: Array<{ told: string; stored: string | undefined }> = [];
    cleanups.push(
      sb.core.bus.on((message: StreamMessage) => {
        if (message.type !== 'outbox') return;
        const mail = message.data as OutboxMessage;
        const { outbox } = JSON.parse(readFileSync(path.join(data, 'indexing.json'), 'utf8')) as {
          outbox: OutboxMessage[];
        };
        const stored = outbox.find((m) => m.id === mail.id);
        told.push({ told: mail.delivery.status, stored: stored?.delivery.status });
      }),
    );
    expect((await put(sb.url, 'feedId=43&requestedBy=dev%40shop.example')).status).toBe(200);
    expect((await runToEnd(sb, 43)).state).toBe('done');
    await smtp.got;
    const free = disk.fill();
    smtp.answer();
    const mail = () => sb.core.indexing.outbox.list()[0]!;
    while (mail().delivery.status === 'pending') await new Promise((r) => setImmediate(r));
    expect(mail().delivery.status).toBe('sent');
    // the delivery's own write of indexing.json has ended (refused) once this one has
    await sb.core.indexing.engine.deps.db.write().catch(() => undefined);
    await new Promise((r) => setImmediate(r));
    free();
    expect(told[0]).toEqual({ told: 'pending', stored: 'pending' });
    for (const t of told) expect(t.stored).toBe(t.told);
  });
});
