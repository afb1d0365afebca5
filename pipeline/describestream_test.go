package pipeline

import (
	"errors"
	"io"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline/inputs"
)

// describeWhole is DescribeLog's reference: the log read whole.
func describeWhole(t *testing.T, spec string) (inputs.Workload, error) {
	t.Helper()
	var columns *data.ColumnReport
	j, err := data.Open(spec, data.ReadOptions{Columns: func(r *data.ColumnReport) { columns = r }})
	if err != nil {
		return inputs.Workload{}, err
	}
	sizes, src, err := estimate.Sizes(j, estimate.DefaultSizeOptions())
	if err != nil {
		return inputs.Workload{}, err
	}
	w := inputs.Describe(j, sizes, src)
	w.Columns = columns
	return w, nil
}

func writeGroups(t *testing.T, j *data.Jobs, rows int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "log.parquet")
	if err := data.WriteFileAtomic(path, true, func(w io.Writer) error { return data.WriteParquetGroups(w, j, rows) }); err != nil {
		t.Fatal(err)
	}
	return path
}

// A Parquet log scanned a row group at a time is described exactly as the
// log read whole; a log the scan refuses gives the whole read's answer.
func TestDescribeLogMatchesWholeRead(t *testing.T) {
	observed := synthJobs(3000, 2)
	observed.Start.Values = make([]float64, 3000)
	observed.Finish.Values = make([]float64, 3000)
	observed.Finish.Valid = data.NewBitmap(3000)
	for i := range observed.Submit {
		observed.Start.Values[i] = observed.Submit[i] + float64(i%7)
		observed.Finish.Values[i] = observed.Start.Values[i] + float64(i%13)
		if i%5 == 0 {
			observed.Finish.Valid.SetNull(i)
			observed.Finish.Values[i] = 0
		}
	}
	unsorted := synthJobs(2000, 3)
	unsorted.Submit[0], unsorted.Submit[1999] = unsorted.Submit[1999], unsorted.Submit[0]
	dup := synthJobs(2000, 4)
	dup.ID = data.Strings{}
	for i := 0; i < 2000; i++ {
		id := "j" + string(rune('a'+i%26)) + itoa(i)
		if i == 1500 {
			id = "ja0" // job 0's id, in another row group
		}
		dup.ID.Append(id)
	}
	sized := synthJobs(2000, 5)
	sized.Size.Values = make([]float64, 2000)
	for i := range sized.Size.Values {
		sized.Size.Values[i] = float64(i % 50)
	}
	for _, c := range []struct {
		name  string
		spec  string
		scans bool
	}{
		{"bytes, many row groups", writeGroups(t, synthJobs(5000, 1), 700), true},
		{"one row group", writeGroups(t, synthJobs(5000, 1), 1<<20), true},
		{"observed times", writeGroups(t, observed, 512), true},
		{"explicit sizes", writeGroups(t, sized, 300), true},
		{"unsorted across row groups", writeGroups(t, unsorted, 500), false},
		{"duplicate id across row groups", writeGroups(t, dup, 500), false},
		{"embedded", "embedded", false},
	} {
		if _, err := inputs.DescribeScan(c.spec, data.ReadOptions{}, estimate.DefaultSizeOptions()); (err == nil) != c.scans {
			t.Errorf("%s: scan error %v, want scanned %v", c.name, err, c.scans)
		}
		got, err := inputs.DescribeLog(inputs.InputOptions{Trace: c.spec}, estimate.DefaultSizeOptions())
		want, wantErr := describeWhole(t, c.spec)
		if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
			t.Errorf("%s: error %v, whole read's %v", c.name, err, wantErr)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: scanned\n%+v\nwhole\n%+v", c.name, got, want)
		}
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

// The scan hands over every row group in order, and the parts are the
// table Open reads; unsorted logs and duplicate ids are refused.
func TestScanParquetParts(t *testing.T) {
	j := synthJobs(2500, 6)
	path := writeGroups(t, j, 1000)
	whole, err := data.Open(path, data.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var firsts []int
	var ids []string
	var submit []float64
	err = data.ScanParquet(path, data.ReadOptions{}, func(part *data.Jobs, first, _ int) error {
		firsts = append(firsts, first)
		for i := 0; i < part.Len(); i++ {
			ids = append(ids, part.ID.At(i))
		}
		submit = append(submit, part.Submit...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(firsts, []int{0, 1000, 2000}) {
		t.Errorf("parts start at %v", firsts)
	}
	var wantIDs []string
	for i := 0; i < whole.Len(); i++ {
		wantIDs = append(wantIDs, whole.ID.At(i))
	}
	if !reflect.DeepEqual(ids, wantIDs) || !reflect.DeepEqual(submit, whole.Submit) {
		t.Error("parts differ from the whole table")
	}
	stop := errors.New("stop")
	if err := data.ScanParquet(path, data.ReadOptions{}, func(*data.Jobs, int, int) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("f's error: got %v", err)
	}
	j.ID.Offsets, j.ID.Data = nil, nil
	for i := 0; i < 2500; i++ {
		j.ID.Append("same" + itoa(i%2000))
	}
	if err := data.ScanParquet(writeGroups(t, j, 1000), data.ReadOptions{}, func(*data.Jobs, int, int) error { return nil }); !errors.Is(err, data.ErrNotScannable) {
		t.Errorf("duplicate ids: got %v", err)
	}
}
