package data

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/schedplan/schedplan/data/internal/compress"
)

// This file holds the one table of log formats, which the readers of
// other systems' logs (data/spark, data/swf, …) fill and DetectFormat,
// ReadLog and ReadFile consult, and the detection of a path's format.

// LogFormat is an entry of the table of log formats: the reader of one
// other system's log and what tells its files apart. Package data/logs
// registers the entries, in the order --format and docs/formats.md list
// them.
type LogFormat struct {
	// Name is the format's --format name.
	Name Format
	// Ext lists the file-name extensions (".jhist") that name the format
	// whatever the content.
	Ext []string
	// Deep: a file with one of Ext anywhere under a directory names the
	// format (MapReduce's done/ tree of job history files).
	Deep bool
	// DirName reports whether a directory's own name shows the format;
	// DirEntry whether the name of an entry of the directory does. Either
	// may be nil.
	DirName, DirEntry func(name string) bool
	// Sniff reports whether the start of a file holds the format's
	// markers; Guess whether the shape of its first line is the format's.
	// Guess is asked only when no format's markers match and the content
	// is neither JSON nor a SWIM .tsv. Either may be nil.
	Sniff, Guess func(h *Head) bool
	// Read reads path (a file or a directory), or src when it is not nil
	// (one file's content, named path), decompressing it. The Log's jobs
	// are as read: ReadLog drops duplicate ids and jobs without a size,
	// fills task counts from the tasks, then sorts and validates.
	Read func(path string, src io.Reader, opt *ReadOptions) (*Log, error)
}

// logFormats is the table, in registration order.
var logFormats []*LogFormat

// RegisterLogFormat adds f to the table of log formats; a second format
// of the same name panics. Package data/logs registers every reader.
func RegisterLogFormat(f LogFormat) {
	if lookupLogFormat(f.Name) != nil || f.Name == "" || f.Read == nil {
		panic(fmt.Sprintf("data: log format %q registered twice, or without a name or reader", f.Name))
	}
	logFormats = append(logFormats, &f)
}

func lookupLogFormat(name Format) *LogFormat {
	for _, f := range logFormats {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// LogFormats lists the log formats, in the order the README shows them.
func LogFormats() []Format {
	names := make([]Format, len(logFormats))
	for k, f := range logFormats {
		names[k] = f.Name
	}
	return names
}

// IsLogFormat reports whether f is one of LogFormats.
func IsLogFormat(f Format) bool {
	return lookupLogFormat(f) != nil
}

// ResolveFormat returns the format Open reads spec as: f when it is given,
// a SWIM .tsv for an embedded trace, else the format ReadFile tells from
// the path's name and content. It consults the table of log formats once;
// passed on as ReadOptions.Format, the result spares Open, ReadFile and
// ReadLog detecting it again. An error is the one Open would return.
func ResolveFormat(spec string, f Format) (Format, error) {
	switch {
	case f != "":
		return f, nil
	case spec == "embedded" || strings.HasPrefix(spec, "embedded:"):
		return FormatTSV, nil
	}
	return resolveFormat(spec)
}

// resolveFormat is ReadFile's choice of a format for path: Parquet and
// Arrow by name (never logs), a log format told by the content (or the
// names of a directory's files), else CSV or .tsv by name, else a SWIM .tsv
// told by its content (SWIM's own traces, …_withInputPaths_0, have no
// extension).
func resolveFormat(path string) (Format, error) {
	byName, nameErr := FormatOf(path)
	if nameErr == nil && byName != FormatCSV && byName != FormatTSV {
		return byName, nil
	}
	d, derr := DetectFormat(path)
	switch {
	case derr == nil && IsLogFormat(d):
		return d, nil
	case nameErr == nil:
		return byName, nil
	case derr == nil && d == FormatTSV:
		if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
			return FormatTSV, nil
		}
	}
	return "", nameErr
}

// errNotDetected is returned by DetectFormat for content it cannot place.
var errNotDetected = errors.New("cannot tell the log format from the content")

// DetectFormat tells a job log's format: the canonical formats from the
// file name (FormatOf), the log formats from the file name or the first
// kilobytes of the content (decompressed), and for a directory from the
// names and content of its files.
func DetectFormat(path string) (Format, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if st.IsDir() {
		return detectDir(path)
	}
	byName, nameErr := FormatOf(path)
	ext := strings.ToLower(filepath.Ext(path))
	for _, f := range logFormats {
		if slices.Contains(f.Ext, ext) {
			return f.Name, nil
		}
	}
	switch ext {
	case ".parquet", ".pq", ".arrow", ".ipc", ".feather", ".arrows":
		return byName, nil
	}
	head, err := ReadHead(path)
	if err != nil {
		return "", err
	}
	if f := sniff(head); f != "" {
		return f, nil
	}
	if nameErr == nil {
		return byName, nil
	}
	return "", fmt.Errorf("%s: %w; pass --format (one of %s)", path, errNotDetected, formatList())
}

func formatList() string {
	names := []string{string(FormatParquet), string(FormatArrow), string(FormatCSV), string(FormatTSV)}
	for _, f := range logFormats {
		names = append(names, string(f.Name))
	}
	return strings.Join(names, ", ")
}

func detectDir(dir string) (Format, error) {
	base := filepath.Base(dir)
	for _, f := range logFormats {
		if f.DirName != nil && f.DirName(base) {
			return f.Name, nil
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		for _, f := range logFormats {
			if f.DirEntry != nil && f.DirEntry(e.Name()) {
				return f.Name, nil
			}
		}
	}
	files, err := LogFiles(dir, true)
	if err != nil {
		return "", err
	}
	for _, f := range logFormats {
		for _, p := range files {
			if f.Deep && slices.Contains(f.Ext, filepath.Ext(p)) {
				return f.Name, nil
			}
		}
	}
	for _, p := range files {
		head, err := ReadHead(p)
		if err != nil {
			continue
		}
		if f := sniff(head); f != "" {
			return f, nil
		}
	}
	return "", fmt.Errorf("%s: %w of any file in the directory; pass --format (one of %s)", dir, errNotDetected, formatList())
}

// LogFiles lists the regular files under dir (recursively when deep), in
// name order, skipping hidden files and checksum files.
func LogFiles(dir string, deep bool) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if p != dir && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if p != dir && !deep {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".crc") || !d.Type().IsRegular() {
			return nil
		}
		out = append(out, p)
		return nil
	})
	slices.Sort(out)
	return out, err
}

// Head is the start of a file as the log formats' sniffers see it: up to
// its first 64 KiB, decompressed.
type Head struct {
	// Bytes is the head without a UTF-8 byte-order mark, Trim the same
	// without leading white space, First Trim's first line without its
	// line break.
	Bytes, Trim, First []byte
}

// NewHead returns the Head of b, the start of a file.
func NewHead(b []byte) *Head {
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	trim := bytes.TrimLeft(b, " \t\r\n")
	first, _, _ := bytes.Cut(trim, []byte{'\n'})
	return &Head{Bytes: b, Trim: trim, First: bytes.TrimRight(first, "\r")}
}

// JSON reports whether the content starts as JSON does, with '{' or '['.
func (h *Head) JSON() bool {
	return len(h.Trim) > 0 && (h.Trim[0] == '{' || h.Trim[0] == '[')
}

// ReadHead returns the Head of a file: up to its first 64 KiB,
// decompressed.
func ReadHead(path string) (*Head, error) {
	r, c, err := compress.Open(path)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	d, err := compress.Decompress(r, path)
	if err != nil {
		return nil, inputErrorf(path, 0, "", "%v", err)
	}
	head := make([]byte, 64<<10)
	n, _ := io.ReadFull(d, head) // a damaged compressed tail: judge by what was read
	return NewHead(head[:n]), nil
}

// sniff tells a log format (or a SWIM .tsv) from the start of its content,
// "" when unsure: the first format whose markers match (Sniff), else, for
// content that is not JSON, a SWIM .tsv, else the first format whose
// first-line shape matches (Guess).
func sniff(h *Head) Format {
	for _, f := range logFormats {
		if f.Sniff != nil && f.Sniff(h) {
			return f.Name
		}
	}
	if h.JSON() {
		return ""
	}
	if f := bytes.Split(h.First, []byte{'\t'}); len(f) >= TSVFields && len(f) <= TSVMaxFields && Numeric(f[1:TSVFields]) {
		return FormatTSV
	}
	for _, f := range logFormats {
		if f.Guess != nil && f.Guess(h) {
			return f.Name
		}
	}
	return ""
}

// Numeric reports whether every one of fields is a decimal number.
func Numeric(fields [][]byte) bool {
	for _, f := range fields {
		if _, err := strconv.ParseFloat(string(f), 64); err != nil {
			return false
		}
	}
	return true
}
