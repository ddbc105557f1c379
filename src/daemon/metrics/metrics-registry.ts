/** Label names and values of one series. */
export type Labels = Readonly<Record<string, string>>;

/** A value read when the metrics are scraped: one number, or one per label set. */
export type GaugeReading = number | undefined | readonly (readonly [Labels, number])[];

interface CounterMetric {
  readonly kind: 'counter';
  readonly help: string;
  readonly series: Map<string, { labels: Labels; value: number }>;
}

interface GaugeMetric {
  readonly kind: 'gauge';
  readonly help: string;
  readonly read: () => GaugeReading;
}

interface HistogramSeries {
  labels: Labels;
  readonly counts: number[];
  sum: number;
  count: number;
}

interface HistogramMetric {
  readonly kind: 'histogram';
  readonly help: string;
  readonly buckets: readonly number[];
  readonly series: Map<string, HistogramSeries>;
}

type Metric = CounterMetric | GaugeMetric | HistogramMetric;

/** Latency buckets in seconds, from 0.5 ms to 10 s. */
export const SECONDS_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Counters, gauges and histograms rendered in the Prometheus text exposition format (version 0.0.4), without a
 * client library: the node needs a handful of series and no push or exemplars. Gauges are read at scrape time.
 */
export class MetricsRegistry {
  private readonly metrics = new Map<string, Metric>();

  counter(name: string, help: string): (labels?: Labels, by?: number) => void {
    const metric: CounterMetric = { kind: 'counter', help, series: new Map() };
    this.define(name, metric);
    return (labels = {}, by = 1) => {
      const key = labelKey(labels);
      const s = metric.series.get(key);
      if (s) s.value += by;
      else metric.series.set(key, { labels, value: by });
    };
  }

  gauge(name: string, help: string, read: () => GaugeReading): void {
    this.define(name, { kind: 'gauge', help, read });
  }

  histogram(name: string, help: string, buckets: readonly number[] = SECONDS_BUCKETS): (v: number, l?: Labels) => void {
    const metric: HistogramMetric = { kind: 'histogram', help, buckets, series: new Map() };
    this.define(name, metric);
    return (value, labels = {}) => {
      const key = labelKey(labels);
      let s = metric.series.get(key);
      if (!s) {
        s = { labels, counts: new Array<number>(buckets.length).fill(0), sum: 0, count: 0 };
        metric.series.set(key, s);
      }
      for (let i = 0; i < buckets.length; i++)
        if (value <= (buckets[i] as number)) s.counts[i] = (s.counts[i] ?? 0) + 1;
      s.sum += value;
      s.count += 1;
    };
  }

  /** The exposition text of every metric. A gauge whose reading fails is left out of this scrape. */
  render(): string {
    const lines: string[] = [];
    for (const [name, m] of this.metrics) {
      if (m.kind === 'gauge') {
        let reading: GaugeReading;
        try {
          reading = m.read();
        } catch {
          continue;
        }
        if (reading === undefined) continue;
        lines.push(`# HELP ${name} ${escapeHelp(m.help)}`, `# TYPE ${name} gauge`);
        if (typeof reading === 'number') lines.push(`${name} ${number(reading)}`);
        else for (const [labels, v] of reading) lines.push(`${name}${labelText(labels)} ${number(v)}`);
        continue;
      }
      lines.push(`# HELP ${name} ${escapeHelp(m.help)}`, `# TYPE ${name} ${m.kind}`);
      if (m.kind === 'counter') {
        for (const s of m.series.values()) lines.push(`${name}${labelText(s.labels)} ${number(s.value)}`);
        continue;
      }
      for (const s of m.series.values()) {
        m.buckets.forEach((le, i) => {
          lines.push(`${name}_bucket${labelText({ ...s.labels, le: number(le) })} ${s.counts[i]}`);
        });
        lines.push(`${name}_bucket${labelText({ ...s.labels, le: '+Inf' })} ${s.count}`);
        lines.push(`${name}_sum${labelText(s.labels)} ${number(s.sum)}`);
        lines.push(`${name}_count${labelText(s.labels)} ${s.count}`);
      }
    }
    return `${lines.join('\n')}\n`;
  }

  private define(name: string, metric: Metric): void {
    if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(name)) throw new Error(`invalid metric name ${name}`);
    if (this.metrics.has(name)) throw new Error(`metric ${name} is defined twice`);
    this.metrics.set(name, metric);
  }
}

function labelKey(labels: Labels): string {
  return Object.keys(labels)
    .sort()
    .map((k) => `${k}=${labels[k]}`)
    .join('\u0000');
}

function labelText(labels: Labels): string {
  const keys = Object.keys(labels);
  if (keys.length === 0) return '';
  return `{${keys.map((k) => `${k}="${escapeLabel(labels[k] as string)}"`).join(',')}}`;
}

function escapeLabel(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function escapeHelp(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function number(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Number.POSITIVE_INFINITY) return '+Inf';
  if (v === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(v);
}
