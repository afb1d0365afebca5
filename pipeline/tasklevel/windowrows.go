package tasklevel

func WindowRows(lo, n int) []int {
	rows := make([]int, n)
	for k := range rows {
		rows[k] = lo + k
	}
	return rows
}
