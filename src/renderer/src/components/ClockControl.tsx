// The sandbox clock: always visible in the top bar (a button opening the controls) and inline on the
// screens whose behaviour depends on it (feeds, outbox). Time travel is test-clock style: forward only,
// set, or back to real time.
import { useState } from 'react';
import { clockApi } from '../api/admin';
import type { ClockState } from '../api/types';
import { fmtClock, fmtDate, fmtOffset, fmtOffsetWords } from '../format';
import { store, useSandbox, type SandboxState } from '../state/store';
import { useTick } from './common';

/** Sandbox time now, extrapolated from the last reading when the clock runs with real time. */
function sandboxNowFrom(clock: SandboxState['clock'], realNow: number): number {
  if (!clock) return NaN;
  const at = Date.parse(clock.state.now);
  return clock.state.frozen ? at : at + (realNow - clock.readAt);
}

/** Sandbox time right now, outside render (event handlers, initial state); real time when not yet known. */
export function currentSandboxTime(): number {
  const t = sandboxNowFrom(store.getState().clock, Date.now());
  return Number.isFinite(t) ? t : Date.now();
}

export function useSandboxNow(): number {
  const clock = useSandbox((s) => s.clock);
  const real = useTick(1000);
  return sandboxNowFrom(clock, Math.max(real, clock?.readAt ?? 0));
}

/**
 * "2026-11-21T04:36:18" for a datetime-local input with seconds (step 1), in UTC like the rest of the UI: to
 * the minute, setting the time shown would move the clock back by the seconds already past.
 */
function toInputValue(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString().slice(0, 19) : '';
}

/**
 * The instant a datetime-local value names, read as UTC (its seconds are left out when they are 0); NaN
 * for an empty field (the browser gives '' for a half-typed one) or a year of five digits or more (the
 * field takes them, a Date does not read them).
 */
function fromInputValue(value: string): number {
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,3})?)?$/.test(value)
    ? Date.parse(`${value}Z`)
    : NaN;
}

function ClockControls({ idPrefix }: { idPrefix: string }) {
  const now = useSandboxNow();
  const clock = useSandbox((s) => s.clock);
  // null while untouched: the field follows the sandbox clock, and Set has nothing to set
  const [setValue, setSetValue] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [setNote, setSetNote] = useState<{ text: string; invalid: boolean } | null>(null);

  async function run(action: () => Promise<ClockState>): Promise<boolean> {
    setBusy(true);
    setError(null);
    setSetNote(null);
    try {
      store.setClock(await action());
      return true;
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      return false;
    } finally {
      setBusy(false);
    }
  }

  function submitSet() {
    if (setValue === null) {
      setSetNote({
        text: 'The field shows the sandbox time now: change it to the time to set.',
        invalid: false,
      });
      return;
    }
    const at = fromInputValue(setValue);
    if (!Number.isFinite(at)) {
      setSetNote({
        text: 'Enter a whole date and time (UTC) to set the clock to.',
        invalid: true,
      });
      return;
    }
    void run(() => clockApi.set(new Date(at).toISOString())).then(
      // set: the field follows the clock again
      (done) => done && setSetValue(null),
    );
  }

  const inputId = `${idPrefix}-set`;
  return (
    <div className="clock-controls">
      <div className="btn-row" role="group" aria-label="Advance the sandbox clock">
        <button
          type="button"
          className="btn"
          disabled={busy}
          data-testid="clock-plus-minute"
          onClick={() => void run(() => clockApi.advance('PT1M'))}
        >
          +1 min
        </button>
        <button
          type="button"
          className="btn"
          disabled={busy}
          data-testid="clock-plus-hour"
          onClick={() => void run(() => clockApi.advance('PT1H'))}
        >
          +1 h
        </button>
        <button
          type="button"
          className="btn"
          disabled={busy}
          data-testid="clock-plus-day"
          onClick={() => void run(() => clockApi.advance('P1D'))}
        >
          +1 day
        </button>
        <button
          type="button"
          className="btn"
          disabled={busy || !clock || Math.abs(clock.state.offsetMs) < 1000}
          data-testid="clock-reset"
          onClick={() => void run(clockApi.reset)}
        >
          Reset to real time
        </button>
      </div>
      <form
        className="clock-set"
        // the field's own checks would answer an empty field in the browser's words, in a bubble:
        // the message below says it, as the other clock errors are said
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submitSet();
        }}
      >
        <label htmlFor={inputId} className="small muted">
          Set to (UTC)
        </label>
        <input
          id={inputId}
          type="datetime-local"
          step={1}
          value={setValue ?? toInputValue(now)}
          onChange={(e) => {
            setSetValue(e.target.value);
            setSetNote(null);
          }}
          aria-invalid={setNote?.invalid || undefined}
          aria-describedby={setNote ? `${inputId}-note` : undefined}
          data-testid="clock-set-input"
        />
        <button type="submit" className="btn" disabled={busy} data-testid="clock-set">
          Set
        </button>
      </form>
      {setNote && (
        <p
          id={`${inputId}-note`}
          className={`clock-set-note small ${setNote.invalid ? 'notice error' : 'muted'}`}
          role={setNote.invalid ? 'alert' : 'status'}
          data-testid="clock-set-note"
          data-invalid={setNote.invalid ? 'true' : undefined}
        >
          {setNote.text}
        </p>
      )}
      <p className="small muted clock-note">
        Moving the clock fires due schedules (feed runs, the one-hour re-index window) as if the
        time had passed.
      </p>
      {error && (
        <p className="notice error small" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

function ClockReadout({ now, offsetMs }: { now: number; offsetMs: number | undefined }) {
  return (
    <span className="clock-readout">
      <span
        className="clock-time"
        data-testid="clock-now"
        data-now={Number.isFinite(now) ? new Date(now).toISOString() : ''}
      >
        {fmtClock(now)}
      </span>
      <span className="clock-date">{fmtDate(now)} UTC</span>
      <span
        className={`badge ${offsetMs && Math.abs(offsetMs) >= 1000 ? 'warn' : ''}`}
        data-testid="clock-offset"
      >
        {offsetMs === undefined ? '—' : fmtOffset(offsetMs)}
      </span>
    </span>
  );
}

/** Top-bar clock: the time, and a popover with the controls. */
export function ClockButton() {
  const now = useSandboxNow();
  const clock = useSandbox((s) => s.clock);
  const moved =
    clock && Math.abs(clock.state.offsetMs) >= 1000 ? fmtOffset(clock.state.offsetMs) : null;
  // in words: the badge's "+1 min" in the name would make the button answer to a step button's name
  const name = `Sandbox clock${moved && clock ? `: ${fmtOffsetWords(clock.state.offsetMs)}` : ''} — show controls`;
  return (
    <>
      <button
        type="button"
        className="btn ghost clock-button"
        popoverTarget="clock-popover"
        aria-label={name}
        data-testid="clock-button"
      >
        <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true">
          <circle cx="8" cy="8" r="6.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
          <path
            d="M8 4.5V8l2.5 1.5"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.5"
            strokeLinecap="round"
          />
        </svg>
        <span className="clock-time">{fmtClock(now)}</span>
        {moved && (
          <span className="badge warn" data-testid="clock-button-offset">
            {moved}
          </span>
        )}
      </button>
      <div id="clock-popover" popover="auto" className="popover" aria-label="Sandbox clock">
        <ClockPanel idPrefix="popover" />
      </div>
    </>
  );
}

/** The full clock card, for screens that depend on sandbox time. */
export function ClockPanel({
  idPrefix = 'panel',
  compact = false,
}: {
  idPrefix?: string;
  compact?: boolean;
}) {
  const now = useSandboxNow();
  const clock = useSandbox((s) => s.clock);
  return (
    <section
      className={`clock-panel ${compact ? 'compact' : ''}`}
      aria-label="Sandbox clock"
      data-testid="clock-panel"
    >
      <div className="clock-panel-head">
        <span className="section-title">Sandbox clock</span>
        <ClockReadout now={now} offsetMs={clock?.state.offsetMs} />
      </div>
      <ClockControls idPrefix={idPrefix} />
    </section>
  );
}
