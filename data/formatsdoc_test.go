package data_test

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/data"
	_ "github.com/schedplan/schedplan/data/logs"
)

// TestFormatsDoc checks that docs/formats.md is what SchemaMarkdown
// generates from the column tables and the table of log formats, which
// package data/logs fills (-update rewrites it). It is an external test:
// package data cannot import data/logs.
func TestFormatsDoc(t *testing.T) {
	const path = "../docs/formats.md"
	want := data.SchemaMarkdown()
	if flag.Lookup("update").Value.(flag.Getter).Get().(bool) { // parquetv2_test.go's -update
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s differs from data.SchemaMarkdown(); regenerate it with go test ./data -run TestFormatsDoc -update", path)
	}
	for _, c := range data.Columns {
		if !strings.Contains(want, "| `"+c+"` |") {
			t.Errorf("column %s is not documented", c)
		}
	}
}
