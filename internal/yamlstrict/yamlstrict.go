// Package yamlstrict decodes the project's YAML inputs (cluster specs,
// configuration bundles, PRISM profiles) one way: unknown fields are
// errors, so a misspelt key does not pass silently; an empty input and a
// second YAML document are errors; every message starts with the input's
// name. It also returns the document tree, so callers can name the line of
// a value they reject.
//
// It imports nothing of this module, so every package may use it (package
// cluster/task, which may import only cluster/sim among the simulation
// packages, included) without the fluid core taking a YAML dependency.
package yamlstrict

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"gopkg.in/yaml.v3"
)

// Decode decodes the one YAML document of b into v, which must be a
// pointer, rejecting unknown fields, and returns the document's node tree.
// name labels messages ("cluster.yaml"); what names the kind of input in
// them ("cluster spec").
func Decode(b []byte, name, what string, v any) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: empty %s", name, what)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case err == nil:
		return nil, fmt.Errorf("%s: line %d: a second YAML document; a %s is one document (remove the \"---\" and what follows, or merge them)", name, extra.Line, what)
	case !errors.Is(err, io.EOF):
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(b, &root); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &root, nil
}
