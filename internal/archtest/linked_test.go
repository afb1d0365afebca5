package archtest

import (
	"os/exec"
	"strings"
	"testing"
)

// unlinked are packages the schedplan binary must not link: it never
// speaks Arrow Flight (gRPC, protobuf) and computes nothing with Arrow's
// compute kernels. arrow-go's parquet/pqarrow imports all of them, which
// is why data/internal/colfile reads and writes Parquet on parquet/file
// instead (issue 30: start-up time and binary size).
var unlinked = []string{
	"github.com/apache/arrow/go/v17/arrow/flight",
	"github.com/apache/arrow/go/v17/arrow/compute",
	"github.com/apache/arrow/go/v17/parquet/pqarrow",
	"google.golang.org/grpc",
	"google.golang.org/protobuf",
}

// TestBinaryLinksOnlyWhatItUses fails when the schedplan command depends,
// directly or not, on a package of unlinked.
func TestBinaryLinksOnlyWhatItUses(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", module+"/cmd/schedplan").Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("go list -deps: %v\n%s", err, stderr)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, u := range unlinked {
			if dep == u || strings.HasPrefix(dep, u+"/") {
				t.Errorf("cmd/schedplan links %s (under %s)", dep, u)
			}
		}
	}
}
