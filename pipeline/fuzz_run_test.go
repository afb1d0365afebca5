package pipeline

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Extreme values the fuzzed logs draw from (issue 10: "values drawn from
// extremes: 0, tiny, huge, NaN-adjacent, duplicate times"). The valid ones
// come first; a byte of 255 picks the last entry, which the reader must
// refuse.
var (
	fuzzSizes = []string{"1", "3", "0.5", "10", "100", "7", "1e4", "0", "1e-9", "5e-324", "1e-300", "1e6", "1e12",
		"1e305", "1e307", "1.7976931348623157e308", "-0", "NaN"}
	fuzzBytes = []string{"1024", "1048576", "1e9", "5e6", "0", "1", "1e12", "9223372036854775807", "18446744073709551615"}
	fuzzPrios = []string{"1", "0", "2", "-5", "2147483647", "-2147483648", "9223372036854775807"}
)

// pick chooses from a table: 255 picks its last (invalid) entry, any other
// byte one of the others.
func pick(table []string, v int) string {
	if v%256 == 255 {
		return table[len(table)-1]
	}
	return table[v%(len(table)-1)]
}

// fuzzLog builds a CSV log of n jobs from the fuzzer's bytes: every job
// takes an arrival step, a size (or bytes) and a user from them.
func fuzzLog(n int, b []byte, withBytes bool) string {
	next := func(i int) int {
		if len(b) == 0 {
			return i % 5
		}
		return int(b[i%len(b)])
	}
	var sb strings.Builder
	if withBytes {
		sb.WriteString("job_id,submit_time,user,priority,input_bytes,shuffle_bytes,output_bytes\n")
	} else {
		sb.WriteString("job_id,submit_time,user,priority,size\n")
	}
	t := 0.0
	if len(b) > 0 {
		switch b[0] % 4 {
		case 1:
			t = 1.7e9
		case 2:
			t = 1e15
		case 3:
			t = 1e7
		}
	}
	for i := range n {
		v := next(3*i + 1)
		switch v % 8 {
		case 0: // duplicate time
		case 1:
			t = math.Nextafter(t, math.Inf(1))
		case 2:
			t += 1e-9
		case 3:
			t += 1
		case 4:
			t += 60
		case 5:
			t += 3600
		default:
			t += float64(v % 97)
		}
		fmt.Fprintf(&sb, "j%d,%s,u%d,%s", i, strconvG(t), next(3*i+2)%4, pick(fuzzPrios, next(3*i)))
		if withBytes {
			for k := range 3 {
				fmt.Fprintf(&sb, ",%s", pick(fuzzBytes, next(3*i+k)+k))
			}
		} else {
			fmt.Fprintf(&sb, ",%s", pick(fuzzSizes, next(3*i+2)))
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

func strconvG(v float64) string { return fmt.Sprintf("%.17g", v) }

// fuzzRunTimeout bounds one end-to-end run: a run that does not finish in
// it is a hang (issue 10: "no input hangs").
const fuzzRunTimeout = 60 * time.Second

// FuzzRun drives pipeline.Run end to end on small generated logs. A run may
// refuse its input with an error; it must not panic or hang, and every XML
// file it emits must parse.
func FuzzRun(f *testing.F) {
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	f.Cleanup(func() { slog.SetDefault(prev) })
	for _, s := range []struct {
		n     uint8
		b     []byte
		bytes bool
	}{
		{20, []byte{0, 4, 5, 6, 7, 3}, false},
		{30, []byte{1, 4, 5, 6, 7, 3, 9, 10}, false},           // epoch times
		{25, []byte{2, 3, 3, 3, 8, 8}, false},                  // near 1e15
		{40, []byte{0, 0, 0, 0, 1, 1, 2}, false},               // duplicate and adjacent times
		{30, []byte{3, 4, 12, 13, 14, 4, 5}, false},            // huge sizes
		{30, []byte{0, 4, 5, 6, 7, 8, 9, 10, 11}, true},        // bytes
		{12, []byte{1, 5, 6, 7, 2, 3, 4, 5, 6, 7, 8, 9}, true}, // int64-max bytes
		{3, nil, false},
	} {
		f.Add(s.n, s.b, s.bytes)
	}
	f.Fuzz(func(t *testing.T, n uint8, b []byte, withBytes bool) {
		n = 2 + n%48
		dir := t.TempDir()
		path := filepath.Join(dir, "log.csv")
		if err := os.WriteFile(path, []byte(fuzzLog(int(n), b, withBytes)), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "out")
		type result struct {
			err      error
			panicked any
		}
		done := make(chan result, 1)
		go func() {
			p, err := runCaught(fastConfig(path), out)
			done <- result{err, p}
		}()
		var r result
		select {
		case r = <-done:
		case <-time.After(fuzzRunTimeout):
			log, _ := os.ReadFile(path)
			t.Fatalf("run did not finish in %v on:\n%s", fuzzRunTimeout, log)
		}
		if r.panicked != nil {
			log, _ := os.ReadFile(path)
			t.Fatalf("panic: %v\non:\n%s", r.panicked, log)
		}
		if r.err != nil {
			t.Logf("refused: %v", r.err)
			return // refused: fine, as long as it is an error
		}
		xmls, _ := filepath.Glob(filepath.Join(out, "*.xml"))
		if len(xmls) == 0 {
			t.Fatal("a successful run emitted no XML")
		}
		for _, p := range xmls {
			if err := parseXML(p); err != nil {
				log, _ := os.ReadFile(path)
				t.Fatalf("%s does not parse: %v\non:\n%s", filepath.Base(p), err, log)
			}
		}
	})
}

// parseXML reads every token of an XML file.
func parseXML(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	d := xml.NewDecoder(bytes.NewReader(b))
	for {
		_, err := d.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
