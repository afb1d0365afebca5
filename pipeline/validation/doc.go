// Package validation checks the tuned and emitted configurations on the
// validation window: the fluid table (every configuration with estimation
// errors and at other loads, results.parquet; validate.go), the task-level
// table that replays the emitted capacity-scheduler.xml and
// fair-scheduler.xml (taskval.go, TaskValidation), the calibration of the
// simulator against the log's observed times (calibration.go), the offered
// loads the views state (offeredload.go), and COSHH's stage: its fit, its
// tuning grid and its task-level rows beside FIFO and Fair (coshhfit.go,
// coshhstage.go, coshhreport.go, COSHHValidation).
//
// It may import the module's leaves and pipeline's lower packages (report,
// experiment, tuner, bundle, tasklevel, inputs), never package pipeline or a
// stage above it (tune-deploy, capacity, the report).
package validation
