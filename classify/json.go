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

// MarshalJSON encodes a class; values unknown to the log (NaN) are null.
func (c Class) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
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
	}{c.ID, c.Label, c.Count, c.Share, c.Centroid, jsonFloat(c.MeanSize), jsonFloat(c.MeanDuration),
		jsonFloat(c.MeanInputBytes), jsonFloat(c.MeanShuffleBytes), jsonFloat(c.MeanOutputBytes),
		jsonFloat(c.MeanMapTaskSeconds), jsonFloat(c.MeanReduceTaskSeconds), jsonFloat(c.Alpha), c.Mu})
}

// MarshalJSON encodes a candidate k; an undefined silhouette is null.
func (s KScore) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		K          int       `json:"k"`
		Inertia    float64   `json:"inertia"`
		Silhouette jsonFloat `json:"silhouette"`
	}{s.K, s.Inertia, jsonFloat(s.Silhouette)})
}

// MarshalJSON encodes a classification (without the per-job assignment);
// undefined values (NaN) are null.
func (r *Result) MarshalJSON() ([]byte, error) {
	type plain Result // no methods: no recursion
	return json.Marshal(struct {
		*plain
		Jobs       int       `json:"jobs"`
		Inertia    jsonFloat `json:"inertia"`
		Silhouette jsonFloat `json:"silhouette"`
	}{(*plain)(r), r.Jobs(), jsonFloat(r.Inertia), jsonFloat(r.Silhouette)})
}
