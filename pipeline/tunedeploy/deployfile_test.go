package tunedeploy

import (
	"bytes"
	"testing"

	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// TestDeployCandidatesKeepTheirFiles checks that every deployable
// candidate keeps the file deployCandidates rendered, byte for byte the
// file render gives (what TuneDeploy wrote before it kept them), and keep
// none.
func TestDeployCandidatesKeepTheirFiles(t *testing.T) {
	b := tunedBundle()
	tr := &tuner.TuneReport{Best: tuner.LASMQParams{K: 3, Alpha0: 1, P: 4, Decay: 0.5}, Result: &tuner.TuneResult{}}
	opt := bundle.FairSchedulerOptions{ContainerMB: 2048}
	cands, err := deployCandidates(tr, b, "fair:pool=user", "fair", opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cands {
		want, err := c.render(b, opt)
		if err != nil {
			t.Fatal(err)
		}
		if c.deployable() != (c.file != nil) || !bytes.Equal(c.file, want) {
			t.Errorf("%s: kept %d bytes, render gives %d", c.Name, len(c.file), len(want))
		}
	}
}
