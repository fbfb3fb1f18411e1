/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4): every line must be a
 * HELP or TYPE comment, a blank line or a sample of a family whose TYPE came first; label values
 * are unescaped; a series may appear once; a histogram's buckets must be cumulative, end with
 * +Inf and match its _count. Anything else throws, naming the line.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help: string;
  samples: Sample[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: (-?\\d+))?$`);
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)/;
const TYPES = ['counter', 'gauge', 'histogram', 'summary', 'untyped'];
const SUFFIXES: Record<string, string[]> = { histogram: ['_bucket', '_sum', '_count'], summary: ['', '_sum', '_count'] };

/** A float as Go's ParseFloat reads it (Prometheus's rule): NaN and Inf in any case, with a sign for Inf. */
function parseValue(raw: string, line: string): number {
  if (/^nan$/i.test(raw)) return Number.NaN;
  if (/^\+?inf(inity)?$/i.test(raw)) return Infinity;
  if (/^-inf(inity)?$/i.test(raw)) return -Infinity;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(raw)) throw new Error(`bad value in: ${line}`);
  return Number(raw);
}

function parseLabels(raw: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = raw;
  while (rest.length) {
    const match = LABEL.exec(rest);
    if (!match) throw new Error(`bad labels in: ${line}`);
    if (match[1] in labels) throw new Error(`label ${match[1]} twice in: ${line}`);
    labels[match[1]] = match[2].replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    rest = rest.slice(match[0].length);
  }
  return labels;
}

function familyOf(name: string, families: Map<string, Family>): Family | undefined {
  if (families.has(name)) {
    const family = families.get(name)!;
    if (family.type !== 'histogram') return family;
  }
  for (const [base, family] of families) {
    if ((SUFFIXES[family.type] ?? ['']).some((suffix) => base + suffix === name)) return family;
  }
  return undefined;
}

export function parsePrometheus(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const series = new Set<string>();
  const typed = new Set<string>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const comment = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!comment) continue;
      const [, kind, name, rest] = comment;
      if (!new RegExp(`^${NAME}$`).test(name)) throw new Error(`bad metric name in: ${line}`);
      const family = families.get(name) ?? { type: 'untyped' as const, help: '', samples: [] };
      if (kind === 'TYPE') {
        if (!TYPES.includes(rest)) throw new Error(`bad type in: ${line}`);
        if (family.samples.length || typed.has(name)) throw new Error(`TYPE late or twice: ${line}`);
        typed.add(name);
        family.type = rest as Family['type'];
      } else {
        family.help = rest;
      }
      families.set(name, family);
      continue;
    }
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a sample: ${line}`);
    const [, name, rawLabels, rawValue] = match;
    const family = familyOf(name, families);
    if (!family) throw new Error(`sample of no declared family: ${line}`);
    const labels = parseLabels(rawLabels ?? '', line);
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (series.has(key)) throw new Error(`series twice: ${line}`);
    series.add(key);
    family.samples.push({ name, labels, value: parseValue(rawValue, line) });
  }
  for (const [name, family] of families) if (family.type === 'histogram') checkHistogram(name, family);
  return families;
}

function checkHistogram(name: string, family: Family): void {
  const groups = new Map<string, { buckets: { le: number; value: number }[]; count?: number }>();
  for (const s of family.samples) {
    const { le, ...rest } = s.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    const group = groups.get(key) ?? { buckets: [] };
    groups.set(key, group);
    if (s.name === `${name}_bucket`) group.buckets.push({ le: parseValue(le, `${name} le=${le}`), value: s.value });
    if (s.name === `${name}_count`) group.count = s.value;
  }
  for (const [key, group] of groups) {
    const sorted = [...group.buckets].sort((a, b) => a.le - b.le);
    if (sorted.at(-1)?.le !== Infinity) throw new Error(`${name}${key}: no +Inf bucket`);
    sorted.forEach((b, i) => { if (i && b.value < sorted[i - 1].value) throw new Error(`${name}${key}: buckets not cumulative`); });
    if (sorted.at(-1)!.value !== group.count) throw new Error(`${name}${key}: +Inf bucket differs from _count`);
  }
}

/** The value of the one sample of `name` whose labels include `labels`; undefined when none. */
export function sampleValue(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number | undefined {
  const family = familyOf(name, families);
  const found = family?.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)) ?? [];
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value;
}
