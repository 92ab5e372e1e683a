// `search-sandbox check`: filled in by the timelines work.
export async function runCheck(_args: string[]): Promise<number> {
  throw new Error('check is not built yet');
}
