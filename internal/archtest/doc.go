// Package archtest holds the test that keeps schedplan's architecture: the
// layers its packages sit on, which may import only downwards, and a doc
// comment on every package. It has no code of its own; see layers_test.go
// for the table of layers, the one place to change when a package is
// added or moved.
package archtest
