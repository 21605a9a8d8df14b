// Package progress reports a long run on stderr: a line redrawn in place
// on a terminal, fitted to its width, a log line every ten seconds
// otherwise, nothing when quiet; counts are by solver status.
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/term"
)

// Bar reports one run: a line redrawn in place on a terminal, a log line
// every ten seconds otherwise, and nothing when quiet. A run of unknown
// total (-1), such as a phase that counts nothing, shows its elapsed time,
// which a terminal's line updates every second.
type Bar struct {
	mu       sync.Mutex
	what     string
	total    int // -1 if unknown
	w        io.Writer
	tty      bool
	width    func() int // the terminal's width in columns
	start    time.Time
	started  int // the count at Start: the rate counts what came after
	lastLog  time.Time
	lastDraw time.Time
	logEvery time.Duration
	done     int
	counts   [3]int // indexed by status (sat/unsat/unknown) or by class
	names    []string
	stop     chan struct{}
	finished bool
	drawn    bool
	resumed  bool // Start was called

	// unit names what done counts, "instances" unless Units says;
	// tallyOf what counts counts, when not the same things ("" then).
	unit, tallyOf string
}

// drawEvery is the shortest time between two redraws of a terminal line.
const drawEvery = 200 * time.Millisecond

// NewClasses is New for a run whose items fall into up to three named
// classes (such as entailment's labels), counted by AddClass.
func NewClasses(w io.Writer, what string, total int, quiet bool, names ...string) *Bar {
	p := New(w, what, total, quiet)
	p.mu.Lock()
	p.names = names
	p.mu.Unlock()
	return p
}

// NewSteps is New for a run of total steps (-1: unknown) that counts no
// statuses, such as writing a file; Step counts one.
func NewSteps(w io.Writer, what string, total int, quiet bool) *Bar {
	p := New(w, what, total, quiet)
	p.mu.Lock()
	p.names = []string{}
	p.mu.Unlock()
	return p
}

// Step records one finished step of a run of NewSteps.
func (p *Bar) Step() { p.Add(Sat, true) }

// Set sets the count done to n, for a run whose progress is not one
// instance at a time (see Add).
func (p *Bar) Set(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done = n
	if now := time.Now(); p.w != nil && !p.finished && (now.Sub(p.lastDraw) >= drawEvery || n == p.total) {
		if p.tty {
			p.draw(now)
		} else if now.Sub(p.lastLog) >= p.logEvery {
			p.lastLog = now
			fmt.Fprintf(p.w, "nlsat: %s: %s\n", p.what, p.status(now))
		}
	}
}

// AddClass records one finished item of class k (an index into the
// names given to NewClasses); it counts towards the total.
func (p *Bar) AddClass(k int) { p.Add(k, true) }

// The statuses a bar of New counts, numbered as solver.Status numbers
// them (the engine does not import the solver; the face converts).
const (
	Unknown = 0
	Sat     = 1
	Unsat   = 2
)

// New starts the report of a run of total instances (-1: unknown) on w,
// described as what.
func New(w io.Writer, what string, total int, quiet bool) *Bar {
	if quiet {
		w = nil
	}
	var width func() int
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		width = func() int {
			if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
				return cols
			}
			return 80
		}
	}
	return newBar(w, what, total, width)
}

// newBar is New on w, drawn as on a terminal of width() columns when
// width is not nil.
func newBar(w io.Writer, what string, total int, width func() int) *Bar {
	p := &Bar{what: what, total: total, w: w, start: time.Now(), logEvery: 10 * time.Second}
	p.lastLog = p.start
	if w != nil && width != nil {
		p.tty, p.width = true, width
		p.stop = make(chan struct{})
		if total < 0 {
			p.draw(p.start) // a step that counts nothing shows at once
		}
		go p.tick()
	}
	return p
}

// tick redraws the line every second, so that the elapsed time and the
// estimate move while no instance finishes.
func (p *Bar) tick() {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.mu.Lock()
			p.draw(time.Now())
			p.mu.Unlock()
		}
	}
}

// Units names what the count counts (instances, unless set) and, when
// the tally counts other things, what they are: a split's set counts its
// accepted records and tallies the labels of the candidates it collected
// towards them, more than it accepts. It returns p.
func (p *Bar) Units(unit, tallyOf string) *Bar {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.unit, p.tallyOf = unit, tallyOf
	return p
}

// tallyText is the tally as the line and the log show it, in
// parentheses, or "" for a bar without one.
func (p *Bar) tallyText() string {
	t := p.tally()
	if t == "" {
		return ""
	}
	if p.tallyOf != "" {
		t = p.tallyOf + ": " + t
	}
	return "(" + t + ")"
}

// Add records one finished item of class k (a status for a bar of New,
// an index into the names given to NewClasses); advance says whether it
// counts towards the total (an instance drawn again does not).
func (p *Bar) Add(k int, advance bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.counts[k]++
	if !advance {
		return
	}
	p.done++
	if p.w == nil || p.finished {
		return
	}
	now := time.Now()
	if p.tty {
		if now.Sub(p.lastDraw) >= drawEvery || p.done == p.total {
			p.draw(now)
		}
		return
	}
	if now.Sub(p.lastLog) >= p.logEvery {
		p.lastLog = now
		fmt.Fprintf(p.w, "nlsat: %s: %s\n", p.what, p.status(now))
	}
}

// draw redraws the terminal line: a carriage return, the line fitted to
// the width, and an erase to the end of the line.
func (p *Bar) draw(now time.Time) {
	if !p.tty || p.finished {
		return
	}
	p.lastDraw = now
	p.drawn = true
	fmt.Fprintf(p.w, "\r%s\x1b[K", p.line(now, p.width()))
}

func (p *Bar) tally() string {
	if p.names != nil {
		parts := []string{}
		for k, n := range p.names {
			parts = append(parts, fmt.Sprintf("%d %s", p.counts[k], n))
		}
		return strings.Join(parts, ", ")
	}
	return fmt.Sprintf("%d sat, %d unsat, %d unknown", p.counts[Sat], p.counts[Unsat], p.counts[Unknown])
}

// rate is the number of instances per second since Start, and the
// estimated time left (-1 when it cannot be told).
func (p *Bar) rate(now time.Time) (float64, time.Duration) {
	el := now.Sub(p.start).Seconds()
	rate := float64(p.done-p.started) / max(el, 1e-9)
	if p.total <= 0 || p.done > p.total || rate <= 0 || el < 1 {
		return rate, -1
	}
	return rate, time.Duration(float64(p.total-p.done) / rate * float64(time.Second)).Round(time.Second)
}

// status is the log line's text.
func (p *Bar) status(now time.Time) string {
	rate, eta := p.rate(now)
	s := fmt.Sprintf("%d", p.done)
	if p.total > 0 {
		s += fmt.Sprintf("/%d", p.total)
	}
	if t := p.tallyText(); t != "" {
		unit := p.unit
		if unit == "" {
			unit = "instances"
		}
		s += " " + unit + " " + t
	}
	s += fmt.Sprintf(", %.0f/s", rate)
	if eta >= 0 {
		s += fmt.Sprintf(", ETA %s", eta)
	}
	return s
}

// line is the terminal line, at most width-1 columns (a line that reaches
// the last column makes some terminals wrap). It drops what fits least,
// in this order: the tally, the rate, the bar, the elapsed time; what is
// cut last.
func (p *Bar) line(now time.Time, width int) string {
	width = max(width-1, 10)
	elapsed := now.Sub(p.start).Round(time.Second)
	if p.total < 0 {
		// Nothing to count: what, and for how long.
		return fit(p.what, width-len(elapsed.String())-1) + " " + elapsed.String()
	}
	rate, eta := p.rate(now)
	count := fmt.Sprintf("%d/%d", p.done, p.total)
	pct := ""
	frac := 0.0
	if p.total > 0 && p.done <= p.total {
		frac = float64(p.done) / float64(p.total)
		pct = fmt.Sprintf("%3d%%", int(frac*100))
	} else {
		count = fmt.Sprintf("%d", p.done) // past the total: the total was wrong
	}
	if p.unit != "" {
		count += " " + p.unit
	}
	timing := elapsed.String()
	if eta >= 0 {
		timing += ", ETA " + eta.String()
	}
	tally := p.tallyText()
	rateText := fmt.Sprintf("%.0f/s", rate)
	if now.Sub(p.start) < time.Second {
		rateText = "" // too soon to tell
	}
	type layout struct{ tally, rate, bar, timing bool }
	for _, l := range []layout{{true, true, true, true}, {false, true, true, true}, {false, false, true, true}, {false, false, false, true}, {false, false, false, false}} {
		parts := []string{p.what}
		if pct != "" {
			parts = append(parts, pct)
		}
		barAt := len(parts)
		if l.bar && pct != "" {
			parts = append(parts, "")
		}
		parts = append(parts, count)
		if l.tally && tally != "" {
			parts = append(parts, tally)
		}
		if l.rate && rateText != "" {
			parts = append(parts, rateText)
		}
		if l.timing {
			parts = append(parts, timing)
		}
		fixed := columns(strings.Join(parts, " "))
		if l.bar && pct != "" {
			// The bar takes what is left, between 10 and 40 columns.
			cells := min(width-fixed-2, 40)
			if cells < 10 {
				continue
			}
			n := int(frac * float64(cells))
			parts[barAt] = "[" + strings.Repeat("#", n) + strings.Repeat(".", cells-n) + "]"
			return strings.Join(parts, " ")
		}
		if fixed <= width {
			return strings.Join(parts, " ")
		}
	}
	return fit(p.what+" "+count, width)
}

// fit cuts s to at most n columns, marking the cut with "…".
func fit(s string, n int) string {
	if columns(s) <= n {
		return s
	}
	if n < 1 {
		return ""
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// columns is the number of terminal columns s takes (one per rune: the
// lines hold no wide characters).
func columns(s string) int { return utf8.RuneCountInString(s) }

// Finish clears the terminal line and stops its redraws; a Bar finished
// draws no more.
func (p *Bar) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished {
		return
	}
	p.finished = true
	if p.stop != nil {
		close(p.stop)
	}
	if p.tty && p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

// Start counts done instances as finished already (a resumed run's); the
// rate and the estimate count only those that finish after its first
// call. Called again, it only sets the count.
func (p *Bar) Start(done int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done = done
	if !p.resumed {
		p.resumed = true
		p.started, p.start = done, time.Now()
	}
	if p.w != nil && time.Since(p.lastDraw) >= drawEvery {
		p.draw(time.Now())
	}
}

// Done is the number of instances counted towards the total: those of
// Start and those added since.
func (p *Bar) Done() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.done
}

// What is the run's description.
func (p *Bar) What() string { return p.what }

// IsTerminal reports whether w is a terminal, for progress bars.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
