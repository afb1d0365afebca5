package pipeline

import (
	"context"
	"log/slog"
	"path/filepath"
	"reflect"
	"slices"
	"time"

	"github.com/schedplan/schedplan/data"
)

// besideTune are the stages computed in the background from the start of
// tune on, while tune runs, to use the cores it leaves idle in its serial
// parts. Each depends on ingest alone (it
// reads the run's inputs and ingest's state, never classify's or tune's)
// and writes only its own state, so computing it earlier changes nothing
// it computes: the outputs are byte for byte the same. They run one after
// the other in one goroutine, so that at most one of them holds its
// working memory beside the foreground stage's.
var besideTune = []string{"tune-hpfsp", "tune-coshh", "bounds"}

// besideFrom is the stage whose start starts the stages of besideTune.
// Not classify: beside classify's feature matrices, tune-coshh's working
// memory raised the peak RSS at 10 M jobs from 3.45 to 3.84 GB, for no
// time gained (146 s from classify, 148 s from tune; at 1 M, 33.0 and
// 34.7 s).
const besideFrom = "tune"

// ahead is a stage computed in the background: done is closed when its
// result (files, err) is in.
type ahead struct {
	done  chan struct{}
	files map[string][]byte
	err   error
}

// wait returns the stage's result once it is in, or ctx.Err().
func (a *ahead) wait(ctx context.Context) (map[string][]byte, error) {
	select {
	case <-a.done:
		return a.files, a.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// startBeside starts computing, in one goroutine, the stages of besideTune
// that this run computes and whose stamps are not up to date; the loop of
// Run then takes their results (runOf) instead of computing them. Nothing
// starts for a part of a stage (--stage, --shard) or for a stage after
// --until.
func (p *pipelineRun) startBeside(ctx context.Context, stages []stage) {
	so := &p.in.Config.Stages
	if so.Stage != "" || so.Sharding() {
		return
	}
	last := len(stages) - 1
	if so.Until != "" {
		last = slices.IndexFunc(stages, func(s stage) bool { return s.name == so.Until })
	}
	var todo []stage
	for k, s := range stages {
		if k > last || !slices.Contains(besideTune, s.name) || !p.due(s) {
			continue
		}
		todo = append(todo, s)
	}
	if len(todo) == 0 {
		return
	}
	p.ahead = map[string]*ahead{}
	for _, s := range todo {
		p.ahead[s.name] = &ahead{done: make(chan struct{})}
	}
	go func() {
		for _, s := range todo {
			a := p.ahead[s.name]
			t0 := time.Now()
			if a.err = ctx.Err(); a.err == nil {
				func() {
					defer data.CatchDroppedRow(&a.err) // a read past a column's release
					a.files, a.err = s.run(ctx)
				}()
			}
			slog.Info("stage computed in the background", "stage", s.name, "seconds", time.Since(t0).Seconds(), "ok", a.err == nil)
			close(a.done)
		}
	}()
}

// due reports whether stage s can be computed now (every stage it depends
// on is done) and must be (its stamp is not up to date).
func (p *pipelineRun) due(s stage) bool {
	key, err := p.r.KeyOf(s.name, s.params, s.deps, s.inputs...)
	if err != nil {
		return false
	}
	// A throwaway state, recorded as Run records it: the stamp's is
	// loaded by Stage, in its turn.
	state := &stamped{State: reflect.New(reflect.TypeOf(s.state).Elem()).Interface()}
	return !p.r.upToDate(filepath.Join(p.r.Dir, StampDir, s.name+".json"), s.name, key, state)
}

// runOf is what computes stage s: its result from the background when it
// was started there (startBeside), else s.run.
func (p *pipelineRun) runOf(s stage) func(context.Context) (map[string][]byte, error) {
	if a := p.ahead[s.name]; a != nil {
		return a.wait
	}
	return s.run
}
