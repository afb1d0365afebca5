package report

import (
	"strconv"
	"strings"
)

// ShownSpec is a policy specification as shown to people (the console,
// report.html): every numeric parameter value, and each number of a
// /-separated list of numbers (weights=…), at 4 significant figures;
// names, file paths and other values unchanged. summary.json and
// schedplan.yaml keep the exact specification, which ParsePolicy reads
// back.
func ShownSpec(spec string) string {
	name, params, ok := strings.Cut(spec, ":")
	if !ok || !strings.Contains(params, "=") {
		return spec
	}
	kvs := strings.Split(params, ",")
	for i, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		nums := strings.Split(v, "/")
		for j, n := range nums {
			f, err := strconv.ParseFloat(n, 64)
			if err != nil {
				nums = nil
				break
			}
			nums[j] = strconv.FormatFloat(f, 'g', 4, 64)
		}
		if nums != nil {
			kvs[i] = k + "=" + strings.Join(nums, "/")
		}
	}
	return name + ":" + strings.Join(kvs, ",")
}
