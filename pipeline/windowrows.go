package pipeline

func windowRows(lo, n int) []int {
	rows := make([]int, n)
	for k := range rows {
		rows[k] = lo + k
	}
	return rows
}
