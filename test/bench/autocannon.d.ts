// The part of autocannon's API the benchmarks use (the package ships no types).
declare module 'autocannon' {
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  namespace autocannon {
    interface Histogram {
      average: number;
      mean: number;
      p50: number;
      p90: number;
      p99: number;
      max: number;
      total: number;
    }
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      setupRequest?: (req: Request, context: Record<string, unknown>) => Request;
    }
    interface Options extends Request {
      url: string;
      connections?: number;
      pipelining?: number;
      duration?: number;
      amount?: number;
      overallRate?: number;
      requests?: Request[];
    }
    interface Result {
      requests: Histogram & { sent: number };
      latency: Histogram;
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      '2xx': number;
    }
  }
  export default autocannon;
}
