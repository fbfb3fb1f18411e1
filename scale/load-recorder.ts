/** How long one request may take before it counts as lost (hanging). */
export const ANSWER_WITHIN_MS = 10_000;

/** What became of one request: its status, or why there was none. */
type Outcome = number | 'lost';

interface RouteStats {
  ms: number[];
  outcomes: Map<Outcome, number>;
}

export interface RouteFigures {
  route: string;
  requests: number;
  p50: number;
  p99: number;
  max: number;
  outcomes: Record<string, number>;
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * Sends requests and keeps, per route, the time each took to its last byte and how it was answered. A request
 * unanswered within ANSWER_WITHIN_MS (or whose connection failed) is aborted and counted `lost`.
 */
export class LoadRecorder {
  private readonly routes = new Map<string, RouteStats>();
  private started = 0;
  private finished = 0;
  /** The first few lost requests, with why. */
  readonly lostExamples: string[] = [];

  /** A fetch named `route` in the figures; answers the response with its body read, or null when lost. */
  async fetch(route: string, url: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; text: string } | null> {
    this.started++;
    const begun = performance.now();
    try {
      const res = await fetch(url, { redirect: 'manual', ...init, signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });
      const text = await res.text();
      this.record(route, performance.now() - begun, res.status);
      return { status: res.status, headers: res.headers, text };
    } catch (error) {
      this.record(route, performance.now() - begun, 'lost');
      if (this.lostExamples.length < 10) this.lostExamples.push(`${route}: ${(error as Error).message} ${(error as Error & { cause?: Error }).cause?.message ?? ''}`);
      return null;
    } finally {
      this.finished++;
    }
  }

  private record(route: string, ms: number, outcome: Outcome): void {
    const stats: RouteStats = this.routes.get(route) ?? { ms: [], outcomes: new Map() };
    stats.ms.push(ms);
    stats.outcomes.set(outcome, (stats.outcomes.get(outcome) ?? 0) + 1);
    this.routes.set(route, stats);
  }

  /** Requests sent and not yet answered or lost. */
  get inFlight(): number {
    return this.started - this.finished;
  }

  figures(): RouteFigures[] {
    return [...this.routes].map(([route, stats]) => {
      const sorted = [...stats.ms].sort((a, b) => a - b);
      return {
        route, requests: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted[sorted.length - 1],
        outcomes: Object.fromEntries([...stats.outcomes].sort((a, b) => String(a[0]).localeCompare(String(b[0])))),
      };
    });
  }

  /** The figures as a plain-text table, one line per route and a total. */
  table(seconds: number): string {
    const rows = this.figures();
    const all = rows.reduce((sum, row) => sum + row.requests, 0);
    const ms = (value: number) => `${Math.round(value)} ms`;
    const lines = [['route', 'requests', 'p50', 'p99', 'max', 'statuses'], ...rows.map((row) => [
      row.route, String(row.requests), ms(row.p50), ms(row.p99), ms(row.max),
      Object.entries(row.outcomes).map(([outcome, n]) => `${outcome}×${n}`).join(' '),
    ]), ['all', String(all), '', '', '', `${(all / seconds).toFixed(0)} requests/s`]];
    const widths = lines[0].map((_, i) => Math.max(...lines.map((line) => line[i].length)));
    return lines.map((line) => line.map((cell, i) => (i === 0 || i === 5 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ').trimEnd()).join('\n');
  }
}
