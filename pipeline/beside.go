package pipeline

import (
	"context"
	"log/slog"
	"path/filepath"
	"reflect"
	"slices"
	"time"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/pipeline/tunedeploy"
	"github.com/schedplan/schedplan/pipeline/validation"
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
	release := releaseAfter(todo, stages[:last+1])
	go func() {
		failed := false
		for _, s := range todo {
			a := p.ahead[s.name]
			t0 := time.Now()
			if a.err = ctx.Err(); a.err == nil {
				a.err = p.in.CheckTuningRows(s.name) // here, not in Run's loop: this goroutine releases rows
			}
			if a.err == nil {
				func() {
					defer data.CatchDroppedRow(&a.err) // a read past a column's release
					a.files, a.err = s.run(ctx)
				}()
			}
			failed = failed || a.err != nil
			if s.name == release && !failed && ctx.Err() == nil {
				a.err = p.releaseBytes() // before done is closed: Run's loop reads the columns after it
			}
			slog.Info("stage computed in the background", "stage", s.name, "seconds", time.Since(t0).Seconds(), "ok", a.err == nil)
			close(a.done)
		}
	}()
}

// byteReaders are the stages of besideTune that read the tuning window's
// byte columns; once both are done, no later stage reads more of the
// tuning window's bytes than tune-deploy's chunks (deployRows), so they
// are released then (releaseBytes), before tune's post-search comparison
// and tune-deploy, where the run's peak is.
var byteReaders = []string{"tune-hpfsp", "tune-coshh"}

// releaseAfter is the stage of todo (the stages computed beside tune)
// after which their goroutine releases the bytes: the last of byteReaders
// among them, when every one of byteReaders is in run (the stages this
// run computes or skips: those not in todo are up to date); "" when none
// is computed there or one is not in run (--until stops before it).
func releaseAfter(todo, run []stage) string {
	if !readersIn(run) {
		return ""
	}
	for k := len(todo) - 1; k >= 0; k-- {
		if slices.Contains(byteReaders, todo[k].name) {
			return todo[k].name
		}
	}
	return ""
}

// deployRows are the rows of the tuning window whose bytes tune-deploy
// reads: its chunks (tunedeploy.DeployChunksOf; budgetChunks cuts each to
// a suffix of itself).
func (p *pipelineRun) deployRows() []data.RowRange {
	var out []data.RowRange
	for _, ch := range tunedeploy.DeployChunksOf(0, p.in.Split.TuneJobs, tunedeploy.DeployChunks, tunedeploy.DeployChunkJobs) {
		out = append(out, data.RowRange{Lo: ch.FirstRow - 1, Hi: ch.FirstRow - 1 + ch.Jobs})
	}
	return out
}

// releaseBytes keeps, of the byte columns, tune-deploy's rows of the
// tuning window and the validation window with COSHH's refit history
// (inputs.ReleaseTuningBytes); a no-op when called again.
func (p *pipelineRun) releaseBytes() error {
	return p.in.ReleaseTuningBytes(p.deployRows(), validation.COSHHRefitRows)
}

// readersIn reports whether every stage of byteReaders is among ss.
func readersIn(ss []stage) bool {
	for _, name := range byteReaders {
		if !slices.ContainsFunc(ss, func(s stage) bool { return s.name == name }) {
			return false
		}
	}
	return true
}

// besideDone is the hook of Run's loop once the result of done's last
// stage is in (computed, taken from the background or skipped), done the
// stages so far: when that stage is of byteReaders and the others are in
// done too, the bytes are released (releaseBytes; a no-op when the
// goroutine beside tune released them already, which it did before
// closing the last one's done).
func (p *pipelineRun) besideDone(done []stage) error {
	if !slices.Contains(byteReaders, done[len(done)-1].name) || !readersIn(done) {
		return nil
	}
	return p.releaseBytes()
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
// was started there (startBeside), else s.run once CheckTuningRows lets
// it.
func (p *pipelineRun) runOf(s stage) func(context.Context) (map[string][]byte, error) {
	if a := p.ahead[s.name]; a != nil {
		return a.wait // checked there (CheckTuningRows)
	}
	return func(ctx context.Context) (map[string][]byte, error) {
		if err := p.in.CheckTuningRows(s.name); err != nil {
			return nil, err
		}
		return s.run(ctx)
	}
}
