import { apiFuzzSuite } from './api-fuzz-suite.js';

/**
 * `npm run test:stress`: the API fuzzer (api-fuzz-suite.ts) with 5,000 requests on each engine, a
 * new seed each run (printed; QUIRE_FUZZ_SEED replays it). `npm test` sends 1,500 from a fixed
 * seed (api-fuzz.test.ts).
 */
await apiFuzzSuite({ engine: 'sqlite', runs: 5_000 });
await apiFuzzSuite({ engine: 'postgres', runs: 5_000 });
