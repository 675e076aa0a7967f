import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain .mjs benchmark modules without type declarations
import { resultsMarkdown } from './report.mjs';

const WORKLOADS = ['search', 'list', 'get', 'mixed', 'create', 'update'];
const figures = (rps: number, extra: Record<string, number> = {}) => ({
  rps,
  completed: rps * 8,
  p50: 2,
  p99: 9,
  errors: 0,
  timeouts: 0,
  non2xx: 0,
  repeatShare: 0.25,
  ...extra,
});
const system = (rps: number, extra: Record<string, number> = {}) => ({
  distinct: Object.fromEntries(WORKLOADS.map((w) => [w, figures(rps, extra)])),
  ...Object.fromEntries(['list', 'search', 'get', 'create'].map((w) => [w, figures(rps, extra)])),
  memory: { rss: 120, peak: 130 },
});
const engine = (importRate: number, via = 'import') => ({
  importRate,
  importSeconds: 1,
  startMs: 300,
  firstListMs: 320,
  firstSearchMs: 21_400,
  via,
});

const rowsOf = (markdown: string, start: string) => markdown.split('\n').filter((line) => line.startsWith(start));

describe('RESULTS.md with both engines', () => {
  const markdown: string = resultsMarkdown({
    header: ['header line'],
    peer: null,
    report: [
      {
        n: 100000,
        engines: { sqlite: engine(150000), postgres: engine(40000, 'copy') },
        systems: {
          quire: system(4000),
          floor: system(500),
          postgres: system(1000, { non2xx: 3, errors: 3 }),
          postgresFloor: { ...system(250), memory: { rss: 70, peak: 75 } },
        },
      },
    ],
  });

  it('has one row per engine and workload, each beside the floor on its own engine', () => {
    const distinct = rowsOf(markdown, '| 100k | ');
    expect(distinct.filter((line) => line.includes('| update |'))).toEqual([
      expect.stringMatching(
        /^\| 100k \| sqlite \| update \| 4,000 \(32,000 done\) \| 2 \| 9 \| 500 \(4,000 done\) \| 2 \| 9 \| 8\.00 \| — \| >= 1.5 x floor ✓ \|$/,
      ),
      expect.stringMatching(
        /^\| 100k \| postgres \| update \| 1,000 \(8,000 done\) \(3 non-2xx\) \| 2 \| 9 \| 250 \(2,000 done\) \| 2 \| 9 \| 4\.00 \| — \| >= 1.5 x floor ✗ \|$/,
      ),
    ]);
    const [distinctGet, cacheGet] = rowsOf(markdown, '| 100k | postgres | get | 1,000');
    expect(distinctGet).toContain('| 250 (2,000 done) | 2 | 9 | 4.00 | 25 % | >= 0.9 x floor ✗ |');
    expect(cacheGet).toContain('| 250 (2,000 done) | 2 | 9 | 4.00 | >= 0.7 x floor ✗ |'); // the cache figures too
    expect(markdown).toContain('| rows | engine | workload | Quire req/s |');
    expect(markdown).not.toContain('(SQLite floor)');
  });

  it('gives import and start per engine, saying when PostgreSQL was loaded by quire copy', () => {
    expect(markdown).toContain('| 100k | sqlite | 150,000 (1.0 s) ✓ | 300 ms | 320 ms |');
    expect(markdown).toContain(
      '| 100k | postgres | 40,000 (1.0 s) via quire copy ✗ | 300 ms | 320 ms | 21.4 s | — | 120 MB (peak 130) | 70 MB (peak 75) |',
    );
  });

  it("lists PostgreSQL's verdicts apart, and meets no target in a run with error statuses", () => {
    const verdicts = rowsOf(markdown, 'PostgreSQL targets');
    expect(verdicts[0]).toBe('PostgreSQL targets met (ratios against the PostgreSQL floor): none.');
    expect(verdicts[1]).toContain('distinct update 100k (postgres)');
    expect(rowsOf(markdown, 'Targets missed:')[0]).not.toContain('postgres');
  });
});

describe('RESULTS.md where the floor failed requests', () => {
  it('gives no ratio and no verdict on one: the floor did not do the work asked', () => {
    const floor = system(500);
    floor.create = figures(2000, { errors: 99056 });
    const markdown: string = resultsMarkdown({
      header: [],
      peer: null,
      report: [{ n: 100000, engines: { sqlite: engine(150000) }, systems: { quire: system(3000), floor } }],
    });
    const [cacheCreate] = rowsOf(markdown, '| 100k | sqlite | create | 3,000').slice(-1);
    expect(cacheCreate).toContain(
      '| 2,000 (16,000 done) (99,056 errors) | 2 | 9 | — (the floor failed) | >= 0.7 x floor |',
    );
    expect(rowsOf(markdown, 'Targets met:')[0]).not.toContain('cache create');
    expect(markdown).not.toMatch(/Targets missed:.*cache create/);
  });
});

describe('RESULTS.md from runs without a PostgreSQL floor or without SQLite', () => {
  it('compares PostgreSQL with the SQLite floor when its own did not run, and says so', () => {
    const markdown: string = resultsMarkdown({
      header: [],
      peer: null,
      report: [
        {
          n: 100000,
          engines: { sqlite: engine(150000), postgres: engine(40000) },
          systems: { quire: system(4000), postgres: system(1000), floor: system(500) },
        },
      ],
    });
    expect(rowsOf(markdown, '| 100k | postgres | update |')).toEqual([
      expect.stringContaining('| 500 (4,000 done) (SQLite floor) | 2 | 9 | 2.00 |'),
    ]);
    expect(rowsOf(markdown, '| 100k | sqlite | update |')[0]).not.toContain('(SQLite floor)');
    expect(markdown).toContain(
      'PostgreSQL targets met (ratios against the SQLite floor where no PostgreSQL floor ran)',
    );
  });

  it('reports PostgreSQL alone (--engines postgres) against its own floor', () => {
    const markdown: string = resultsMarkdown({
      header: [],
      peer: null,
      report: [
        {
          n: 100000,
          engines: { postgres: engine(40000) },
          systems: { postgres: system(1000), postgresFloor: system(400) },
        },
      ],
    });
    expect(rowsOf(markdown, '| 100k | postgres | search |')[0]).toContain('| 400 (3,200 done) | 2 | 9 | 2.50 |');
    expect(rowsOf(markdown, '| 100k | sqlite')).toHaveLength(0);
    expect(rowsOf(markdown, 'Targets met')).toHaveLength(0);
  });
});

describe('RESULTS.md from a run written before the engine column', () => {
  it('reads SQLite import and start from the top of each size, and skips the workloads it did not have', () => {
    const old = system(4000);
    delete old.distinct.create;
    delete old.distinct.update;
    const markdown: string = resultsMarkdown({
      header: [],
      peer: null,
      report: [
        {
          n: 10000,
          importRate: 20000,
          importSeconds: 0.5,
          startMs: 200,
          firstListMs: 210,
          systems: { quire: old, floor: system(500) },
        },
      ],
    });
    expect(markdown).toContain('| 10k | sqlite | 20,000 (0.5 s) ✗ | 200 ms | 210 ms | — |'); // no first search then
    expect(rowsOf(markdown, '| 10k | sqlite | search |')).toHaveLength(2); // distinct and cache
    expect(rowsOf(markdown, '| 10k | sqlite | create |')).toHaveLength(1); // cache only
    expect(rowsOf(markdown, '| 10k | sqlite | update |')).toHaveLength(0);
  });
});

describe('RESULTS.md at 1M rows', () => {
  const at1M = (rss: number): string =>
    resultsMarkdown({
      header: [],
      peer: null,
      report: [
        {
          n: 1000000,
          engines: { sqlite: engine(150000) },
          systems: { quire: { ...system(4000), memory: { rss, peak: rss + 10 } }, floor: system(500) },
        },
      ],
    });

  it('judges RSS at 1M rows by the 250 MB target, the search index included', () => {
    expect(at1M(240)).toContain('| 240 MB ✓ (peak 250) |');
    expect(rowsOf(at1M(240), 'Targets met:')[0]).toContain('RSS 1M');
    expect(at1M(260)).toContain('| 260 MB ✗ (peak 270) |');
    expect(rowsOf(at1M(260), 'Targets missed:')[0]).toContain('RSS 1M');
  });

  it('gives the time to the first search', () => {
    expect(at1M(240)).toContain('| 300 ms ✓ | 320 ms | 21.4 s | — | 240 MB');
  });

  it("gives the import's search index time apart, and judges the first search after the import and after a restart by 100 ms", () => {
    const markdown: string = resultsMarkdown({
      header: [],
      peer: null,
      report: [
        {
          n: 1000000,
          engines: {
            sqlite: {
              ...engine(150000),
              importSeconds: 12,
              indexSeconds: 9.1,
              tableIndexSeconds: 3.2,
              searchMs: 9_100,
              restart: { startMs: 310, firstListMs: 400, firstSearchMs: 420, searchMs: 12 },
            },
          },
          systems: { quire: system(4000), floor: system(500) },
        },
      ],
    });
    expect(markdown).toContain(
      "| 1M | sqlite | 150,000 (12.0 s, of which the table's indexes 3.2 s and the search index 9.1 s) ✓ | 300 ms ✓ |",
    );
    expect(markdown).toContain('| 320 ms | 21.4 s (search 9100 ms ✗) | 310 ms, 420 ms (search 12 ms ✓) | 120 MB');
    expect(rowsOf(markdown, 'Targets met:')[0]).toContain('first search 1M after restart');
    expect(rowsOf(markdown, 'Targets missed:')[0]).toContain('first search 1M after import');
  });
});

describe('RESULTS.md: where the CPU went', () => {
  const withCpu = (rps: number, cpu: Record<string, number>) => {
    const measured = system(rps);
    for (const figures of Object.values(measured.distinct)) Object.assign(figures, { cpu });
    return measured;
  };
  const markdownOf = (engines: object, systems: object): string =>
    resultsMarkdown({ header: [], peer: null, report: [{ n: 100000, engines, systems }] });

  it("gives each distinct run's CPU a request and what the target's rate would take at those costs", () => {
    const markdown = markdownOf(
      { postgres: engine(40000) },
      {
        postgres: withCpu(1000, { server: 900, database: 400, load: 200, busyCores: 1.9, cores: 2 }),
        postgresFloor: withCpu(400, { server: 700, database: 1500, load: 150, busyCores: 1.8, cores: 2 }),
      },
    );
    expect(markdown).toContain('### Where the CPU went');
    // search at 100k: 3,000 req/s asked, at 900 + 400 + 200 µs a request.
    expect(rowsOf(markdown, '| 100k | postgres | search | 1,000 | 900 |')).toEqual([
      '| 100k | postgres | search | 1,000 | 900 | 400 | 200 | 1.9 | 400 | 700 | 1,500 | 150 | 1.8 | 3,000 req/s: 4.5 of 2 cores |',
    ]);
    // update: 1.5 x the floor's 400 is met at 1,000: nothing to say.
    expect(rowsOf(markdown, '| 100k | postgres | update | 1,000 | 900 |')[0]).toMatch(/\| — \|$/);
  });

  it('leaves the table out for runs from before CPU was counted, and gives "—" for a server without a database', () => {
    const old = markdownOf({ sqlite: engine(150000) }, { quire: system(3000), floor: system(500) });
    expect(old).not.toContain('Where the CPU went');
    const sqlite = markdownOf(
      { sqlite: engine(150000) },
      {
        quire: withCpu(2000, { server: 500, load: 100, busyCores: 1.5, cores: 2 }),
        floor: withCpu(500, { server: 400, load: 100, busyCores: 1.1, cores: 2 }),
      },
    );
    expect(rowsOf(sqlite, '| 100k | sqlite | search | 2,000 | 500 |')[0]).toBe(
      '| 100k | sqlite | search | 2,000 | 500 | — | 100 | 1.5 | 500 | 400 | — | 100 | 1.1 | 3,000 req/s: 1.8 of 2 cores |',
    );
  });
});

describe("RESULTS.md: gets with Quire's answer", () => {
  it("sets Quire's gets beside the floor's and the floor answering with Quire's answer", () => {
    const quire = system(9000);
    quire.distinct.get = { ...figures(9000), cpu: { server: 80 } } as never;
    const floor = system(15000);
    floor.distinct.get = { ...figures(15000), cpu: { server: 40 } } as never;
    const markdown: string = resultsMarkdown({
      header: [],
      peer: null,
      report: [
        {
          n: 100000,
          engines: { sqlite: engine(150000) },
          systems: { quire, floor, answerFloor: { ...figures(10000), cpu: { server: 75 } } },
        },
      ],
    });
    expect(markdown).toContain("Gets with Quire's answer");
    expect(rowsOf(markdown, '| 100k | 9,000 |')).toEqual([
      '| 100k | 9,000 | 80 | 15,000 | 40 | 10,000 | 2 | 9 | 75 | 0.60 | 0.90 |',
    ]);
  });

  it('leaves the table out of runs that did not measure it', () => {
    const markdown: string = resultsMarkdown({
      header: [],
      peer: null,
      report: [
        { n: 100000, engines: { sqlite: engine(150000) }, systems: { quire: system(9000), floor: system(500) } },
      ],
    });
    expect(markdown).not.toContain("Gets with Quire's answer");
  });
});
