package data

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

func writeBytes(t testing.TB, j *Jobs, f Format) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, j, f); err != nil {
		t.Fatalf("write %s: %v", f, err)
	}
	return b.Bytes()
}

func readBack(t testing.TB, b []byte, f Format) *Jobs {
	t.Helper()
	j, err := ReadBytes(b, "mem."+string(f), ReadOptions{Format: f, Strict: true})
	if err != nil {
		t.Fatalf("read %s: %v", f, err)
	}
	return j
}

var fullFormats = []Format{FormatParquet, FormatArrow, FormatArrowStream, FormatCSV}

// TestRoundTripRandom writes random tables with every column (with and
// without nulls) in each format and reads them back bit for bit; then
// chains the formats Parquet → Arrow → CSV → Arrow stream → Parquet.
func TestRoundTripRandom(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		for _, nulls := range []bool{false, true} {
			rng := rand.New(rand.NewPCG(seed, 99))
			in := randomJobs(rng, 1+rng.IntN(3000), nulls)
			for _, f := range fullFormats {
				out := readBack(t, writeBytes(t, in, f), f)
				if d := diffJobs(in, out, nil); d != "" {
					t.Fatalf("seed %d nulls %v %s: %s", seed, nulls, f, d)
				}
			}
			cur := in
			for _, f := range []Format{FormatParquet, FormatArrow, FormatCSV, FormatArrowStream, FormatParquet} {
				cur = readBack(t, writeBytes(t, cur, f), f)
			}
			if d := diffJobs(in, cur, nil); d != "" {
				t.Fatalf("seed %d nulls %v chain: %s", seed, nulls, d)
			}
			// TSV carries job id, submit time and bytes (nulls as 0).
			if !nulls {
				out := readBack(t, writeBytes(t, cur, FormatTSV), FormatTSV)
				if d := diffJobs(in, out, tsvCanonical); d != "" {
					t.Fatalf("seed %d tsv: %s", seed, d)
				}
			}
		}
	}
}

var tsvCanonical = []string{ColJobID, ColSubmit, ColInputBytes, ColShuffleBytes, ColOutputBytes}

// TestRoundTripEmbedded takes the shipped trace through every format and
// back to SWIM .tsv, which must reproduce the embedded file byte for byte.
func TestRoundTripEmbedded(t *testing.T) {
	orig, err := traceFS.ReadFile(embeddedTraces[DefaultTrace])
	if err != nil {
		t.Fatal(err)
	}
	in := mustOpen(t, "embedded")
	if got := writeBytes(t, in, FormatTSV); !bytes.Equal(got, orig) {
		t.Fatalf("embedded trace does not survive TSV → TSV: %d bytes vs %d", len(got), len(orig))
	}
	cur := in
	for _, f := range []Format{FormatParquet, FormatArrow, FormatArrowStream, FormatCSV, FormatParquet, FormatTSV} {
		cur = readBack(t, writeBytes(t, cur, f), f)
		if d := diffJobs(in, cur, tsvCanonical); d != "" {
			t.Fatalf("after %s: %s", f, d)
		}
	}
	if got := writeBytes(t, cur, FormatTSV); !bytes.Equal(got, orig) {
		t.Fatal("embedded trace changed on its way through Parquet, Arrow and CSV")
	}
}
