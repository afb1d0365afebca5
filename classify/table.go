package classify

import (
	"math"

	"github.com/schedplan/schedplan/data"
)

// Table returns the classes of the given classifications as one table, one
// row per class: the classes.parquet layout. Columns: classification,
// class, label, jobs, share, mean_size, mean_duration_s, mean_input_bytes,
// mean_shuffle_bytes, mean_output_bytes, mean_map_task_seconds,
// mean_reduce_task_seconds, alpha_per_s, then mu_<resource> per resource
// type (jobs/s one machine serves) and centroid_<feature> per feature
// (original units). Unknown values are NaN; so is a centroid coordinate of
// a feature a classification did not use. Classifications without classes
// add no rows.
func Table(results ...*Result) *data.Table {
	var (
		name, label                                []string
		class                                      []int32
		jobs                                       []int64
		share, size, dur, in, sh, out, mts, rts, a []float64
		resources, features                        []string
	)
	seenR, seenF := map[string]bool{}, map[string]bool{}
	for _, r := range results {
		for _, n := range r.Resources {
			if !seenR[n] {
				seenR[n] = true
				resources = append(resources, n)
			}
		}
		for _, f := range r.Features {
			if !seenF[f] {
				seenF[f] = true
				features = append(features, f)
			}
		}
	}
	mu := make([][]float64, len(resources))
	cen := make([][]float64, len(features))
	for _, r := range results {
		for _, c := range r.Classes {
			name = append(name, r.Name)
			class = append(class, int32(c.ID))
			label = append(label, c.Label)
			jobs = append(jobs, int64(c.Count))
			share = append(share, c.Share)
			size = append(size, c.MeanSize)
			dur = append(dur, c.MeanDuration)
			in = append(in, c.MeanInputBytes)
			sh = append(sh, c.MeanShuffleBytes)
			out = append(out, c.MeanOutputBytes)
			mts = append(mts, c.MeanMapTaskSeconds)
			rts = append(rts, c.MeanReduceTaskSeconds)
			a = append(a, c.Alpha)
			for k, n := range resources {
				v := math.NaN()
				for q, rn := range r.Resources {
					if rn == n && q < len(c.Mu) {
						v = c.Mu[q]
					}
				}
				mu[k] = append(mu[k], v)
			}
			for k, f := range features {
				v := math.NaN()
				for q, rf := range r.Features {
					if rf == f {
						v = c.Centroid[q]
					}
				}
				cen[k] = append(cen[k], v)
			}
		}
	}
	t := &data.Table{}
	if name == nil { // an empty table still has typed columns
		name, label, class, jobs = []string{}, []string{}, []int32{}, []int64{}
		share, size, dur, in, sh, out, mts, rts, a = []float64{}, []float64{}, []float64{}, []float64{}, []float64{}, []float64{}, []float64{}, []float64{}, []float64{}
	}
	t.Add("classification", name)
	t.Add("class", class)
	t.Add("label", label)
	t.Add("jobs", jobs)
	t.Add("share", share)
	t.Add("mean_size", size)
	t.Add("mean_duration_s", dur)
	t.Add("mean_input_bytes", in)
	t.Add("mean_shuffle_bytes", sh)
	t.Add("mean_output_bytes", out)
	t.Add("mean_map_task_seconds", mts)
	t.Add("mean_reduce_task_seconds", rts)
	t.Add("alpha_per_s", a)
	for k, n := range resources {
		if mu[k] == nil {
			mu[k] = []float64{}
		}
		t.Add("mu_"+n, mu[k])
	}
	for k, f := range features {
		if cen[k] == nil {
			cen[k] = []float64{}
		}
		t.Add("centroid_"+f, cen[k])
	}
	return t
}

// JobsTable returns the class of every job of j in each classification:
// job_id, then one int32 column <name>_class per classification (-1 for a
// job the classification does not cover).
func JobsTable(j *data.Jobs, results ...*Result) *data.Table {
	n := j.Len()
	ids := make([]string, n)
	for i := range ids {
		ids[i] = j.ID.At(i)
	}
	t := &data.Table{}
	t.Add("job_id", ids)
	for _, r := range results {
		col := make([]int32, n)
		for i := range col {
			col[i] = -1
		}
		if len(r.Classes) > 0 {
			if r.Rows == nil {
				copy(col, r.Assign)
			} else {
				for q, i := range r.Rows {
					col[i] = r.Assign[q]
				}
			}
		}
		t.Add(r.Name+"_class", col)
	}
	return t
}
