import { useEffect, useState } from 'react';

export function App() {
  const [version, setVersion] = useState<string | null>(null);
  useEffect(() => {
    fetch('/_sandbox/health')
      .then((r) => r.json())
      .then((h: { version: string }) => setVersion(h.version))
      .catch(() => setVersion(null));
  }, []);
  return (
    <main>
      <h1>Search Sandbox</h1>
      <p data-testid="version">{version ?? 'connecting…'}</p>
    </main>
  );
}
