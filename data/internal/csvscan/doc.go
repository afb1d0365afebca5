// Package csvscan scans CSV records (RFC 4180) as package data's CSV jobs
// reader needs them: unlike encoding/csv it keeps every byte of a quoted
// field and tells a quoted empty field (the empty string) from an empty one
// (a null), and it bounds the length of a record.
//
// It imports nothing of schedplan.
package csvscan
