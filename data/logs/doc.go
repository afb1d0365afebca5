// Package logs is schedplan's table of log formats: importing it registers
// the reader of every other system's log that schedplan reads (one package
// a format under data/: spark, jhist, rmsummary, sls, google, alibaba,
// swf, swimfull) with package data, whose ReadLog, ReadFile, Open and
// DetectFormat then read and detect them. The table is explicit, in one
// file (logs.go), because its order is what --format, the README and
// docs/formats.md list and the order detection asks the formats in; the
// readers do not register themselves.
//
// It imports data and the readers; the commands reach it through pipeline.
package logs
