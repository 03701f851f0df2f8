import { parseBenchmarkOptions, percentile, summariseLatencies } from './benchmark-kit.js';

describe('benchmark kit', () => {
  it('summarises latencies by nearest rank, whatever the order they came in', () => {
    const samples = Array.from({ length: 1000 }, (_, i) => (i * 7919) % 1000).map((v) => v / 100);
    expect(summariseLatencies(samples)).toEqual({ count: 1000, meanMs: 4.995, p50Ms: 5, p95Ms: 9.5, p99Ms: 9.9, p999Ms: 9.99, maxMs: 9.99 });
    expect(percentile([1, 2, 3], 1)).toBe(3);
  });

  it('reads whole-number options by their kebab-case names, --json, and refuses anything else', () => {
    const defaults = { count: 100, customRules: 5 };
    expect(parseBenchmarkOptions(['--custom-rules', '0', '--json'], defaults, '', 0)).toEqual({ count: 100, customRules: 0, json: true });
    expect(parseBenchmarkOptions([], defaults, '')).toEqual({ count: 100, customRules: 5, json: false });
    expect(() => parseBenchmarkOptions(['--count', '0'], defaults, '')).toThrow('--count needs a whole number >= 1, got 0');
    expect(() => parseBenchmarkOptions(['--count'], defaults, '')).toThrow('--count needs a whole number >= 1, got nothing');
    expect(() => parseBenchmarkOptions(['--rate', '5'], defaults, '')).toThrow('unknown option --rate (see --help)');
  });
});
