// Package colfile reads and writes Parquet and Arrow IPC files as Arrow
// tables without trusting them: the frame and schema checks made before a
// file is decoded, a decoder bounded in time (DecodeGuarded, a
// StoppableReader) and in memory (a BoundedAllocator, sysmem's budget),
// the page CRCs it checks, the BYTE_STREAM_SPLIT columns and LZ4 codecs
// arrow-go does not decode itself, and the writer properties of every
// file schedplan writes. Parquet goes through its own thin layer on
// arrow-go's parquet/file column readers and writers (pqschema.go,
// pqread.go, pqbatch.go, pqwrite.go), not arrow-go's pqarrow, which links
// Arrow compute, Flight, gRPC and protobuf: column chunks decoded in
// parallel, only the fields asked for, their buffers handed to the Arrow
// arrays without a copy; a required PLAIN string column read by batches
// goes straight from its pages to the array (pqplain.go). Package data converts these tables to and from
// its jobs, tasks and results tables.
//
// It imports internal/sysmem only.
package colfile
