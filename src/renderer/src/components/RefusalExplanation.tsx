// What a refused request was and its fix, when the service's own message does not say it: a 405 to
// OPTIONS reads "invalid request method", where the request was a browser's CORS preflight. The words
// are the timelines' request-refused finding's (refusalExplained in src/shared/events.ts).
export function RefusalExplanation({
  explained,
  className = '',
}: {
  explained: { wrong: string; fix: string };
  className?: string;
}) {
  const { wrong, fix } = explained;
  return (
    <p className={`refusal-explanation ${className}`} data-testid="refusal-explanation">
      {wrong.charAt(0).toUpperCase() + wrong.slice(1)}. Fix: {fix}.
    </p>
  );
}
