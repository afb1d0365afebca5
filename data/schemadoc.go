package data

import (
	"fmt"
	"strings"
)

// SchemaMarkdown returns docs/formats.md: the input schema of a jobs table
// as the readers apply it, generated from ColumnSpecs, StateColumns,
// FailedStates, KnownIgnored and the SWIM .tsv layout (tsvColumns), so
// that the document cannot drift from the code (TestFormatsDoc).
func SchemaMarkdown() string {
	var b strings.Builder
	b.WriteString(`# Input formats

<!-- Generated from data.SchemaMarkdown (data/schemadoc.go); regenerate with
     go test ./data -run TestFormatsDoc -update -->

schedplan reads a **jobs table** — CSV with a header row, Parquet, Arrow IPC
(file or stream), SWIM .tsv — or another system's log, which its readers
turn into a jobs table (` + "`schedplan convert`" + ` writes it; ` + "`--format`" + ` names
one of ` + strings.Join(logFormatNames(), ", ") + `; see README.md).
` + "`schedplan describe`" + ` and ` + "`schedplan run`" + ` report, for a jobs table, every column
as used (as which column, for what) or ignored (why).

## Columns of a jobs table

Column names are matched exactly; ` + "`--map CANONICAL=NAME[:unit]`" + ` reads a column
of another name (and a time column in ms, us or ns).

| column | type | required | what schedplan does with it |
|---|---|---|---|
`)
	for _, c := range ColumnSpecs {
		req := "no"
		if c.Required {
			req = "yes"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", c.Name, c.Type, req, c.Use)
	}
	b.WriteString(`
A job needs a size: the ` + "`size`" + ` column, else ` + "`map_task_seconds + reduce_task_seconds`" + `,
else the three byte columns; a column of a lower rank is read and kept but
reported as not the size.

## Failed and killed jobs

The state column is the first of these the table has (names compared
without case; ` + "`--map state=NAME`" + ` names another): ` + codeList(StateColumns) + `.
A job whose state is one of ` + codeList(FailedStates) + ` (without case) is
**dropped by default** and counted in the report; ` + "`--keep-failed`" + ` keeps it.
Any other state (SUCCEEDED, FINISHED, …), and an empty one, keeps the job.
` + "`--keep-failed`" + ` on a jobs table without a state column is an error.

## Columns ignored, and why

Any other column is ignored and reported. These are the ones real logs
carry most (names compared without case):

| column | why it is ignored |
|---|---|
`)
	for _, c := range KnownIgnored {
		fmt.Fprintf(&b, "| `%s` | %s |\n", c.Name, c.Why)
	}
	b.WriteString(`
## SWIM .tsv

No header; tab-separated. Six columns, or nine in SWIM's traces with paths
(…_withInputPaths_N.tsv: the input path, the output path, each possibly
empty, and an empty field after the last tab):

| field | column |
|---|---|
`)
	for k, c := range tsvColumns[:TSVMaxFields-1] {
		fmt.Fprintf(&b, "| %d | `%s` |\n", k+1, c)
	}
	b.WriteString(`
A file without the .tsv extension is recognised by its content.

## Parquet and Arrow

Parquet pages may use any encoding of format 2 and the codecs Snappy, Gzip,
Brotli, Zstd, LZ4_RAW and (deprecated) LZ4; a page whose header carries a
CRC-32 is checked against it. Nothing can tell a flipped byte in a page
without a CRC, nor in an Arrow IPC file, which has no checksums.

## Numbers in the CSV schedplan writes

Jobs and tasks tables written as CSV or TSV (` + "`schedplan convert`" + `, a
log reader's tasks table) write every float as the shortest decimal that
parses back to the same value (Go's strconv, precision −1; a float32
column's value as that float32: 2.097, not 2.0970001220703125), as a plain
decimal wherever one fits — 0 and 10⁻⁶ ≤ |v| < 10²¹, the range of
ECMAScript's Number::toString —, so that a spreadsheet reads an epoch time
as 1700000003.5, not 1.7000000035e+09; an exponent only outside it (1e-07,
1e+21). Missing values are empty fields.
`)
	return b.String()
}

func codeList(names []string) string {
	q := make([]string, len(names))
	for k, n := range names {
		q[k] = "`" + n + "`"
	}
	return strings.Join(q, ", ")
}

func logFormatNames() []string {
	names := make([]string, len(logFormats))
	for k, f := range LogFormats() {
		names[k] = "`" + string(f) + "`"
	}
	return names
}
