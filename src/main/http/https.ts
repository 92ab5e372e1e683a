// HTTPS for the sandbox (--https-port): the real bulk indexing service takes credentials over HTTPS only,
// so clients can test that path. A self-signed certificate for localhost/127.0.0.1/::1 is generated once
// into <dataDir>/tls (kept in memory when ephemeral) with the selfsigned library.
import { mkdir, readFile } from 'node:fs/promises';
import https from 'node:https';
import path from 'node:path';
import type { RequestListener } from 'node:http';
import { DataDirError, dataDirFailure } from '../store/data-dir-error';
import { replaceFile } from '../store/durable';
import { PRIVATE_DIR } from '../store/private-files';
import { answerClientErrors } from './client-errors';
import { keepAlive } from './keep-alive';

export interface TlsMaterial {
  key: string;
  cert: string;
  /** where the certificate is kept (for the README/UI: trust it or pass it as CA), or null in memory */
  certPath: string | null;
}

let ephemeral: Promise<TlsMaterial> | null = null;

async function create(): Promise<{ key: string; cert: string }> {
  // loaded here, not with the module: it takes ~150 ms of CPU to load, and only --https-port without a
  // certificate kept in the data folder needs it
  const { generate } = await import('selfsigned');
  const notBeforeDate = new Date(Date.now() - 60_000);
  const notAfterDate = new Date(notBeforeDate.getTime() + 825 * 86_400_000);
  const pems = await generate([{ name: 'commonName', value: 'search-sandbox localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}

/** The sandbox's certificate: read from `<dataDir>/tls`, generated there on first use. */
export async function ensureCertificate(dataDir: string | null): Promise<TlsMaterial> {
  if (!dataDir) {
    // one per process is enough for in-memory sandboxes (tests start many)
    ephemeral ??= create().then((m) => ({ ...m, certPath: null }));
    return ephemeral;
  }
  const dir = path.join(dataDir, 'tls');
  const keyPath = path.join(dir, 'key.pem');
  const certPath = path.join(dir, 'cert.pem');
  try {
    return {
      key: await readFile(keyPath, 'utf8'),
      cert: await readFile(certPath, 'utf8'),
      certPath,
    };
  } catch (err) {
    // only a missing certificate is made anew: an unreadable one is the user's to look at, not to overwrite
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      throw dataDirFailure((err as NodeJS.ErrnoException).path ?? certPath, err, 'read');
    const made = await create();
    await mkdir(dir, { recursive: true, mode: PRIVATE_DIR });
    // each file whole and on disk (owner-only, as every file of the data directory), the key first: a
    // crash between the two leaves no certificate, and the next start makes a new pair
    await replaceFile(keyPath, made.key);
    await replaceFile(certPath, made.cert);
    return { ...made, certPath };
  }
}

export function createHttpsServer(tls: TlsMaterial, app: RequestListener): https.Server {
  let server: https.Server;
  try {
    server = https.createServer({ key: tls.key, cert: tls.cert }, app);
  } catch (err) {
    // a key or certificate kept in the data folder that TLS cannot use (hand-edited, damaged, a key of
    // another certificate): the user's files, named with the fix, never replaced
    const e = err as { code?: string; library?: string; reason?: string; message: string };
    if (tls.certPath === null || !e.code?.startsWith('ERR_OSSL')) throw err;
    const why = e.library && e.reason ? `${e.library}: ${e.reason}` : e.message;
    throw new DataDirError(
      path.dirname(tls.certPath),
      `holds a key.pem and cert.pem HTTPS cannot use (${why})`,
      'move that folder away and the sandbox makes a new self-signed pair there, or put a matching PEM key and certificate in it',
    );
  }
  keepAlive(server);
  answerClientErrors(server);
  return server;
}
