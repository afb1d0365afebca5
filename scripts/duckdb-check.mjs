// duckdb-check.mjs reads schedplan's Parquet outputs with DuckDB (an
// independent Parquet reader) and computes avg() over every numeric column
// of every file; it fails when an average is NaN (a NaN written where NULL
// belongs) or a file cannot be read. Issue 26's acceptance check.
//
// Usage: node scripts/duckdb-check.mjs FILE.parquet...
// Needs the npm package @duckdb/node-api (scripts/deps.sh --duckdb installs
// it into $SCHEDPLAN_NODE_MODULES, default ~/.cache/schedplan-node); run it
// with NODE_PATH pointing there, or from a folder where it is installed.
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const dirs = (process.env.NODE_PATH || "").split(path.delimiter).filter(Boolean);
const { DuckDBInstance } = require(require.resolve("@duckdb/node-api", { paths: [...dirs, process.cwd()] }));

const numeric = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|FLOAT|DOUBLE|DECIMAL.*)$/;
const quoteIdent = (s) => '"' + s.replaceAll('"', '""') + '"';
const quoteStr = (s) => "'" + s.replaceAll("'", "''") + "'";

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: node duckdb-check.mjs FILE.parquet...");
  process.exit(2);
}
const db = await DuckDBInstance.create(":memory:");
const con = await db.connect();
let bad = 0;
for (const f of files) {
  const src = `read_parquet(${quoteStr(f)})`;
  const cols = (await con.runAndReadAll(`DESCRIBE SELECT * FROM ${src}`)).getRowObjectsJS();
  const nums = cols.filter((c) => numeric.test(String(c.column_type)));
  if (nums.length === 0) {
    console.log(`${f}: no numeric column`);
    continue;
  }
  const sql = `SELECT ${nums.map((c) => `avg(${quoteIdent(c.column_name)})::DOUBLE AS ${quoteIdent(c.column_name)}`).join(", ")} FROM ${src}`;
  const [row] = (await con.runAndReadAll(sql)).getRowObjectsJS();
  for (const c of nums) {
    const v = row[c.column_name];
    const shown = v === null ? "NULL" : String(v);
    if (typeof v === "number" && Number.isNaN(v)) {
      console.log(`${f}: avg(${c.column_name}) = NaN`);
      bad++;
    } else {
      console.log(`${f}: avg(${c.column_name}) = ${shown}`);
    }
  }
}
if (bad > 0) {
  console.error(`${bad} column average(s) are NaN`);
  process.exit(1);
}
