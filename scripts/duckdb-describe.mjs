// duckdb-describe.mjs computes with DuckDB what `schedplan describe` prints
// for a Parquet job log sized from bytes (cmd/synthlog's logs: job_id,
// submit_time, user, input_bytes, shuffle_bytes, output_bytes), and checks
// what describe checks before it prints (job ids unique): jobs, first and
// last submit time, span, arrival rate, the sizes (input + (1 + d/n)·shuffle
// + output bytes with d/n = 4, normalised to a load of 0.9 over the span as
// estimate.FinishWeights does), their total, mean, p50 / p90 / p99 / max,
// zero-size jobs, the share of work in the largest 1% of jobs, users and
// the 10 largest. The anchor of `make bench-describe`.
//
// Usage: node scripts/duckdb-describe.mjs LOG.parquet [THREADS [noids]]
// noids skips the check of the job ids (DuckDB's count(DISTINCT job_id)),
// which describe makes, and does not read the job_id column at all: DuckDB
// then does less than describe (which also checks every value and the
// submit order, and sorts every size for its exact mean and quantiles).
// Needs the npm package @duckdb/node-api (scripts/deps.sh --duckdb installs
// it into $SCHEDPLAN_NODE_MODULES); run it with NODE_PATH pointing there.
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const dirs = (process.env.NODE_PATH || "").split(path.delimiter).filter(Boolean);
const { DuckDBInstance } = require(require.resolve("@duckdb/node-api", { paths: [...dirs, process.cwd()] }));

const [file, threads = "2", noids] = process.argv.slice(2);
if (!file) {
  console.error("usage: node duckdb-describe.mjs LOG.parquet [THREADS]");
  process.exit(2);
}
const db = await DuckDBInstance.create(":memory:", { threads: String(threads) });
const con = await db.connect();
const src = `read_parquet('${file.replaceAll("'", "''")}')`;
const one = async (sql) => (await con.runAndReadAll(sql)).getRowObjectsJS();

// One scan: the sizes' statistics are taken before normalising (the
// normalisation multiplies every size by one factor).
const w = "input_bytes::DOUBLE + 5 * shuffle_bytes::DOUBLE + output_bytes::DOUBLE";
const [s] = await one(`SELECT count(*)::BIGINT AS n, ${noids === "noids" ? "count(*)" : "count(DISTINCT job_id)"}::BIGINT AS ids,
  min(submit_time) AS first, max(submit_time) AS last,
  sum(w) AS total, avg(w) AS mean, quantile_disc(w, [0.5, 0.9, 0.99]) AS q, max(w) AS max,
  count(*) FILTER (WHERE w = 0)::BIGINT AS zero, list_sum(max(w, (SELECT ceil(count(*) / 100)::BIGINT FROM ${src}))) AS top,
  histogram("user") AS users
  FROM (SELECT ${noids === "noids" ? "" : "job_id, "}submit_time, "user", ${w} AS w FROM ${src})`);
const n = Number(s.n);
if (Number(s.ids) !== n) {
  console.error(`${file}: ${n - Number(s.ids)} repeated job ids`);
  process.exit(1);
}
const span = s.last - s.first;
const duration = s.first < span ? s.last : span; // estimate.Duration
const mult = (0.9 * duration) / s.total;
const q = { total: s.total * mult, mean: s.mean * mult, q: s.q.map((v) => v * mult), max: s.max * mult, zero: s.zero };
const top = { top: s.top * mult };
const users = Object.entries(s.users).map(([user, jobs]) => ({ user, jobs: Number(jobs) }))
  .sort((a, b) => b.jobs - a.jobs || (a.user < b.user ? -1 : 1));
s.users = users.length;
users.length = Math.min(users.length, 10);
const g = (v) => Number(v).toPrecision(4);
console.log(`jobs                        ${n}`);
console.log(`submit times                ${s.first} s .. ${s.last} s (span ${span} s)`);
console.log(`arrival rate                ${g(n / span)} jobs/s`);
console.log(`total work                  ${g(q.total)}`);
console.log(`size mean                   ${g(q.mean)}`);
console.log(`size p50 / p90 / p99 / max  ${q.q.map(g).join(" / ")} / ${g(q.max)}`);
console.log(`zero-size jobs              ${q.zero}`);
console.log(`work in largest 1% of jobs  ${((100 * top.top) / q.total).toFixed(1)}%`);
console.log(`users                       ${s.users}`);
for (const u of users) console.log(`  ${u.user} ${u.jobs}`);
