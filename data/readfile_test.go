package data

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/schedplan/schedplan/data/internal/colfile"
	"github.com/schedplan/schedplan/internal/sysmem"
)

// sparseFile creates a file of size bytes holding head at its start and tail
// at its end, zeros (not stored on disk) between.
func sparseFile(t *testing.T, name string, size int64, head, tail []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(head, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(tail, size-int64(len(tail))); err != nil {
		t.Fatal(err)
	}
	return p
}

// allocated returns the bytes allocated by fn.
func allocated(fn func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	fn()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestReadFileChecksBeforeReading checks that a large file that is not what
// its name says, or whose Parquet footer cannot fit in it, is refused from
// its first and last bytes, without being read whole (issue 10: "a 3 GB
// file is read whole before its magic is checked").
func TestReadFileChecksBeforeReading(t *testing.T) {
	const size = 1 << 30
	footer := append([]byte{0xff, 0xff, 0xff, 0x7f}, colfile.ParquetMagic...) // declares 2 GiB
	for _, tc := range []struct {
		name       string
		head, tail []byte
		msg        string
	}{
		{"zeros.parquet", nil, nil, "not a Parquet file (no PAR1 magic at the start)"},
		{"cut.parquet", colfile.ParquetMagic, []byte("xx"), "no PAR1 magic at the end"},
		{"footer.parquet", colfile.ParquetMagic, footer, "the footer declares 2147483647 bytes, the file holds 1073741824"},
		{"zeros.arrow", nil, nil, "neither an Arrow IPC file"},
		{"zeros.csv", []byte("job_id,submit_time\n"), nil, "line longer than 1 MiB"},
		{"zeros.tsv", nil, nil, "longer than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := sparseFile(t, tc.name, size, tc.head, tc.tail)
			var err error
			n := allocated(func() { _, err = ReadFile(p, ReadOptions{}) })
			if err == nil {
				t.Fatal("accepted")
			}
			checkInputError(t, err, p, rowOf(err), "", tc.msg)
			if n > 64<<20 {
				t.Errorf("allocated %d MiB to refuse a %d MiB file", n>>20, size>>20)
			}
			if f, _ := FormatOf(p); f == FormatParquet || f == FormatArrow { // results files too
				n = allocated(func() { _, err = ReadTable(p, "") })
				if err == nil || !strings.Contains(err.Error(), tc.msg) || n > 64<<20 {
					t.Errorf("ReadTable: %v, allocated %d MiB", err, n>>20)
				}
			}
		})
	}
}

// TestReadFileMemoryBudget checks that a file whose decoding needs more
// memory than is available is refused with the estimate in the message.
func TestReadFileMemoryBudget(t *testing.T) {
	old := sysmem.Available
	t.Cleanup(func() { sysmem.Available = old })
	dir := t.TempDir()
	j := v2Source(3000)
	for _, f := range []Format{FormatParquet, FormatArrow, FormatCSV, FormatTSV} {
		p := filepath.Join(dir, "jobs."+string(f))
		var b bytes.Buffer
		if err := Write(&b, j, f); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		sysmem.Available = func() int64 { return 64 << 10 }
		_, err := ReadFile(p, ReadOptions{})
		checkInputError(t, err, p, 0, "", "needs about")
		checkInputError(t, err, p, 0, "", "64 KiB available")
		t.Log(err)
		sysmem.Available = func() int64 { return 1 << 30 }
		if _, err := ReadFile(p, ReadOptions{}); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestStuckDecoderStops checks that a Parquet file on which arrow-go's page
// reader loops forever (found by FuzzReadColumnar) is reported as corrupt
// after the time budget, and that the stuck decoding goroutine then ends
// instead of spinning for the rest of the process.
func TestStuckDecoderStops(t *testing.T) {
	raw, err := os.ReadFile("testdata/fuzz/FuzzReadColumnar/87210234a8101283")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n") // go test fuzz v1, []byte("..."), byte(...)
	b, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")"))
	if err != nil {
		t.Fatal(err)
	}
	old := colfile.DecodeBudget
	colfile.DecodeBudget = time.Second
	t.Cleanup(func() { colfile.DecodeBudget = old })
	before := runtime.NumGoroutine()
	_, err = ReadBytes([]byte(b), "stuck.parquet", ReadOptions{Format: FormatParquet})
	checkInputError(t, err, "stuck.parquet", 0, "", "did not finish in 1s")
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after the time-out, %d before: the decoder still runs", n, before)
	}
}

// A device is refused at once, naming it: /dev/zero never ends, and was
// read until memory ran out (a signal then had gigabytes to unmap).
func TestReadFileRefusesDevice(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	for _, f := range []Format{FormatCSV, FormatArrow, FormatParquet, FormatTSV} {
		_, err := ReadFile("/dev/zero", ReadOptions{Format: f})
		if err == nil || !strings.Contains(err.Error(), "/dev/zero") || !strings.Contains(err.Error(), "device") {
			t.Errorf("%s: %v, want a device error naming /dev/zero", f, err)
		}
	}
}
