// The Compare view's one admin call: POST /_sandbox/diff with the loaded recording as BASE.
import { adminPath } from '../../../../shared/admin-api';
import type { DiffResult } from '../../../../shared/baseline';
import { messageOf, rawRequest } from '../../api/client';

export async function compareWithRecorded(
  recording: string,
  filter: { siteId: string; sessionId: string },
): Promise<DiffResult> {
  const query = {
    ...(filter.siteId.trim() && { siteId: filter.siteId.trim() }),
    ...(filter.sessionId.trim() && { sessionId: filter.sessionId.trim() }),
  };
  const res = await rawRequest(adminPath('diff', {}, query), {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain' },
    body: recording,
  });
  if (!res.ok) throw new Error(messageOf(res.body, `the sandbox answered ${res.status}`));
  return res.body as DiffResult;
}
