// What autopilot and the scheduler do when a feed's timer fires: move it one step along the table,
// or start it at nextIndexTime. The timers themselves are armed by the engine (feeds.ts).
import type { FeedRecord } from './feed-db';
import type { FeedEngine } from './feeds';

/** Autopilot: the feed's timed step is over; move it on (injected faults apply here). */
export function autopilotStep(engine: FeedEngine, rec: FeedRecord, at: number): void {
  switch (rec.state) {
    case 'waiting':
      return engine.transition(
        rec,
        'running',
        'step',
        'scheduler',
        'autopilot: indexing started',
        at,
      );
    case 'running': {
      const task = engine.parseTask(rec);
      if (task?.result) engine.finishRunning(rec, task.result, at, 'scheduler');
      return;
    }
    case 'regen_waiting':
      return engine.transition(
        rec,
        'regen_running',
        'step',
        'scheduler',
        'autopilot: regeneration started',
        at,
      );
    case 'regen_running':
      if (rec.inject.regenerationFails) {
        rec.inject.regenerationFails = false;
        return engine.failRegeneration(rec, at, 'fault', 'injected fault: "regeneration fails"');
      }
      return engine.transition(
        rec,
        'regen_done',
        'step',
        'scheduler',
        'autopilot: the feed file was regenerated',
        at,
      );
    case 'regen_done':
      return engine.transition(
        rec,
        'waiting',
        'step',
        'scheduler',
        'autopilot: regenerated feed queued for indexing',
        at,
      );
    default:
      return;
  }
}

/** At nextIndexTime: start the feed (regeneration first when it has it), or skip when there is nothing to index. */
export function scheduledStart(engine: FeedEngine, rec: FeedRecord, at: number): void {
  const { config } = engine.settings(rec);
  const input = config.source.kind === 'cart' ? 'cart' : 'upload';
  if (input === 'upload' && !engine.deps.stash.get(rec)) {
    engine.advanceNextIndexTime(rec, at);
    engine.note(
      rec,
      'scheduler',
      'scheduled index skipped: no feed file was uploaded yet (POST one as feedFile)',
      at,
    );
    engine.arm(rec);
    return;
  }
  engine.start(
    rec,
    { cause: 'scheduler', requestedBy: null, requestedAt: at, input },
    'scheduled index at nextIndexTime',
    at,
  );
}
