// A time recorded on the sandbox clock that now lies ahead of it: the clock was advanced when it was
// recorded and has gone back since (reset to real time, or set earlier). Said beside the time, so a list
// whose dates run out of order reads as the clock's doing, not as a wrong order.
import { fmtDuration } from '../format';

export function AheadOfClock(props: { at: number; now: number; testId: string; what: string }) {
  const ahead = props.at - props.now;
  if (!(ahead >= 1000)) return null;
  return (
    <span
      className="ahead-of-clock"
      data-testid={props.testId}
      title={`${props.what} while the sandbox clock was advanced; the clock has gone back since`}
    >
      {' '}
      ({fmtDuration(ahead)} ahead of the clock)
    </span>
  );
}
