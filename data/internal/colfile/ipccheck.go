package colfile

import (
	"bytes"
	"encoding/binary"
	"errors"
)

// The Arrow IPC reader of arrow/go/v17 does not verify the flatbuffers it
// reads: a corrupt vector length in a schema makes it allocate up to 2^32
// elements at once, and the process dies of it (an out-of-memory error is
// not a panic that can be recovered). checkIPCSchema walks the schema
// flatbuffer of an Arrow IPC file or stream before the reader sees it and
// rejects any table, vector or string that points outside its buffer.

// fbBuf is a flatbuffer with bounds-checked accessors; every failure is
// errCorruptIPC.
type fbBuf struct {
	b     []byte
	nodes int // tables visited, to bound the work on hostile input
}

var errCorruptIPC = errors.New("corrupt Arrow IPC schema (a length or offset points outside the message)")

func (f *fbBuf) u32(pos int) (int, error) {
	if pos < 0 || pos+4 > len(f.b) {
		return 0, errCorruptIPC
	}
	return int(binary.LittleEndian.Uint32(f.b[pos:])), nil
}

// table returns the table at pos after checking its vtable.
func (f *fbBuf) table(pos int) (fbTable, error) {
	f.nodes++
	if f.nodes > 1<<16 {
		return fbTable{}, errCorruptIPC
	}
	so, err := f.u32(pos)
	if err != nil {
		return fbTable{}, err
	}
	vt := pos - int(int32(so))
	if vt < 0 || vt+4 > len(f.b) {
		return fbTable{}, errCorruptIPC
	}
	vsize := int(binary.LittleEndian.Uint16(f.b[vt:]))
	// A vtable is a whole number of 2-byte entries: flatbuffers' readers
	// read an entry that starts inside the declared size, so an odd size
	// would let them read a field this check takes as absent.
	if vsize < 4 || vsize%2 != 0 || vt+vsize > len(f.b) {
		return fbTable{}, errCorruptIPC
	}
	return fbTable{f: f, pos: pos, vt: vt, vsize: vsize}, nil
}

type fbTable struct {
	f       *fbBuf
	pos, vt int
	vsize   int
}

// field returns the absolute position of field k, or 0 when absent.
func (t fbTable) field(k int) int {
	o := 4 + 2*k
	if o+2 > t.vsize {
		return 0
	}
	off := int(binary.LittleEndian.Uint16(t.f.b[t.vt+o:]))
	if off == 0 {
		return 0
	}
	return t.pos + off
}

// ref follows the offset stored at field k (a table, vector or string),
// returning 0 when the field is absent.
func (t fbTable) ref(k int) (int, error) {
	p := t.field(k)
	if p == 0 {
		return 0, nil
	}
	u, err := t.f.u32(p)
	if err != nil {
		return 0, err
	}
	q := p + u
	if q >= len(t.f.b) {
		return 0, errCorruptIPC
	}
	return q, nil
}

// vector checks the vector at field k whose elements are elem bytes wide and
// returns the position of its first element and its length.
func (t fbTable) vector(k, elem int) (int, int, error) {
	p, err := t.ref(k)
	if err != nil || p == 0 {
		return 0, 0, err
	}
	n, err := t.f.u32(p)
	if err != nil {
		return 0, 0, err
	}
	if n > (len(t.f.b)-p-4)/elem {
		return 0, 0, errCorruptIPC
	}
	return p + 4, n, nil
}

// tables checks a vector of tables at field k and calls fn on each.
func (t fbTable) tables(k int, fn func(fbTable) error) error {
	p, n, err := t.vector(k, 4)
	if err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		e := p + 4*i
		u, err := t.f.u32(e)
		if err != nil {
			return err
		}
		sub, err := t.f.table(e + u)
		if err != nil {
			return err
		}
		if err := fn(sub); err != nil {
			return err
		}
	}
	return nil
}

// checkKeyValues checks a vector of KeyValue {key: string, value: string}.
func checkKeyValues(t fbTable, k int) error {
	return t.tables(k, func(kv fbTable) error {
		for _, f := range []int{0, 1} {
			if _, _, err := kv.vector(f, 1); err != nil {
				return err
			}
		}
		return nil
	})
}

// checkField checks an Arrow Field table: name (0), type (3), dictionary
// (4), children (5), custom_metadata (6).
func checkField(t fbTable, depth int) error {
	if depth > 64 {
		return errCorruptIPC
	}
	if _, _, err := t.vector(0, 1); err != nil {
		return err
	}
	for _, k := range []int{3, 4} {
		p, err := t.ref(k)
		if err != nil {
			return err
		}
		if p != 0 {
			if _, err := t.f.table(p); err != nil {
				return err
			}
		}
	}
	if err := t.tables(5, func(c fbTable) error { return checkField(c, depth+1) }); err != nil {
		return err
	}
	return checkKeyValues(t, 6)
}

// checkSchema checks an Arrow Schema table: fields (1), custom_metadata (2),
// features (3).
func checkSchema(t fbTable) error {
	if err := t.tables(1, func(c fbTable) error { return checkField(c, 0) }); err != nil {
		return err
	}
	if err := checkKeyValues(t, 2); err != nil {
		return err
	}
	_, _, err := t.vector(3, 8)
	return err
}

// checkIPCSchema checks the schema of an Arrow IPC file (in its footer) or
// stream (its first message).
func checkIPCSchema(b []byte) error {
	if bytes.HasPrefix(b, ArrowMagic) {
		// file: ... <footer flatbuffer> <int32 footer length> "ARROW1"
		if len(b) < len(ArrowMagic)*2+4 {
			return errCorruptIPC
		}
		end := len(b) - len(ArrowMagic) - 4
		n := int(int32(binary.LittleEndian.Uint32(b[end:])))
		if n <= 0 || n > end {
			return errCorruptIPC
		}
		f := &fbBuf{b: b[end-n : end]}
		root, err := f.u32(0)
		if err != nil {
			return err
		}
		footer, err := f.table(root)
		if err != nil {
			return err
		}
		p, err := footer.ref(1) // Footer.schema
		if err != nil {
			return err
		}
		if p == 0 {
			return errors.New("an Arrow IPC file without a schema")
		}
		sch, err := f.table(p)
		if err != nil {
			return err
		}
		if err := checkSchema(sch); err != nil {
			return err
		}
		// Footer.dictionaries (2) and recordBatches (3): vectors of
		// 24-byte Block structs.
		for _, k := range []int{2, 3} {
			if _, _, err := footer.vector(k, 24); err != nil {
				return err
			}
		}
		return nil
	}
	// stream: [0xFFFFFFFF] <int32 length> <Message flatbuffer> ...
	pos := 0
	if len(b) >= 4 && binary.LittleEndian.Uint32(b) == 0xFFFFFFFF {
		pos = 4
	}
	if len(b) < pos+4 {
		return errCorruptIPC
	}
	n := int(int32(binary.LittleEndian.Uint32(b[pos:])))
	pos += 4
	if n <= 0 || n > len(b)-pos {
		return errCorruptIPC
	}
	f := &fbBuf{b: b[pos : pos+n]}
	root, err := f.u32(0)
	if err != nil {
		return err
	}
	msg, err := f.table(root)
	if err != nil {
		return err
	}
	if err := checkKeyValues(msg, 4); err != nil {
		return err
	}
	if ht := msg.field(1); ht == 0 || ht >= len(f.b) || f.b[ht] != 1 { // Message.header_type: 1 is Schema
		return errors.New("an Arrow IPC stream must start with a schema message")
	}
	p, err := msg.ref(2) // Message.header
	if err != nil {
		return err
	}
	if p == 0 {
		return errCorruptIPC
	}
	sch, err := f.table(p)
	if err != nil {
		return err
	}
	return checkSchema(sch)
}
