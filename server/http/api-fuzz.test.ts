import { testEngine } from '../test-support/test-server.js';
import { apiFuzzSuite } from './api-fuzz-suite.js';

/**
 * The API fuzzer (api-fuzz-suite.ts) on the engine of the project (`server` on SQLite, `server-pg`
 * on PostgreSQL): 1,500 requests from a fixed seed, the same ones every run, so a failure here is
 * one to replay. api-fuzz.stress.test.ts (`npm run test:stress`) sends 5,000 new ones on each engine.
 */
await apiFuzzSuite({ engine: testEngine(), runs: 1_500, seed: 20_261_207 });
