package experiment

// MaxRuns bounds an experiment's runs (Experiment.Runs, --runs): more is a
// typo or an attack, refused with its name.
const MaxRuns = 1 << 30
