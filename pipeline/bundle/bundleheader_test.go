package bundle

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// schedplan.yaml's header documents every top-level section of a Bundle
// once (it listed h_pfsp twice and queues not at all).
func TestBundleHeaderSections(t *testing.T) {
	listed := map[string]int{}
	for _, m := range regexp.MustCompile(`(?m)^#   ([a-z_]+) `).FindAllStringSubmatch(bundleHeader, -1) {
		listed[m[1]]++
	}
	typ := reflect.TypeOf(Bundle{})
	known := map[string]bool{}
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("yaml"), ",")
		known[name] = true
		switch name {
		case "version", "generator", "seed", "":
			continue
		}
		if listed[name] != 1 {
			t.Errorf("section %s is described %d times in the header, want once", name, listed[name])
		}
	}
	for name := range listed {
		if !known[name] {
			t.Errorf("the header describes %s, which a bundle does not have", name)
		}
	}
}
