package pipeline

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/tunedeploy"
)

// CheckContainerMB checks --container-mb (the memory of one container, MB)
// of the commands that take it outside a run (emit, yarn-controller).
func CheckContainerMB(mb int) error {
	if mb < 1 || mb > inputs.MaxContainerMB {
		return experiment.ParamErr("container-mb", mb, "want 1 to %d MB", inputs.MaxContainerMB)
	}
	return nil
}

// EmitYARNFiles renders the bundle at path as capacity-scheduler.xml and
// fair-scheduler.xml into dir (schedplan emit; BundleYARN: as run wrote
// them, for the same --container-mb), each written whole; unless
// force, it writes neither when either exists. dir follows the output rule
// (CheckOutDir: created when missing; a folder of other files, a link or
// the root refused). It returns the files
// written, in order, also when a later one fails.
func EmitYARNFiles(path, dir string, force bool, containerMB int) ([]string, error) {
	if err := CheckContainerMB(containerMB); err != nil {
		return nil, err
	}
	if dir == "" {
		return nil, fmt.Errorf("--out: no directory given")
	}
	names := []string{"capacity-scheduler.xml", "fair-scheduler.xml"}
	if err := CheckOutDir("--out", dir, force, names...); err != nil {
		return nil, err
	}
	b, err := bundle.LoadBundle(path)
	if err != nil {
		return nil, experiment.ParamErr("config", path, "%v", err)
	}
	files, err := tunedeploy.BundleYARN(b, containerMB)
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		if p := filepath.Join(dir, name); !force {
			if _, err := os.Lstat(p); err == nil {
				return nil, fmt.Errorf("%s: %w", p, data.ErrExists)
			}
		}
	}
	if err := MakeOutDir("--out", dir); err != nil {
		return nil, err
	}
	var written []string
	for _, name := range names {
		p := filepath.Join(dir, name)
		if err := data.WriteBytesAtomic(p, force, files[name]); err != nil {
			return written, destError(p, err)
		}
		written = append(written, p)
	}
	return written, nil
}
