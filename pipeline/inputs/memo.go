package inputs

import "sync"

// memo holds values computed once per run from its inputs (Memo).
type memo struct {
	mu sync.Mutex
	m  map[any]any
}

// Memo returns f's value for key, computing it on the first call with
// that key and returning the same value to every later one: for a figure
// several stages derive alike from the run's inputs (the validation
// window's task budget), which the Inputs, not a package variable, then
// hold for as long as the run does. key must be comparable and say all f
// depends on beyond the Inputs. An error is returned, not remembered.
// Concurrent calls wait for the one computing.
func (in *Inputs) Memo(key any, f func() (any, error)) (any, error) {
	in.memo.mu.Lock()
	defer in.memo.mu.Unlock()
	if v, ok := in.memo.m[key]; ok {
		return v, nil
	}
	v, err := f()
	if err != nil {
		return nil, err
	}
	if in.memo.m == nil {
		in.memo.m = map[any]any{}
	}
	in.memo.m[key] = v
	return v, nil
}
