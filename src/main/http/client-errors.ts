// Requests Node's HTTP parser refuses before any route sees them (a request line and headers over its
// 16 KB, a request line it cannot read, headers that never finish): answered as every other error of the
// sandbox is, in JSON with CORS headers, so a storefront's fetch reads the reason instead of an opaque
// network error. Node's own answer is a status line and nothing else.
import http from 'node:http';
import type https from 'node:https';
import type { Duplex } from 'node:stream';

function refusal(err: NodeJS.ErrnoException): { status: number; error: string; message: string } {
  if (err.code === 'HPE_HEADER_OVERFLOW')
    return {
      status: 431,
      error: 'RequestHeaderFieldsTooLarge',
      message: `the request line and headers are larger than ${Math.round(http.maxHeaderSize / 1024)} KB, the most this server (like Node's and most others) reads: a URL this long carries too much; send fewer or shorter parameters, or a POST body where the endpoint takes one`,
    };
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return {
      status: 408,
      error: 'RequestTimeout',
      message:
        'the request did not arrive whole in time: send its headers and body without pausing',
    };
  return {
    status: 400,
    error: 'BadRequest',
    message: `the request is not valid HTTP/1.1 (${err.code ?? err.message}): check the request line and the headers`,
  };
}

/** Whether the refused request's line names a path of the admin API (as far as it was read). */
function toAdminPath(err: NodeJS.ErrnoException): boolean {
  const raw = (err as { rawPacket?: Buffer }).rawPacket;
  if (!raw) return false;
  const target = raw.subarray(0, 4096).toString('latin1').split('\r\n')[0]!.split(' ')[1] ?? '';
  return /^(?:https?:\/\/[^/]*)?\/_sandbox(?:[/?#]|$)/i.test(target);
}

/** Answer the requests `server`'s parser refuses in JSON with CORS headers, then close. */
export function answerClientErrors(server: http.Server | https.Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const { status, error, message } = refusal(err);
    const body = JSON.stringify({ error, message });
    socket.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        // the admin API is same-origin only: no other page may read even its refusals
        (toAdminPath(err) ? '' : 'Access-Control-Allow-Origin: *\r\n') +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}
