package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/solver"
)

// progress reports a long run on stderr: a bar on a terminal, a log line
// every logEvery otherwise, and nothing when quiet. Counts are by status.
type progress struct {
	what     string
	total    int // -1 if unknown
	w        io.Writer
	bar      *progressbar.ProgressBar
	start    time.Time
	lastLog  time.Time
	logEvery time.Duration
	done     int
	counts   [3]int // indexed by solver.Status
}

func newProgress(w io.Writer, what string, total int, quiet bool) *progress {
	p := &progress{what: what, total: total, w: w, start: time.Now(), logEvery: 10 * time.Second}
	p.lastLog = p.start
	if quiet {
		p.w = nil
		return p
	}
	if isTerminal(w) {
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription(what),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("inst"),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
	}
	return p
}

// add records one finished instance with its status; advance says
// whether it counts towards the total (an instance drawn again does not).
func (p *progress) add(st solver.Status, advance bool) {
	p.counts[st]++
	if !advance {
		return
	}
	p.done++
	if p.w == nil {
		return
	}
	if p.bar != nil {
		p.bar.Describe(fmt.Sprintf("%s (%s)", p.what, p.tally()))
		p.bar.Add(1)
		return
	}
	if now := time.Now(); now.Sub(p.lastLog) >= p.logEvery {
		p.lastLog = now
		fmt.Fprintf(p.w, "nlsat: %s: %s\n", p.what, p.status(now))
	}
}

func (p *progress) tally() string {
	return fmt.Sprintf("%d sat, %d unsat, %d unknown", p.counts[solver.Sat], p.counts[solver.Unsat], p.counts[solver.Unknown])
}

func (p *progress) status(now time.Time) string {
	el := now.Sub(p.start).Seconds()
	rate := float64(p.done) / max(el, 1e-9)
	s := fmt.Sprintf("%d", p.done)
	if p.total > 0 {
		s += fmt.Sprintf("/%d", p.total)
	}
	s += fmt.Sprintf(" instances (%s), %.0f/s", p.tally(), rate)
	if p.total > 0 && rate > 0 {
		s += fmt.Sprintf(", ETA %s", time.Duration(float64(p.total-p.done)/rate*float64(time.Second)).Round(time.Second))
	}
	return s
}

// finish clears the bar.
func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}

// commitRun ends a run that writes one output file: it finishes the
// progress bar and commits out, unless the run failed (err) or was
// interrupted, in which case out is left for its deferred Abort.
func commitRun(ctx context.Context, prog *progress, out *dataset.AtomicFile, err error) error {
	prog.finish()
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return err
	}
	return out.Commit()
}
