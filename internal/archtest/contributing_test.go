package archtest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// codeRef is CONTRIBUTING.md's marker before a Go block that shows a
// region of a test file: <!-- code: FILE REGION -->. The region sits
// between "// contributing:begin REGION" and "// contributing:end" in
// FILE, a test that compiles and runs it.
var codeRef = regexp.MustCompile(`^<!-- code: (\S+) (\S+) -->$`)

// TestContributingShowsTestedCode checks that every Go block of
// CONTRIBUTING.md's walk-throughs is, line for line, the region of the
// test file that builds, registers and runs it: the guide cannot drift
// from code that works.
func TestContributingShowsTestedCode(t *testing.T) {
	root := filepath.Join("..", "..")
	raw, err := os.ReadFile(filepath.Join(root, "CONTRIBUTING.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	n := 0
	for i := 0; i < len(lines); i++ {
		m := codeRef.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		n++
		if i+1 >= len(lines) || lines[i+1] != "```go" {
			t.Errorf("CONTRIBUTING.md:%d: a code marker not followed by a ```go block", i+1)
			continue
		}
		var shown []string
		j := i + 2
		for ; j < len(lines) && lines[j] != "```"; j++ {
			shown = append(shown, lines[j])
		}
		want, err := region(filepath.Join(root, m[1]), m[2])
		if err != nil {
			t.Errorf("CONTRIBUTING.md:%d: %v", i+1, err)
			continue
		}
		if got := strings.Join(shown, "\n"); got != want {
			t.Errorf("CONTRIBUTING.md:%d shows other code than %s's region %s; the test's code is:\n%s", i+1, m[1], m[2], want)
		}
		i = j
	}
	if n < 4 {
		t.Errorf("CONTRIBUTING.md has %d tested code blocks, want the four walk-throughs' (two policies, two registry entries)", n)
	}
}

// region returns the lines of file between "// contributing:begin name"
// and "// contributing:end", without their common indentation and
// surrounding blank lines.
func region(file, name string) (string, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	var out []string
	on, found := false, false
	for _, l := range strings.Split(string(raw), "\n") {
		switch strings.TrimSpace(l) {
		case "// contributing:begin " + name:
			on, found = true, true
			continue
		case "// contributing:end":
			on = false
		}
		if on {
			out = append(out, l)
		}
	}
	if !found {
		return "", &os.PathError{Op: "region " + name, Path: file, Err: os.ErrNotExist}
	}
	indent := -1
	for _, l := range out {
		if strings.TrimSpace(l) != "" {
			k := len(l) - len(strings.TrimLeft(l, "\t"))
			if indent < 0 || k < indent {
				indent = k
			}
		}
	}
	for i, l := range out {
		if len(l) >= indent && indent > 0 {
			out[i] = l[indent:]
		}
	}
	for len(out) > 0 && strings.TrimSpace(out[0]) == "" {
		out = out[1:]
	}
	for len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
		out = out[:len(out)-1]
	}
	return strings.Join(out, "\n"), nil
}
