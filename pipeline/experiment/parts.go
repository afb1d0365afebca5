package experiment

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/schedplan/schedplan/data"
)

// A part is the table one shard of a sharded computation writes: sweep
// (Sweep), the tune stage and the validate stage (see RunShard). The work is
// a list of units numbered 0..units−1 in a fixed order; shard i of N computes
// the units u with u mod N = i. Every row of a part names its unit (column
// "unit", int64), the number of units of the whole work ("units", int64) and
// the work's identity (a string column PartKind.IDColumn: a hash of the
// inputs and parameters), so that MergeParts can refuse parts of another
// work, a unit given twice and units in no part. A unit may have any number
// of rows, but at least one.
//
// MergeParts orders the rows by unit (stably: a unit's rows keep their
// order), so the merge of any sharding is the table of the unsharded work.

// PartColumns are the columns every part has.
const (
	PartUnit  = "unit"
	PartUnits = "units"
)

// PartKind describes the parts of one kind of sharded work.
type PartKind struct {
	// What names the work in messages ("sweep", "tune stage").
	What string
	// IDColumn is the column holding the work's identity.
	IDColumn string
	// Check, when set, checks a part's other columns (name is the part's
	// file, for messages).
	Check func(name string, t *data.Table) error
	// Differs, when set, names the parameter two parts of different works
	// disagree on: a is the reference part (named aName), b the foreign
	// one.
	Differs func(aName string, a *data.Table, bName string, b *data.Table) string
}

// partHead is what a part says of the work it belongs to.
type partHead struct {
	id    string
	units int64
}

func (k *PartKind) head(name string, t *data.Table) (*partHead, error) {
	for _, c := range []struct {
		name string
		typ  any
	}{{PartUnit, []int64{}}, {PartUnits, []int64{}}, {k.IDColumn, []string{}}} {
		col := t.Col(c.name)
		if col == nil || fmt.Sprintf("%T", col) != fmt.Sprintf("%T", c.typ) {
			return nil, fmt.Errorf("%s: not a %s part of this schedplan (no %T column %q)", name, k.What, c.typ, c.name)
		}
	}
	if k.Check != nil {
		if err := k.Check(name, t); err != nil {
			return nil, err
		}
	}
	if t.Len() == 0 {
		return nil, nil
	}
	return &partHead{id: t.Col(k.IDColumn).([]string)[0], units: t.Col(PartUnits).([]int64)[0]}, nil
}

// ErrPartsMissing is wrapped by MergeParts's error when units are in no
// part: a shard not done yet, or lost.
var ErrPartsMissing = errors.New("a shard is missing")

// MergeParts combines parts (names[k] names parts[k] in messages) into one
// table ordered by unit. Parts of another work (another id or number of
// units), a unit in two parts, and units in no part (a missing shard) are
// errors that name them. want, when not empty, is the identity the parts
// must have (the work the caller is merging).
func MergeParts(kind PartKind, want string, names []string, parts []*data.Table) (*data.Table, error) {
	var ref *partHead
	refName := ""
	var refTable, all *data.Table
	owner := map[int64]int{}
	claim := func(k int, u int64) error {
		if q, dup := owner[u]; dup && q != k {
			return fmt.Errorf("%s: unit %d is also in %s (part %d; a shard given twice?)", names[k], u, names[q], q+1)
		}
		owner[u] = k
		return nil
	}
	for k, t := range parts {
		p, err := kind.head(names[k], t)
		if err != nil {
			return nil, err
		}
		if p == nil {
			continue // an empty shard
		}
		switch {
		case want != "" && p.id != want:
			return nil, fmt.Errorf("%s is a part of another %s (%s %s, want %s: other inputs or parameters); remove it and run its shard again", names[k], kind.What, kind.IDColumn, p.id, want)
		case ref == nil:
			ref, refName, refTable = p, names[k], t
		case p.id != ref.id || p.units != ref.units:
			why := fmt.Sprintf("%s %s, but %s is of %s %s (another trace, cluster, capacity or settings)", kind.IDColumn, p.id, refName, kind.IDColumn, ref.id)
			if kind.Differs != nil {
				if d := kind.Differs(refName, refTable, names[k], t); d != "" {
					why = d
				}
			}
			return nil, fmt.Errorf("%s is a part of another %s: %s", names[k], kind.What, why)
		}
		for _, u := range t.Col(PartUnit).([]int64) {
			if err := claim(k, u); err != nil {
				return nil, err
			}
		}
		if all == nil {
			all = t.Clone()
		} else if err := all.AppendTable(t); err != nil {
			return nil, fmt.Errorf("%s: %w", names[k], err)
		}
	}
	if ref == nil {
		return nil, fmt.Errorf("no rows in %d parts: %w", len(parts), ErrPartsMissing)
	}
	if err := missingUnits(owner, ref.units); err != nil {
		return nil, err
	}
	if err := all.SortStableBy(PartUnit); err != nil {
		return nil, err
	}
	return all, nil
}

// missingUnits reports the units 0..units−1 that no part holds.
func missingUnits(owner map[int64]int, units int64) error {
	var missing []int64
	for u := int64(0); u < units; u++ {
		if _, ok := owner[u]; !ok {
			missing = append(missing, u)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	list := make([]string, 0, 10)
	for _, u := range missing[:min(10, len(missing))] {
		list = append(list, strconv.FormatInt(u, 10))
	}
	if len(missing) > 10 {
		list = append(list, "…")
	}
	return fmt.Errorf("%d of %d units are in no part (units %s): %w (shard i of N holds the units u with u mod N = i)",
		len(missing), units, strings.Join(list, ", "), ErrPartsMissing)
}
