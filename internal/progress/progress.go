// Package progress reports a long run on stderr: a bar on a terminal, a
// log line every ten seconds otherwise, nothing when quiet; counts are
// by solver status.
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/nlsat/nlsat/internal/solver"
)

// Bar reports one run: a bar on a terminal, a log line every ten seconds
// otherwise, and nothing when quiet.
type Bar struct {
	what     string
	total    int // -1 if unknown
	w        io.Writer
	bar      *progressbar.ProgressBar
	start    time.Time
	lastLog  time.Time
	logEvery time.Duration
	done     int
	counts   [3]int // indexed by solver.Status, or by class with names
	names    []string
}

// NewClasses is New for a run whose items fall into up to three named
// classes (such as entailment's labels), counted by AddClass.
func NewClasses(w io.Writer, what string, total int, quiet bool, names ...string) *Bar {
	p := New(w, what, total, quiet)
	p.names = names
	return p
}

// AddClass records one finished item of class k (an index into the
// names given to NewClasses); it counts towards the total.
func (p *Bar) AddClass(k int) { p.Add(solver.Status(k), true) }

// New starts the report of a run of total instances (-1: unknown) on w,
// described as what.
func New(w io.Writer, what string, total int, quiet bool) *Bar {
	p := &Bar{what: what, total: total, w: w, start: time.Now(), logEvery: 10 * time.Second}
	p.lastLog = p.start
	if quiet {
		p.w = nil
		return p
	}
	if IsTerminal(w) {
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

// Add records one finished instance with its status; advance says
// whether it counts towards the total (an instance drawn again does not).
func (p *Bar) Add(st solver.Status, advance bool) {
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

func (p *Bar) tally() string {
	if p.names != nil {
		var parts []string
		for k, n := range p.names {
			parts = append(parts, fmt.Sprintf("%d %s", p.counts[k], n))
		}
		return strings.Join(parts, ", ")
	}
	return fmt.Sprintf("%d sat, %d unsat, %d unknown", p.counts[solver.Sat], p.counts[solver.Unsat], p.counts[solver.Unknown])
}

func (p *Bar) status(now time.Time) string {
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

// Finish clears the bar.
func (p *Bar) Finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}

// Start counts done instances as finished already (a resumed run's).
func (p *Bar) Start(done int) {
	p.done = done
	if p.bar != nil {
		p.bar.Set(done)
	}
}

// Done is the number of instances counted towards the total: those of
// Start and those added since.
func (p *Bar) Done() int { return p.done }

// What is the run's description.
func (p *Bar) What() string { return p.what }

// IsTerminal reports whether w is a terminal, for progress bars.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
