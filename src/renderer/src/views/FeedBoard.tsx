// The feed board: one card per configured feed, with the sandbox clock on the same screen because
// schedules, autopilot steps and the one-hour re-index window all run on it.
import { ClockPanel, useSandboxNow } from '../components/ClockControl';
import { Empty, Loaded, ViewHeader } from '../components/common';
import { store, useSandbox } from '../state/store';
import { FeedCard } from './feeds/FeedCard';
import { useIndexRequestWatch } from '../state/arrivals';
import { TrafficWatch } from './connect/TrafficWatch';
import { useSnippetAccount } from '../state/snippet-account';
import { reindexCurl } from '../../../shared/snippets';
import { grouped } from '../../../shared/text';

export function FeedBoard() {
  const feeds = useSandbox((s) => s.feeds);
  const load = useSandbox((s) => s.load.feeds);
  const now = useSandboxNow();
  const requests = useIndexRequestWatch();
  // the board's example is for a site that has feeds: the first card's
  const { siteId, secretKey, putFeedId } = useSnippetAccount(feeds[0]?.siteId ?? null);
  return (
    <div className="page-scroll" data-testid="feeds-view">
      <div className="page-wide">
        <ViewHeader title="Feeds">
          States move on autopilot or by hand. Uploads go through the real bulk indexing API, so
          what you see here is what a client would get.
        </ViewHeader>
        <ClockPanel idPrefix="feeds" compact />
        <TrafficWatch
          title="Bulk index requests"
          testId="watch-indexing"
          watch={requests}
          onShowFeed={(feedId) =>
            document
              .querySelector(`[data-testid="feed-card-${feedId}"]`)
              ?.scrollIntoView({ behavior: 'smooth', block: 'start' })
          }
          waiting="Waiting for the first index request from your client…"
          hint={
            putFeedId === null ? (
              <>
                PUT or POST <code>{location.origin}/api/index/feed?feedId=…</code> with basic auth
                (more on <a href="#/connect">Connect</a>).
              </>
            ) : (
              <>
                For instance{' '}
                <code>{reindexCurl(location.origin, siteId, secretKey, putFeedId)}</code> (more on{' '}
                <a href="#/connect">Connect</a>).
              </>
            )
          }
          earlier={(n) =>
            `${grouped(n)} earlier in the feeds' history below, before you opened this screen.`
          }
        />
        <Loaded state={load} what="feeds" onRetry={() => void store.loadFeeds()}>
          {feeds.length === 0 ? (
            <Empty title="No feeds configured">
              <p>
                Add accounts and feeds to the sandbox config file (see the README), then restart the
                sandbox.
              </p>
            </Empty>
          ) : (
            <div className="feed-list">
              {feeds.map((f) => (
                <FeedCard key={`${f.siteId}-${f.id}`} feed={f} now={now} />
              ))}
            </div>
          )}
        </Loaded>
      </div>
    </div>
  );
}
