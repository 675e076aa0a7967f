// The workloads against one system, for bench/run-bench.mjs: the distinct-request ones
// (bench/distinct-workloads.mjs), then the repeated-URL ones (list, search, get, create),
// against Quire's API (`seed` style, as the floors answer it too) or Directus'. Each is an autocannon
// run (the median of `--repeat` runs), with the CPU time it cost each process and the server's memory.
import autocannon from 'autocannon';
import { runDistinct } from './distinct-workloads.mjs';
import { cpuMeter, log, memoryOf, postgresPids } from './processes.mjs';

/** The connections autocannon keeps open in every run. */
export const CONNECTIONS = 16;
const CREATE_BODY = 'title=Bench+post&status=draft&published_at=2026-01-01+00%3A00%3A00';
const DIRECTUS_TOKEN = 'bench-static-token-0123456789';

/**
 * CPU time a completed request cost each process group of a run (`cpuMeter`), in µs, with the
 * load generator's (this process) and the machine's busy cores: where the time went.
 */
export function cpuPerRequest(used, completed) {
  const per = (ms) => (completed > 0 ? Math.round((ms * 1000) / completed) : null);
  return {
    ...Object.fromEntries(Object.entries(used.groups).map(([name, ms]) => [name, per(ms)])),
    load: per(used.load),
    busyCores: Number(used.busyCores.toFixed(2)),
    cores: used.cores,
  };
}

/** The 1 s autocannon run before each measured one (its figures are not kept). */
const warmUp = (options) => autocannon({ connections: CONNECTIONS, duration: 1, ...options });

/**
 * One autocannon run of `duration` seconds; the median of `repeat` runs by req/s. `groups` (see
 * `cpuMeter`): processes whose CPU time each run counts.
 */
async function load({ duration, repeat }, options, groups = null) {
  const runs = [];
  for (let i = 0; i < repeat; i++) {
    const meter = groups ? cpuMeter(groups) : null;
    const result = await autocannon({ connections: CONNECTIONS, duration, ...options });
    const used = meter?.();
    // Slow systems finish few requests in a run: below 10 req/s the rate is completed / duration.
    const completed = result.requests.total;
    const rps = result.requests.average >= 10 ? Math.round(result.requests.average) : completed / result.duration;
    runs.push({
      rps,
      completed,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.non2xx, // autocannon's errors include its timeouts
      timeouts: result.timeouts,
      non2xx: result.non2xx,
      ...(used ? { cpu: cpuPerRequest(used, completed) } : {}),
    });
  }
  runs.sort((a, b) => a.rps - b.rps);
  return runs[Math.floor(runs.length / 2)];
}

/**
 * The four workloads against one system (`seed` style: the spec's /api/cms; or `directus`), with
 * the highest RSS of `pids` seen after each (a server may not outlive the create run's abrupt end)
 * and the CPU time of each run: `pids` as the server, PostgreSQL's processes as the database when
 * `database` (see `cpuPerRequest`). `settings`: the run's (bench/run-bench.mjs): duration, repeat,
 * the keywords of the distinct searches and the rare keyword of the repeated-URL search.
 */
export async function workloads(settings, base, style, id, pids = [], ids = null, database = false) {
  const { keywords, rareKeyword } = settings;
  const groups = { server: () => pids, ...(database ? { database: postgresPids } : {}) };
  const measured = (options) => load(settings, options, groups);
  let memory = { rss: 0, peak: 0 };
  const sample = () => {
    for (const pid of pids) {
      const now = memoryOf(pid);
      if (now.rss > memory.rss) memory = now;
    }
  };
  const enc = encodeURIComponent;
  const headers = style === 'directus' ? { authorization: `Bearer ${DIRECTUS_TOKEN}` } : {};
  const urls =
    style === 'directus'
      ? {
          list: `${base}/items/news?filter[status][_eq]=published&sort=-published_at&limit=20&meta=total_count,filter_count`,
          search: `${base}/items/news?filter[_or][0][title][_icontains]=${enc(rareKeyword)}&filter[_or][1][slug][_icontains]=${enc(rareKeyword)}&limit=20&meta=total_count,filter_count`,
          get: `${base}/items/news/${id}`,
          create: `${base}/items/news`,
        }
      : {
          list: `${base}/api/cms/news?filter=${enc('status=published')}&order=published_at&desc=true&limit=20`,
          search: `${base}/api/cms/news?filter=${enc(`search=${rareKeyword}`)}&limit=20`,
          get: `${base}/api/cms/news/${id}`,
          create: `${base}/api/cms/news`,
        };
  const results = {};
  if (ids) {
    results.distinct = await runDistinct({
      base,
      keywords,
      ids,
      load: measured,
      warmUp,
      after: sample,
    });
  }
  for (const name of ['list', 'search', 'get']) {
    const check = await fetch(urls[name], { headers });
    if (!check.ok) throw new Error(`${style} ${name}: ${check.status} ${await check.text()}`);
    await check.arrayBuffer();
    await warmUp({ url: urls[name], headers });
    results[name] = await measured({ url: urls[name], headers });
    sample();
  }
  let n = 0;
  const createOptions =
    style === 'directus'
      ? {
          url: urls.create,
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          requests: [
            {
              setupRequest: (request) => ({
                ...request,
                body: JSON.stringify({
                  title: 'Bench post',
                  slug: `p-${process.pid}-${n++}`,
                  status: 'draft',
                  published_at: '2026-01-01T00:00:00',
                }),
              }),
            },
          ],
        }
      : {
          url: urls.create,
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: CREATE_BODY,
        };
  results.create = await measured(createOptions);
  sample();
  results.memory = memory;
  return results;
}

/** The first row's id through the API (`seed` style or `directus`). */
export async function firstId(base, style) {
  const url = style === 'directus' ? `${base}/items/news?limit=1&sort=id` : `${base}/api/cms/news?limit=1&order=id`;
  const body = await (
    await fetch(url, { headers: style === 'directus' ? { authorization: `Bearer ${DIRECTUS_TOKEN}` } : {} })
  ).json();
  return style === 'directus' ? body.data[0].id : body.rows[0].id;
}

/** A run's CPU time a request, as a log line's end. */
export const cpuText = (cpu) =>
  cpu
    ? `; CPU a request: server ${cpu.server} µs${cpu.database === undefined ? '' : `, PostgreSQL ${cpu.database} µs`}, load generator ${cpu.load} µs; machine ${cpu.busyCores} of ${cpu.cores} cores busy`
    : '';

/**
 * The distinct get workload alone against one server, on the stream it has in a whole run: its
 * result, logged (`settings`: see `workloads`).
 */
export async function measureDistinctGet(settings, name, base, ids, pids) {
  const { get } = await runDistinct({
    base,
    keywords: settings.keywords,
    ids,
    load: (options) => load(settings, options, { server: () => pids }),
    warmUp,
    only: ['get'],
  });
  logRun(name, 'distinct get', get);
  return get;
}

/** Every workload against one server, logged as it goes (`settings`: see `workloads`). */
export async function measure(settings, name, base, ids, n, pids, database = false) {
  if (ids.length !== n) throw new Error(`${name} has ${ids.length} rows, expected ${n}`);
  const results = await workloads(settings, base, 'seed', await firstId(base, 'seed'), pids, ids, database);
  const { distinct, memory, ...cache } = results;
  for (const [workload, r] of [
    ...Object.entries(distinct).map(([k, r]) => [`distinct ${k}`, r]),
    ...Object.entries(cache).map(([k, r]) => [`cache ${k}`, r]),
  ]) {
    logRun(name, workload, r);
  }
  return results;
}

/** One run's figures, as a log line. */
function logRun(name, workload, r) {
  log(
    `${name} ${workload}: ${Number(r.rps.toFixed(1))} req/s p50 ${r.p50} ms p99 ${r.p99} ms${r.errors ? ` errors ${r.errors}` : ''}${r.repeatShare !== undefined ? ` repeated URLs ${(100 * r.repeatShare).toFixed(0)}%` : ''}${cpuText(r.cpu)}`,
  );
}
