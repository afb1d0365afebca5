package yamlstrict

import (
	"strings"
	"testing"
)

type doc struct {
	Version int    `yaml:"version"`
	Name    string `yaml:"name"`
}

func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		in, err string
	}{
		{"version: 1\nname: a\n", ""},
		{"", "f.yaml: empty thing"},
		{"version: 1\nnmae: a\n", "field nmae not found"},
		{"version: 1\n---\nversion: 2\n", "f.yaml: line 2: a second YAML document; a thing is one document"},
		{"version: [1\n", "f.yaml: yaml:"},
		{"version: x\n", "cannot unmarshal"},
	} {
		var d doc
		root, err := Decode([]byte(tc.in), "f.yaml", "thing", &d)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.in, err)
		case tc.err == "" && (d.Version != 1 || d.Name != "a" || root == nil || root.Content[0].Content[2].Line != 2):
			t.Errorf("%q: decoded %+v, root %v", tc.in, d, root)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: error %v, want %q", tc.in, err, tc.err)
		}
	}
}
