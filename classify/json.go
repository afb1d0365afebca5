package classify

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseK parses a choice of k: "auto" (KAuto), "users" (KUsers) or a
// positive number.
func ParseK(s string) (int, error) {
	switch strings.TrimSpace(s) {
	case "auto", "":
		return KAuto, nil
	case "users":
		return KUsers, nil
	}
	k, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || k < 1 {
		return 0, fmt.Errorf("k %q: want auto, users or a positive number", s)
	}
	return k, nil
}

// jsonFloat encodes NaN and ±Inf (which JSON cannot hold) as null.
type jsonFloat float64

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(v)
}

// UnmarshalJSON decodes null as NaN.
func (f *jsonFloat) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = jsonFloat(math.NaN())
		return nil
	}
	return json.Unmarshal(b, (*float64)(f))
}

// classJSON is the encoding of a Class.
type classJSON struct {
	ID                    int       `json:"id"`
	Label                 string    `json:"label"`
	Count                 int       `json:"count"`
	Share                 float64   `json:"share"`
	Centroid              []float64 `json:"centroid"`
	MeanSize              jsonFloat `json:"mean_size"`
	MeanDuration          jsonFloat `json:"mean_duration_s"`
	MeanInputBytes        jsonFloat `json:"mean_input_bytes"`
	MeanShuffleBytes      jsonFloat `json:"mean_shuffle_bytes"`
	MeanOutputBytes       jsonFloat `json:"mean_output_bytes"`
	MeanMapTaskSeconds    jsonFloat `json:"mean_map_task_seconds"`
	MeanReduceTaskSeconds jsonFloat `json:"mean_reduce_task_seconds"`
	Alpha                 jsonFloat `json:"alpha_per_s"`
	Mu                    []float64 `json:"mu_per_s"`
	MeanTaskBytes         jsonFloat `json:"mean_task_bytes"`
	Radius                float64   `json:"radius"`
	MuSource              []string  `json:"mu_source"`
}

// MarshalJSON encodes a class; values unknown to the log (NaN) are null.
func (c Class) MarshalJSON() ([]byte, error) {
	return json.Marshal(classJSON{c.ID, c.Label, c.Count, c.Share, c.Centroid, jsonFloat(c.MeanSize), jsonFloat(c.MeanDuration),
		jsonFloat(c.MeanInputBytes), jsonFloat(c.MeanShuffleBytes), jsonFloat(c.MeanOutputBytes),
		jsonFloat(c.MeanMapTaskSeconds), jsonFloat(c.MeanReduceTaskSeconds), jsonFloat(c.Alpha), c.Mu,
		jsonFloat(c.MeanTaskBytes), c.Radius, c.MuSource})
}

// UnmarshalJSON decodes what MarshalJSON encodes (null as NaN).
func (c *Class) UnmarshalJSON(b []byte) error {
	nan := jsonFloat(math.NaN())
	v := classJSON{MeanSize: nan, MeanDuration: nan, MeanInputBytes: nan, MeanShuffleBytes: nan, MeanOutputBytes: nan,
		MeanMapTaskSeconds: nan, MeanReduceTaskSeconds: nan, Alpha: nan, MeanTaskBytes: nan}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*c = Class{v.ID, v.Label, v.Count, v.Share, v.Centroid, float64(v.MeanSize), float64(v.MeanDuration),
		float64(v.MeanInputBytes), float64(v.MeanShuffleBytes), float64(v.MeanOutputBytes),
		float64(v.MeanMapTaskSeconds), float64(v.MeanReduceTaskSeconds), float64(v.Alpha), v.Mu,
		float64(v.MeanTaskBytes), v.Radius, v.MuSource}
	return nil
}

type kscoreJSON struct {
	K          int       `json:"k"`
	Inertia    float64   `json:"inertia"`
	Silhouette jsonFloat `json:"silhouette"`
}

// MarshalJSON encodes a candidate k; an undefined silhouette is null.
func (s KScore) MarshalJSON() ([]byte, error) {
	return json.Marshal(kscoreJSON{s.K, s.Inertia, jsonFloat(s.Silhouette)})
}

// UnmarshalJSON decodes what MarshalJSON encodes (null as NaN).
func (s *KScore) UnmarshalJSON(b []byte) error {
	v := kscoreJSON{Silhouette: jsonFloat(math.NaN())}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*s = KScore{v.K, v.Inertia, float64(v.Silhouette)}
	return nil
}

// resultPlain is Result without its methods (no recursion in encoding).
type resultPlain Result

type resultJSON struct {
	*resultPlain
	Jobs       int       `json:"jobs"`
	Inertia    jsonFloat `json:"inertia"`
	Silhouette jsonFloat `json:"silhouette"`
	// Centers are the fitted centres in scaled space, one row per class:
	// what Predict needs after a round trip.
	Centers [][]float64 `json:"centers_scaled"`
}

// MarshalJSON encodes a classification without the per-job assignment
// (Rows and Assign); undefined values (NaN) are null.
func (r *Result) MarshalJSON() ([]byte, error) {
	v := resultJSON{resultPlain: (*resultPlain)(r), Jobs: r.Jobs(), Inertia: jsonFloat(r.Inertia), Silhouette: jsonFloat(r.Silhouette)}
	if d := len(r.Features); d > 0 {
		for c := 0; c+d <= len(r.centers); c += d {
			v.Centers = append(v.Centers, r.centers[c:c+d])
		}
	}
	return json.Marshal(v)
}

// UnmarshalJSON decodes what MarshalJSON encodes: everything but Rows and
// Assign, which the caller restores if it needs them (ClassOf, JobsTable);
// Predict works on the decoded result.
func (r *Result) UnmarshalJSON(b []byte) error {
	nan := jsonFloat(math.NaN())
	v := resultJSON{resultPlain: &resultPlain{}, Inertia: nan, Silhouette: nan}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*r = Result(*v.resultPlain)
	r.Inertia, r.Silhouette = float64(v.Inertia), float64(v.Silhouette)
	r.centers = nil
	for _, row := range v.Centers {
		if len(row) != len(r.Features) {
			return fmt.Errorf("classify: a centre of %d values for %d features", len(row), len(r.Features))
		}
		r.centers = append(r.centers, row...)
	}
	if len(v.Centers) != len(r.Classes) {
		return fmt.Errorf("classify: %d centres for %d classes", len(v.Centers), len(r.Classes))
	}
	return nil
}
