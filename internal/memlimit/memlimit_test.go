package memlimit

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// limitAfterGC collects and waits for the follower to set the limit (it
// runs in the finalizer goroutine), returning it once ok(limit) holds
// or wait has passed.
func limitAfterGC(wait time.Duration, ok func(limit int64) bool) int64 {
	deadline := time.Now().Add(wait)
	for {
		runtime.GC()
		l := debug.SetMemoryLimit(-1)
		if ok(l) || time.Now().After(deadline) {
			return l
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestFollow: the limit follows the largest live heap after
// collections, at the headroom above it, stays there when the heap is let
// go, and is what it was before once stopped.
func TestFollow(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	const floor, live = 8 << 20, 64 << 20
	stop := follow(floor, 1.5)
	if l := limitAfterGC(5*time.Second, func(l int64) bool { return l == floor }); l != floor {
		t.Errorf("with little live, limit %d MB: want the floor, %d MB", l>>20, floor>>20)
	}
	held := make([]byte, live)
	for i := range held {
		held[i] = 1
	}
	peak := limitAfterGC(5*time.Second, func(l int64) bool { return l >= live*3/2 })
	if peak < live*3/2 || peak > 2*live {
		t.Errorf("with %d MB live, limit %d MB: want about 1.5 times it", live>>20, peak>>20)
	}
	runtime.KeepAlive(held)
	held = nil
	runtime.GC()
	if l := limitAfterGC(200*time.Millisecond, func(int64) bool { return false }); l != peak {
		t.Errorf("with the heap let go, limit %d MB: want the peak's, %d MB", l>>20, peak>>20)
	}
	stop()
	runtime.GC()
	if l := debug.SetMemoryLimit(-1); l != before {
		t.Errorf("after stop, limit %d: want the one before, %d", l, before)
	}
}

// TestFollowLeavesTheEnvironmentsLimit: with GOMEMLIMIT set, Follow does
// nothing.
func TestFollowLeavesTheEnvironmentsLimit(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "3GiB")
	before := debug.SetMemoryLimit(-1)
	stop := Follow()
	defer stop()
	runtime.GC()
	time.Sleep(50 * time.Millisecond)
	if l := debug.SetMemoryLimit(-1); l != before {
		t.Errorf("limit %d after Follow with GOMEMLIMIT set: want it left at %d", l, before)
	}
}

// TestTighten: while a Tighten lasts the limit's floor is TightFloor,
// and after the last of two overlapping ones it is the floor again;
// without a follower Tighten changes nothing.
func TestTighten(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	restore := Tighten()
	if l := debug.SetMemoryLimit(-1); l != before {
		t.Errorf("Tighten with no follower set the limit to %d, want %d", l, before)
	}
	restore()
	stop := follow(Floor, Headroom)
	defer stop()
	if l := limitAfterGC(5*time.Second, func(l int64) bool { return l == Floor }); l != Floor {
		t.Fatalf("with little live, limit %d MB: want the floor, %d MB", l>>20, Floor>>20)
	}
	first, second := Tighten(), Tighten()
	if l := limitAfterGC(5*time.Second, func(l int64) bool { return l == TightFloor }); l != TightFloor {
		t.Errorf("while tightened, limit %d MB: want %d MB", l>>20, TightFloor>>20)
	}
	first()
	first() // a second call of the same restore changes nothing
	if l := limitAfterGC(200*time.Millisecond, func(int64) bool { return false }); l != TightFloor {
		t.Errorf("with one Tighten left, limit %d MB: want %d MB", l>>20, TightFloor>>20)
	}
	second()
	if l := limitAfterGC(5*time.Second, func(l int64) bool { return l == Floor }); l != Floor {
		t.Errorf("after the last restore, limit %d MB: want the floor, %d MB", l>>20, Floor>>20)
	}
}
