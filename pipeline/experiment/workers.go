package experiment

// MaxWorkers bounds --workers: more goroutines than this only add memory
// (each holds a simulation's state) on any machine schedplan runs on.
const MaxWorkers = 4096

// CheckWorkers refuses a --workers that is negative or above MaxWorkers;
// 0 means GOMAXPROCS.
func CheckWorkers(n int) error {
	if n < 0 || n > MaxWorkers {
		return ParamErr("workers", n, "want 0 (one per core) to %d parallel simulations", MaxWorkers)
	}
	return nil
}
