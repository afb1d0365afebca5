package data

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
)

// randomJobs returns a valid table of n jobs with every canonical column,
// sorted by submit time. With nulls, about one value in ten of each optional
// column is null.
func randomJobs(rng *rand.Rand, n int, nulls bool) *Jobs {
	j := &Jobs{Source: "random"}
	users := []string{"alice", "bob", "carol", "dave", "etl", "adhoc", "ml-team", "reporting"}
	queues := []string{"default", "prod", "research"}
	j.Submit = make([]float64, n)
	t := 0.0
	for i := range j.Submit {
		t += rng.ExpFloat64() * 14.6
		j.Submit[i] = t
	}
	for i := 0; i < n; i++ {
		j.ID.Append(fmt.Sprintf("job_%d", i))
	}
	j.User = Dict{Codes: make([]int32, n), Values: users}
	j.Queue = Dict{Codes: make([]int32, n), Values: queues}
	for i := 0; i < n; i++ {
		j.User.Codes[i] = int32(rng.IntN(len(users)))
		j.Queue.Codes[i] = int32(rng.IntN(len(queues)))
	}
	f64 := func(gen func(i int) float64) Column[float64] {
		c := Column[float64]{Values: make([]float64, n)}
		for i := range c.Values {
			c.Values[i] = gen(i)
		}
		return c
	}
	i64 := func(gen func() int64) Column[int64] {
		c := Column[int64]{Values: make([]int64, n)}
		for i := range c.Values {
			c.Values[i] = gen()
		}
		return c
	}
	i32 := func(gen func() int32) Column[int32] {
		c := Column[int32]{Values: make([]int32, n)}
		for i := range c.Values {
			c.Values[i] = gen()
		}
		return c
	}
	heavy := func() float64 { return math.Exp(rng.NormFloat64()*2 + 3) }
	j.Priority = i32(func() int32 { return int32(1 + rng.IntN(5)) })
	j.Start = f64(func(i int) float64 { return j.Submit[i] + rng.ExpFloat64()*30 })
	j.Finish = f64(func(i int) float64 { return j.Start.Values[i] + heavy() })
	j.MapTasks = i32(func() int32 { return int32(rng.IntN(5000)) })
	j.ReduceTasks = i32(func() int32 { return int32(rng.IntN(500)) })
	j.MapTaskSeconds = f64(func(int) float64 { return heavy() * 10 })
	j.ReduceTaskSeconds = f64(func(int) float64 { return heavy() * 3 })
	j.InputBytes = i64(func() int64 { return int64(heavy() * 1e6) })
	j.ShuffleBytes = i64(func() int64 { return int64(heavy() * 1e5) })
	j.OutputBytes = i64(func() int64 { return int64(heavy() * 1e4) })
	j.Size = f64(func(int) float64 { return heavy() })
	if nulls {
		for _, d := range []*Dict{&j.User, &j.Queue} {
			for i := range d.Codes {
				if rng.IntN(10) == 0 {
					d.Codes[i] = -1
				}
			}
		}
		nullify := func() Bitmap {
			v := NewBitmap(n)
			for i := 0; i < n; i++ {
				if rng.IntN(10) == 0 {
					v.SetNull(i)
				}
			}
			return v
		}
		for _, c := range []*Column[float64]{&j.Start, &j.Finish, &j.MapTaskSeconds, &j.ReduceTaskSeconds, &j.Size} {
			c.Valid = nullify()
			zeroNulls(c.Values, c.Valid)
		}
		for _, c := range []*Column[int64]{&j.InputBytes, &j.ShuffleBytes, &j.OutputBytes} {
			c.Valid = nullify()
			zeroNulls(c.Values, c.Valid)
		}
		for _, c := range []*Column[int32]{&j.Priority, &j.MapTasks, &j.ReduceTasks} {
			c.Valid = nullify()
			zeroNulls(c.Values, c.Valid)
		}
	}
	if !sort.Float64sAreSorted(j.Submit) {
		panic("unsorted")
	}
	return j
}

// diffJobs describes the first difference between two tables over the given
// columns (all canonical columns when cols is nil), "" when they are equal
// bit for bit, nulls included. Dictionary columns compare by value.
func diffJobs(a, b *Jobs, cols []string) string {
	if cols == nil {
		cols = Columns
	}
	if a.Len() != b.Len() {
		return fmt.Sprintf("%d rows vs %d", a.Len(), b.Len())
	}
	n := a.Len()
	for _, c := range cols {
		if a.Present(c) != b.Present(c) {
			return fmt.Sprintf("column %s present %v vs %v", c, a.Present(c), b.Present(c))
		}
	}
	has := func(c string) bool {
		for _, x := range cols {
			if x == c {
				return true
			}
		}
		return false
	}
	for i := 0; i < n; i++ {
		if has(ColJobID) && a.ID.At(i) != b.ID.At(i) {
			return fmt.Sprintf("row %d job_id %q vs %q", i, a.ID.At(i), b.ID.At(i))
		}
		if has(ColSubmit) && math.Float64bits(a.Submit[i]) != math.Float64bits(b.Submit[i]) {
			return fmt.Sprintf("row %d submit_time %v vs %v", i, a.Submit[i], b.Submit[i])
		}
		for _, d := range []struct {
			name string
			x, y *Dict
		}{{ColUser, &a.User, &b.User}, {ColQueue, &a.Queue, &b.Queue}} {
			if !has(d.name) || !d.x.Present() {
				continue
			}
			u, ok1 := d.x.At(i)
			v, ok2 := d.y.At(i)
			if u != v || ok1 != ok2 {
				return fmt.Sprintf("row %d %s %q,%v vs %q,%v", i, d.name, u, ok1, v, ok2)
			}
		}
	}
	type pair struct {
		name string
		x, y any
	}
	for _, p := range []pair{
		{ColPriority, &a.Priority, &b.Priority},
		{ColStart, &a.Start, &b.Start},
		{ColFinish, &a.Finish, &b.Finish},
		{ColMapTasks, &a.MapTasks, &b.MapTasks},
		{ColReduceTasks, &a.ReduceTasks, &b.ReduceTasks},
		{ColMapTaskSeconds, &a.MapTaskSeconds, &b.MapTaskSeconds},
		{ColReduceTaskSeconds, &a.ReduceTaskSeconds, &b.ReduceTaskSeconds},
		{ColInputBytes, &a.InputBytes, &b.InputBytes},
		{ColShuffleBytes, &a.ShuffleBytes, &b.ShuffleBytes},
		{ColOutputBytes, &a.OutputBytes, &b.OutputBytes},
		{ColSize, &a.Size, &b.Size},
	} {
		if !has(p.name) {
			continue
		}
		var d string
		switch x := p.x.(type) {
		case *Column[float64]:
			d = diffCol(x, p.y.(*Column[float64]), n, func(v float64) uint64 { return math.Float64bits(v) })
		case *Column[int64]:
			d = diffCol(x, p.y.(*Column[int64]), n, func(v int64) uint64 { return uint64(v) })
		case *Column[int32]:
			d = diffCol(x, p.y.(*Column[int32]), n, func(v int32) uint64 { return uint64(v) })
		}
		if d != "" {
			return p.name + ": " + d
		}
	}
	return ""
}

func diffCol[T Number](a, b *Column[T], n int, bits func(T) uint64) string {
	if !a.Present() {
		return ""
	}
	for i := 0; i < n; i++ {
		u, ok1 := a.At(i)
		v, ok2 := b.At(i)
		if ok1 != ok2 || bits(u) != bits(v) {
			return fmt.Sprintf("row %d: %v,%v vs %v,%v", i, u, ok1, v, ok2)
		}
	}
	return ""
}

func mustOpen(t testing.TB, spec string) *Jobs {
	t.Helper()
	j, err := Open(spec, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// checkInputError asserts that err is an *InputError with exactly this file,
// row and column, whose message contains msg.
func checkInputError(t testing.TB, err error, file string, row int, col, msg string) {
	t.Helper()
	var ie *InputError
	if !errors.As(err, &ie) {
		t.Errorf("error %v (%T), want an *InputError", err, err)
		return
	}
	if ie.File != file || ie.Row != row || ie.Column != col || !strings.Contains(ie.Msg, msg) {
		t.Errorf("error %q: file %q row %d column %q; want %q, %d, %q with %q", err, ie.File, ie.Row, ie.Column, file, row, col, msg)
	}
}
