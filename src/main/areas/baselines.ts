// The baselines area: a recording sent to the sandbox (the UI's Compare) against the traffic it recorded,
// by the same comparison as `search-sandbox diff` and the package's expectMatchesBaseline.
import { diffUpload, type BaselinesService } from '../baseline/upload';
import { adminDiffRouter } from '../http/routes/admin-diff';
import type { Area } from './area';

export type { BaselinesService };

export const baselinesArea: Area<'baselines', 'recordings'> = {
  name: 'baselines',
  needs: ['recordings'],
  open(_base, { recordings: { events } }) {
    const baselines: BaselinesService = {
      diff: (upload, query) =>
        diffUpload(
          upload,
          () => events.select(query),
          `the sandbox's recorded traffic${query.siteId ? ` of site ${query.siteId}` : ''}${query.sessionId ? ` of session ${query.sessionId}` : ''}`,
        ),
    };
    return Promise.resolve({
      service: baselines,
      routes: () => ({ admin: [adminDiffRouter(baselines)] }),
    });
  },
};
