// Package pipeline wires schedplan's stages together: ingest, validation,
// sizes, classification, the COSHH LP, tuning, bounds, emission of scheduler
// configurations, validation by simulation and the report.
package pipeline
