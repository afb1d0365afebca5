package pipeline

// HPFSPOnline is the estimator= value of an hpfsp specification at task
// level that sizes jobs online (the default); HPFSPSizes reads the jobs'
// size estimates (exact, or with the experiment's error model).
const (
	HPFSPOnline = "ewma"
	HPFSPSizes  = "sizes"
)
