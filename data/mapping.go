package data

import (
	"fmt"
	"strings"
)

// TimeUnit is the unit of a numeric time column in a source file.
type TimeUnit string

// Time units; seconds are the default. Arrow timestamp columns carry their
// own unit and need none.
const (
	Seconds      TimeUnit = "s"
	Milliseconds TimeUnit = "ms"
	Microseconds TimeUnit = "us"
	Nanoseconds  TimeUnit = "ns"
)

// PerSecond returns how many of u make one second.
func (u TimeUnit) PerSecond() float64 {
	switch u {
	case Milliseconds:
		return 1e3
	case Microseconds:
		return 1e6
	case Nanoseconds:
		return 1e9
	}
	return 1
}

// SourceColumn names the column of a source file that holds a canonical
// column, and the unit of its values when it is a time column.
type SourceColumn struct {
	Name string
	Unit TimeUnit // "" means seconds
}

// Mapping maps canonical column names (Columns) to source columns. A canonical
// column without an entry is looked up under its own name.
type Mapping map[string]SourceColumn

// timeColumns are the canonical columns that hold times.
var timeColumns = map[string]bool{ColSubmit: true, ColStart: true, ColFinish: true}

// ParseMapping parses a column mapping of the form
//
//	canonical=source[:unit],canonical=source[:unit],...
//
// for example "submit_time=ts:ms,user=owner". The unit (s, ms, us, ns) is
// allowed only on time columns (submit_time, start_time, finish_time); the
// source name may be empty to give only a unit ("submit_time=:ms"). Canonical
// names must be known and appear once; source names must be distinct.
// "state=NAME" names the state column (columns.go).
func ParseMapping(s string) (Mapping, error) {
	return parseMapping(s, append(append([]string(nil), Columns...), ColState))
}

// ParseTaskMapping parses a column mapping for the tasks table (see
// ParseMapping; the canonical names are TaskColumns).
func ParseTaskMapping(s string) (Mapping, error) {
	return parseMapping(s, TaskColumns)
}

func parseMapping(s string, columns []string) (Mapping, error) {
	m := Mapping{}
	if strings.TrimSpace(s) == "" {
		return m, nil
	}
	known := map[string]bool{}
	for _, c := range columns {
		known[c] = true
	}
	used := map[string]string{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		canon, src, ok := strings.Cut(part, "=")
		canon = strings.TrimSpace(canon)
		if !ok || canon == "" {
			return nil, fmt.Errorf("%q: an entry has the form canonical=source[:unit]", part)
		}
		if !known[canon] {
			return nil, fmt.Errorf("%q: unknown column %q; known columns: %s", part, canon, strings.Join(columns, ", "))
		}
		if _, dup := m[canon]; dup {
			return nil, fmt.Errorf("%q: column %q is mapped twice", part, canon)
		}
		sc := SourceColumn{Name: strings.TrimSpace(src)}
		if k := strings.LastIndexByte(sc.Name, ':'); k >= 0 {
			unit := TimeUnit(sc.Name[k+1:])
			switch unit {
			case Seconds, Milliseconds, Microseconds, Nanoseconds:
			default:
				return nil, fmt.Errorf("%q: unknown time unit %q; use s, ms, us or ns", part, unit)
			}
			if !timeColumns[canon] {
				return nil, fmt.Errorf("%q: a time unit is allowed only on %s, %s and %s", part, ColSubmit, ColStart, ColFinish)
			}
			sc.Name, sc.Unit = strings.TrimSpace(sc.Name[:k]), unit
		}
		if sc.Name == "" {
			if sc.Unit == "" {
				return nil, fmt.Errorf("%q: empty source column", part)
			}
			sc.Name = canon
		}
		if other, dup := used[sc.Name]; dup {
			return nil, fmt.Errorf("%q: source column %q is already mapped to %q", part, sc.Name, other)
		}
		used[sc.Name] = canon
		m[canon] = sc
	}
	return m, nil
}

// Source returns the source column for a canonical column.
func (m Mapping) Source(canon string) SourceColumn {
	if sc, ok := m[canon]; ok {
		return sc
	}
	return SourceColumn{Name: canon}
}

// String formats m in the syntax ParseMapping reads, in canonical column
// order, so that ParseMapping(m.String()) equals m.
func (m Mapping) String() string {
	var parts []string
	all := append(append([]string(nil), Columns...), TaskColumns...)
	seen := map[string]bool{}
	for _, c := range all {
		if seen[c] {
			continue
		}
		seen[c] = true
		sc, ok := m[c]
		if !ok {
			continue
		}
		p := c + "=" + sc.Name
		if sc.Unit != "" {
			p += ":" + string(sc.Unit)
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ",")
}
