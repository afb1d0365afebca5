package tasklevel

// WindowRows are the row indices lo, lo+1, …, lo+n−1.
func WindowRows(lo, n int) []int {
	rows := make([]int, n)
	for k := range rows {
		rows[k] = lo + k
	}
	return rows
}
