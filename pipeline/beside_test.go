package pipeline

import (
	"context"
	"testing"
	"time"

	"github.com/schedplan/schedplan/pipeline/inputs"
)

// besideStages are a pipeline's stages around tune, each computing a
// counterState; the stages of besideTune block until release is closed
// and tell started when they begin.
func besideStages(started chan<- string, release <-chan struct{}) []stage {
	var out []stage
	for _, name := range []string{"ingest", "tune", "tune-coshh", "tune-hpfsp", "bounds", "tune-deploy"} {
		deps := []string{"ingest"}
		if name == "ingest" {
			deps = nil
		}
		if name == "tune-deploy" {
			deps = []string{"ingest", "tune", "tune-coshh", "tune-hpfsp", "bounds"}
		}
		st := &counterState{}
		out = append(out, stage{name: name, params: name, deps: deps, state: st, run: func(context.Context) (map[string][]byte, error) {
			started <- name
			<-release
			st.N++
			return nil, nil
		}})
	}
	return out
}

// The stages of besideTune start in the background (startBeside), one after
// the other, and the loop takes their results; none starts when its stamp
// is up to date, after --until, or for a part of a stage.
func TestStagesBesideTuneStartWhileTuneRuns(t *testing.T) {
	for _, tc := range []struct {
		name  string
		stage inputs.StageOptions
		done  string // a stage stamped up to date before
		want  []string
	}{
		{name: "whole run", want: []string{"tune-coshh", "tune-hpfsp", "bounds"}},
		{name: "until tune-hpfsp", stage: inputs.StageOptions{Until: "tune-hpfsp"}, want: []string{"tune-coshh", "tune-hpfsp"}},
		{name: "until tune", stage: inputs.StageOptions{Until: "tune"}},
		{name: "a stage's part", stage: inputs.StageOptions{Stage: "tune"}},
		{name: "coshh up to date", done: "tune-coshh", want: []string{"tune-hpfsp", "bounds"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &Runner{Dir: t.TempDir()}
			if err := r.Open(); err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			in := &inputs.Inputs{}
			in.Config.Stages = tc.stage
			p := &pipelineRun{in: in, r: r}
			started := make(chan string, 10)
			release := make(chan struct{})
			stages := besideStages(started, release)
			r.keys["ingest"] = "ingest key"
			if tc.done != "" {
				for _, s := range stages {
					if s.name == tc.done {
						key, err := r.KeyOf(s.name, s.params, s.deps)
						if err != nil {
							t.Fatal(err)
						}
						if err := r.Stage(s.name, key, &stamped{State: s.state}, func() (map[string][]byte, error) { return nil, nil }); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			p.startBeside(ctx, stages)
			// The first starts at once, before tune (not run here) ends;
			// the others wait for it: one at a time.
			var got []string
			for range tc.want {
				select {
				case name := <-started:
					got = append(got, name)
				case <-time.After(10 * time.Second):
					t.Fatalf("started %v, want %v", got, tc.want)
				}
				select {
				case name := <-started:
					t.Fatalf("%s started beside %s", name, got[len(got)-1])
				case <-time.After(20 * time.Millisecond):
				}
				if len(got) == len(tc.want) {
					break
				}
				release <- struct{}{}
			}
			close(release)
			for i, name := range tc.want {
				if got[i] != name {
					t.Fatalf("started %v, want %v", got, tc.want)
				}
			}
			for _, s := range stages {
				_, ahead := p.ahead[s.name]
				want := false
				for _, w := range tc.want {
					want = want || w == s.name
				}
				if ahead != want {
					t.Errorf("%s computed ahead: %v, want %v", s.name, ahead, want)
				}
				if ahead {
					if _, err := p.runOf(s)(ctx); err != nil {
						t.Errorf("%s: %v", s.name, err)
					}
					if n := s.state.(*counterState).N; n != 1 {
						t.Errorf("%s ran %d times", s.name, n)
					}
				}
			}
			select {
			case name := <-started:
				t.Errorf("%s started, want only %v", name, tc.want)
			default:
			}
		})
	}
}
