// Package memlimit keeps the Go runtime's soft memory limit a little above
// the largest live heap a command has had, so that its resident memory
// follows what it holds at its peak rather than twice that.
//
// The collector lets the heap grow to twice what survived the last
// collection before it collects again (GOGC=100), and hands freed memory
// back to the system slowly: a build whose live heap peaked at 600 MB
// while it fitted its models peaked at 1.7 GB of resident memory. A soft
// limit (runtime/debug.SetMemoryLimit) makes the runtime collect, and
// return memory, as the heap nears it. Follow sets it, after every
// collection, to Headroom times the largest live heap any collection has
// left so far, and never below Floor. Near its peak a command so
// collects more often; away from it (a build deciding instances, whose
// live heap is half its peak while it allocates fast) the limit is above
// twice the live heap and the collector paces itself as it always did,
// at no cost in time. (A limit of Headroom times the current live heap
// instead held that build to the same peak but cost a quarter more CPU.)
// A limit set in the environment (GOMEMLIMIT) is the user's, and Follow
// leaves it alone.
//
// The floor keeps a small heap from collecting at every few megabytes. A
// stretch whose heap stays live until it ends (an audit holds what it
// has read until its last model is fitted) can lower it (Tighten): there
// the floor, not the headroom, set the limit, and the heap grew to it.
package memlimit

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// The limit Follow keeps: Headroom times the largest live heap after a
// collection, at least Floor bytes.
const (
	Headroom = 1.25
	Floor    = 256 << 20
	// TightFloor is the floor while a Tighten lasts.
	TightFloor = 64 << 20
)

// Follow starts keeping the limit and returns the function that stops and
// puts back the limit there was before. It does nothing where GOMEMLIMIT
// is set.
func Follow() (stop func()) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return func() {}
	}
	return follow(Floor, Headroom)
}

// follow is Follow with its floor and headroom given.
func follow(floor int64, headroom float64) (stop func()) {
	prev := debug.SetMemoryLimit(-1)
	f := &follower{floor: floor, headroom: headroom}
	f.set()
	f.arm()
	current.Lock()
	current.f = f
	current.Unlock()
	return func() {
		current.Lock()
		if current.f == f {
			current.f = nil
		}
		current.Unlock()
		f.mu.Lock()
		f.stopped = true
		f.mu.Unlock()
		debug.SetMemoryLimit(prev)
	}
}

// current is the follower Follow started, for Tighten.
var current struct {
	sync.Mutex
	f *follower
}

// Tighten lowers the floor of the limit Follow keeps to TightFloor (or
// leaves it, if lower) until the function it returns is called. Calls
// that overlap share one lowering. Where no limit is followed it does
// nothing.
func Tighten() (restore func()) {
	current.Lock()
	f := current.f
	current.Unlock()
	if f == nil {
		return func() {}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tight++
	if !f.stopped {
		f.set()
	}
	return sync.OnceFunc(func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.tight--
		if !f.stopped {
			f.set()
		}
	})
}

type follower struct {
	floor    int64
	headroom float64
	mu       sync.Mutex
	stopped  bool
	peak     uint64 // the largest live heap seen
	tight    int    // Tighten calls not yet restored
	sample   [1]metrics.Sample
}

// sentinel is an object only a finalizer refers to: it is unreachable as
// soon as it is made, so the collection after it runs its finalizer. It
// holds a pointer, so that the runtime does not pack it with other small
// objects (a finalizer on such an object may never run).
type sentinel struct{ _ *byte }

// arm makes the next collection call f.collected.
func (f *follower) arm() {
	runtime.SetFinalizer(&sentinel{}, func(*sentinel) { f.collected() })
}

// collected sets the limit from what the collection that just ended left
// live, and arms for the next one, until f is stopped.
func (f *follower) collected() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopped {
		return
	}
	f.set()
	f.arm()
}

// set sets the limit from the largest live heap a collection has
// measured. The caller holds f.mu or is the only one using f.
func (f *follower) set() {
	f.sample[0].Name = "/gc/heap/live:bytes"
	metrics.Read(f.sample[:])
	f.peak = max(f.peak, f.sample[0].Value.Uint64())
	floor := f.floor
	if f.tight > 0 {
		floor = min(floor, TightFloor)
	}
	limit := max(floor, int64(math.Min(float64(f.peak)*f.headroom, math.MaxInt64/2)))
	debug.SetMemoryLimit(limit)
}
