package data

import "testing"

func TestEmbeddedTraces(t *testing.T) {
	for _, tc := range []struct {
		spec string
		jobs int
		last float64
	}{
		{"embedded", 5894, 86404},
		{"embedded:fb2009", 5894, 86404},
		{"embedded:fb2009-50", 50, 2826},
	} {
		j, err := Open(tc.spec, ReadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tc.spec, err)
		}
		if j.Len() != tc.jobs || j.ID.Len() != tc.jobs {
			t.Errorf("%s: %d jobs, want %d", tc.spec, j.Len(), tc.jobs)
		}
		if got := j.Submit[j.Len()-1]; got != tc.last {
			t.Errorf("%s: last submit %v, want %v", tc.spec, got, tc.last)
		}
		if j.ID.At(0) != "job0" || j.InputBytes.Values[0] != 740773 || j.ShuffleBytes.Values[0] != 2339561 || j.OutputBytes.Values[0] != 627471 {
			t.Errorf("%s: first row read wrong", tc.spec)
		}
	}
	if _, err := Open("embedded:nope", ReadOptions{}); err == nil {
		t.Error("unknown embedded trace accepted")
	}
	if SWIMLicense() == "" {
		t.Error("SWIM license not embedded")
	}
}
