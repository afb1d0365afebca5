package pipeline

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/pipeline/inputs"
)

// ConvertFormats are the output formats of Convert.
var ConvertFormats = []data.Format{data.FormatParquet, data.FormatArrow, data.FormatArrowStream, data.FormatCSV, data.FormatTSV}

// ConvertFormatNames lists ConvertFormats, comma-separated.
func ConvertFormatNames() string {
	names := make([]string, len(ConvertFormats))
	for k, f := range ConvertFormats {
		names[k] = string(f)
	}
	return strings.Join(names, ", ")
}

// ConvertOptions are `schedplan convert`'s: the input (Trace, Read), the
// output and its format (To, else from Out's extension), where to write
// the log's tasks table ("": nowhere) and whether existing outputs are
// replaced.
type ConvertOptions struct {
	Trace    string
	Read     data.ReadOptions
	Out, To  string
	TasksOut string
	Force    bool
}

// Convert reads a job log, or another system's log, and writes it in the
// canonical schema (and its tasks to TasksOut), printing to w what it
// read, dropped and wrote. Every output is written whole (temporary file,
// then rename); the input is never an output. A log is read under a soft
// memory limit (data.SoftMemoryLimit, unless GOMEMLIMIT is set).
func Convert(o ConvertOptions, w io.Writer) error {
	if o.Out == "" {
		return fmt.Errorf("--out is required")
	}
	f, err := OutputFormat(o.Out, o.To)
	if err != nil {
		return err
	}
	outs := []struct{ flag, path string }{{"--out", o.Out}, {"--tasks", o.TasksOut}}
	for _, out := range outs {
		if out.path == "" {
			continue
		}
		if err := notTheInput(o.Trace, out.path); err != nil {
			return err
		}
		if err := CheckOutPath(out.flag, out.path, o.Force); err != nil {
			return err
		}
	}
	if rf, err := data.ResolveFormat(o.Trace, o.Read.Format); err == nil {
		o.Read.Format = rf // detected once: ReadInput reads it as given
	}
	isLog := data.IsLogFormat(o.Read.Format)
	if !isLog && o.TasksOut != "" {
		return fmt.Errorf("--tasks: the input is a job log without tasks; --tasks writes the tasks of a log (--format %s)", inputs.LogFormatNames())
	}
	if isLog && os.Getenv("GOMEMLIMIT") == "" {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(data.SoftMemoryLimit))
	}
	in, err := inputs.ReadInput(inputs.InputOptions{Trace: o.Trace, Read: o.Read})
	if in != nil && in.Log != nil {
		fmt.Fprintln(w, in.Log.String())
	}
	if err != nil {
		return err
	}
	for _, out := range outs {
		if out.path != "" {
			if err := MakeOutDir(out.flag, filepath.Dir(out.path)); err != nil {
				return err
			}
		}
	}
	if o.TasksOut != "" {
		if in.Tasks == nil {
			return fmt.Errorf("--tasks: this %s log has no tasks", in.Log.Format)
		}
		if err := data.WriteTasksFile(o.TasksOut, o.Force, in.Tasks); err != nil {
			return destError(o.TasksOut, err)
		}
		fmt.Fprintf(w, "wrote %d tasks to %s\n", in.Tasks.Len(), o.TasksOut)
	}
	if f == data.FormatTSV {
		warnTSVLoss(in.Jobs)
	}
	if err := data.WriteFileAtomic(o.Out, o.Force, func(out io.Writer) error { return data.Write(out, in.Jobs, f) }); err != nil {
		return destError(o.Out, err)
	}
	size := int64(0)
	if st, err := os.Stat(o.Out); err == nil {
		size = st.Size()
	}
	fmt.Fprintf(w, "wrote %d jobs to %s (%s, %d bytes)\n", in.Jobs.Len(), o.Out, f, size)
	return nil
}

// OutputFormat resolves --to, or the output's extension when --to is
// empty.
func OutputFormat(out, to string) (data.Format, error) {
	if to == "" {
		f, err := data.FormatOf(out)
		if err != nil {
			return "", fmt.Errorf("%w (or pass --to)", err)
		}
		return f, nil
	}
	for _, f := range ConvertFormats {
		if data.Format(to) == f {
			return f, nil
		}
	}
	return "", fmt.Errorf("--to: unknown format %q", to)
}

// notTheInput refuses an output that is the input file itself.
func notTheInput(trace, out string) error {
	if trace == "embedded" || strings.HasPrefix(trace, "embedded:") {
		return nil
	}
	ai, err1 := os.Stat(trace)
	bi, err2 := os.Stat(out)
	if err1 == nil && err2 == nil && os.SameFile(ai, bi) {
		return fmt.Errorf("--out %s is the input file; convert never modifies its input", out)
	}
	a, _ := filepath.Abs(trace)
	b, _ := filepath.Abs(out)
	if a == b {
		return fmt.Errorf("--out %s is the input file; convert never modifies its input", out)
	}
	return nil
}

// warnTSVLoss warns about what SWIM .tsv cannot hold.
func warnTSVLoss(j *data.Jobs) {
	var dropped []string
	for _, c := range data.Columns {
		switch c {
		case data.ColJobID, data.ColSubmit, data.ColInputBytes, data.ColShuffleBytes, data.ColOutputBytes:
			continue
		}
		if j.Present(c) {
			dropped = append(dropped, c)
		}
	}
	if len(dropped) > 0 {
		slog.Warn("SWIM .tsv has no place for some columns; they are dropped", "columns", strings.Join(dropped, ","))
	}
	nulls := 0
	for _, c := range []*data.Column[int64]{&j.InputBytes, &j.ShuffleBytes, &j.OutputBytes} {
		nulls += c.Valid.Nulls(len(c.Values))
	}
	if nulls > 0 || !j.InputBytes.Present() || !j.ShuffleBytes.Present() || !j.OutputBytes.Present() {
		slog.Warn("SWIM .tsv needs all three byte counts; missing or null ones are written as 0", "null values", nulls)
	}
}
