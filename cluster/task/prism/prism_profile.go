package prism

// The PRISM profile file: phase-level resource profiles per job class.
//
// Format (YAML; JSON is YAML, so the same document in JSON loads too):
//
//	version: 1                 # format version (required)
//	fallback_shape: sort       # optional: the class whose phase durations
//	                           # shape FallbackProfile for unprofiled classes
//	profiles:                  # class name → profile (names are lower-cased)
//	  sort:
//	    source: "seed 004, Fig. 8"   # optional, free text
//	    map:                   # a map task: both phases, or omit the side
//	      map:   {duration_s: 7.43, cpu_cores: 0.1742, mem_gb: 0.108, disk_mb_s: 3.98, hdfs_mb_s: 7.17, net_mb_s: 0}
//	      merge: {duration_s: 1.25, ...}
//	    reduce:                # a reduce task: shuffle, sort, reduce, or omit
//	      shuffle: {...}
//	      sort:    {...}
//	      reduce:  {...}
//
// Per phase: duration_s (seconds, required, ≥ 0; a side's durations must
// not all be 0), and demands, each ≥ 0 and ≤ MaxAmount, default 0:
// cpu_cores (cores; 1 = one core busy), mem_gb (GB), disk_mb_s (local file
// system I/O, MB/s), hdfs_mb_s (HDFS I/O, MB/s: local disk when the task is
// data-local, network otherwise, see Phase.DemandOn) and net_mb_s (shuffle
// network I/O, MB/s). Unknown keys are errors, so a misspelt field does not
// pass silently; every error names the file, the line and the field.

import (
	_ "embed"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/schedplan/schedplan/internal/configfile"
	"github.com/schedplan/schedplan/internal/yamlstrict"
	"gopkg.in/yaml.v3"
)

// ProfileVersion is the version of the profile format this package reads.
const ProfileVersion = 1

// A ProfileSet holds the profiles of a profile file, by job class.
type ProfileSet struct {
	byClass map[string]*Profile
	shape   *Profile // FallbackProfile's duration shape; may be nil
}

// Lookup returns the profile of a job class (matched case-insensitively).
func (s *ProfileSet) Lookup(class string) (*Profile, bool) {
	p, ok := s.byClass[strings.ToLower(class)]
	return p, ok
}

// For returns the profile of class if the set has one, else the fallback
// of seed 004 §4 (FallbackProfile with the task-level demands mapTask and
// reduceTask, shaped by the file's fallback_shape class).
func (s *ProfileSet) For(class string, mapTask, reduceTask Vector) Profile {
	if p, ok := s.Lookup(class); ok {
		return *p
	}
	return FallbackProfile(strings.ToLower(class), mapTask, reduceTask, s.shape)
}

// Classes returns the profiled classes, sorted.
func (s *ProfileSet) Classes() []string {
	return slices.Sorted(maps.Keys(s.byClass))
}

//go:embed profiles/prism_default.yaml
var defaultProfiles []byte

// DefaultProfilesYAML returns the text of the embedded default profile
// file (seed 004 Fig. 8's sort profile).
func DefaultProfilesYAML() []byte { return slices.Clone(defaultProfiles) }

// DefaultProfiles returns the embedded default profiles.
func DefaultProfiles() *ProfileSet {
	s, err := ParseProfiles(defaultProfiles, "profiles/prism_default.yaml")
	if err != nil {
		panic("task: embedded default profiles are invalid: " + err.Error())
	}
	return s
}

// LoadProfiles reads a profile file; "" or "default" gives DefaultProfiles.
func LoadProfiles(path string) (*ProfileSet, error) {
	if path == "" || path == "default" {
		return DefaultProfiles(), nil
	}
	b, err := configfile.Read(path)
	if err != nil {
		return nil, err
	}
	return ParseProfiles(b, path)
}

type profileFile struct {
	Version       int                     `yaml:"version"`
	FallbackShape string                  `yaml:"fallback_shape"`
	Profiles      map[string]profileEntry `yaml:"profiles"`
}

type profileEntry struct {
	Source string                `yaml:"source"`
	Map    map[string]phaseEntry `yaml:"map"`
	Reduce map[string]phaseEntry `yaml:"reduce"`
}

type phaseEntry struct {
	Duration *float64 `yaml:"duration_s"`
	CPU      float64  `yaml:"cpu_cores"`
	Mem      float64  `yaml:"mem_gb"`
	Disk     float64  `yaml:"disk_mb_s"`
	HDFS     float64  `yaml:"hdfs_mb_s"`
	Net      float64  `yaml:"net_mb_s"`
}

// profileErr locates validation errors: the file name and the document
// tree, to find the line of a field.
type profileErr struct {
	name string
	root *yaml.Node
}

// at formats an error about the field at path (keys from the document
// root), with the line of the deepest key of path found in the document.
func (e profileErr) at(path []string, format string, args ...any) error {
	line := 0
	n := e.root
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	for _, key := range path {
		if n == nil || n.Kind != yaml.MappingNode {
			break
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				line, next = n.Content[i].Line, n.Content[i+1]
				break
			}
		}
		n = next
	}
	loc := e.name
	if line > 0 {
		loc = fmt.Sprintf("%s:%d", e.name, line)
	}
	return fmt.Errorf("%s: %s: %s", loc, strings.Join(path, "."), fmt.Sprintf(format, args...))
}

// ParseProfiles parses and checks a profile file; name is used in messages.
func ParseProfiles(b []byte, name string) (*ProfileSet, error) {
	var f profileFile
	root, err := yamlstrict.Decode(b, name, "profile file", &f)
	if err != nil {
		return nil, err
	}
	e := profileErr{name: name, root: root}
	if f.Version != ProfileVersion {
		return nil, e.at([]string{"version"}, "%d is not supported (want %d)", f.Version, ProfileVersion)
	}
	if len(f.Profiles) == 0 {
		return nil, e.at([]string{"profiles"}, "the file has no profiles")
	}
	s := &ProfileSet{byClass: make(map[string]*Profile, len(f.Profiles))}
	for _, key := range slices.Sorted(maps.Keys(f.Profiles)) {
		path := []string{"profiles", key}
		class := strings.ToLower(strings.TrimSpace(key))
		if class == "" {
			return nil, e.at(path, "class name is empty")
		}
		if _, dup := s.byClass[class]; dup {
			return nil, e.at(path, "class %q appears twice (names are case-insensitive)", class)
		}
		p, err := f.Profiles[key].profile(e, path, class)
		if err != nil {
			return nil, err
		}
		s.byClass[class] = p
	}
	if f.FallbackShape != "" {
		p, ok := s.Lookup(f.FallbackShape)
		if !ok {
			return nil, e.at([]string{"fallback_shape"}, "class %q has no profile in this file", f.FallbackShape)
		}
		s.shape = p
	}
	return s, nil
}

func (pe profileEntry) profile(e profileErr, path []string, class string) (*Profile, error) {
	p := &Profile{Class: class, Source: pe.Source}
	for s, phases := range [NumSides]map[string]phaseEntry{pe.Map, pe.Reduce} {
		side := Side(s)
		sp := append(slices.Clip(path), side.String())
		if phases == nil {
			continue
		}
		kinds := SidePhases(side)
		for name := range phases {
			if !slices.ContainsFunc(kinds, func(k PhaseKind) bool { return k.String() == name }) {
				return nil, e.at(append(sp, name), "not a %s-task phase (want %v)", side, kinds)
			}
		}
		total := 0.0
		for _, k := range kinds {
			x, ok := phases[k.String()]
			if !ok {
				return nil, e.at(sp, "phase %s is missing (a %s task has phases %v)", k, side, kinds)
			}
			ph, err := x.phase(e, append(slices.Clip(sp), k.String()), k)
			if err != nil {
				return nil, err
			}
			total += ph.Duration
			p.Sides[s] = append(p.Sides[s], ph)
		}
		if !(total > 0) || total > MaxAmount {
			return nil, e.at(sp, "phase durations sum to %v s; want a positive total ≤ %g s", total, float64(MaxAmount))
		}
	}
	if p.Sides[MapSide] == nil && p.Sides[ReduceSide] == nil {
		return nil, e.at(path, "profile has neither map nor reduce phases")
	}
	return p, nil
}

func (x phaseEntry) phase(e profileErr, path []string, k PhaseKind) (Phase, error) {
	if x.Duration == nil {
		return Phase{}, e.at(path, "duration_s is missing")
	}
	fields := []struct {
		key, unit string
		v         float64
	}{
		{"duration_s", "s", *x.Duration},
		{"cpu_cores", "cores", x.CPU},
		{"mem_gb", "GB", x.Mem},
		{"disk_mb_s", "MB/s", x.Disk},
		{"hdfs_mb_s", "MB/s", x.HDFS},
		{"net_mb_s", "MB/s", x.Net},
	}
	for _, f := range fields {
		if !(f.v >= 0 && f.v <= MaxAmount) {
			return Phase{}, e.at(append(slices.Clip(path), f.key), "must be in [0, %g] %s, got %v", float64(MaxAmount), f.unit, f.v)
		}
	}
	return Phase{
		Kind:     k,
		Duration: *x.Duration,
		Demand:   Vector{CPU: x.CPU, Memory: x.Mem, Disk: x.Disk, Network: x.Net},
		HDFS:     x.HDFS,
	}, nil
}
