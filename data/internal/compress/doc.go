// Package compress decompresses the streams job logs come in, told apart
// by their magic bytes: the codecs Spark writes event logs with (lz4 as
// lz4-java's LZ4BlockOutputStream, snappy as xerial's SnappyOutputStream,
// zstd, lzf as compress-lzf's LZFOutputStream), gzip (and a gzipped tar's
// first file), LZ4 frames and framed snappy. Package data sniffs a log's
// decompressed head with it, and the log readers (data/spark, data/swf, …)
// read through it.
//
// It imports nothing of schedplan.
package compress
