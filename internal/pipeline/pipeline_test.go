package pipeline

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync/atomic"
	"testing"
	"time"
)

func TestRunOrderAndStop(t *testing.T) {
	for _, workers := range []int{1, 2, 7} {
		for _, limit := range []int{0, 1, 50} {
			var got []int
			var opened, closed atomic.Int32
			err := Run(context.Background(), Config[int, int]{
				Workers: workers, Limit: limit,
				New:   func() (int, error) { opened.Add(1); return 0, nil },
				Close: func(int) { closed.Add(1) },
				Do: func(_ context.Context, _ int, i int) (int, error) {
					time.Sleep(time.Duration((i*7919)%5) * time.Microsecond)
					return i * i, nil
				},
				Emit: func(i, r int) (bool, error) {
					if r != i*i {
						return false, fmt.Errorf("result %d for index %d", r, i)
					}
					got = append(got, i)
					return false, nil
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			want := make([]int, limit)
			for i := range want {
				want[i] = i
			}
			if len(got) != limit || (limit > 0 && !reflect.DeepEqual(got, want)) {
				t.Errorf("workers %d limit %d: emitted %v", workers, limit, got)
			}
			if opened.Load() != closed.Load() {
				t.Errorf("workers %d: opened %d, closed %d", workers, opened.Load(), closed.Load())
			}
		}
	}
}

func TestRunUnboundedStopsWhenEmitSays(t *testing.T) {
	var got []int
	err := Run(context.Background(), Config[struct{}, int]{
		Workers: 3, Limit: -1,
		New: func() (struct{}, error) { return struct{}{}, nil },
		Do:  func(_ context.Context, _ struct{}, i int) (int, error) { return i, nil },
		Emit: func(i, _ int) (bool, error) {
			got = append(got, i)
			return len(got) == 10, nil
		},
	})
	if err != nil || len(got) != 10 || got[9] != 9 {
		t.Errorf("got %v, %v", got, err)
	}
}

// TestRunReturnsAfterEveryDo: when Emit stops the run while workers are
// still computing later indices, Run returns only after every Do has
// returned, so that the caller may let go of what Do reads.
func TestRunReturnsAfterEveryDo(t *testing.T) {
	var running, started atomic.Int32
	err := Run(context.Background(), Config[struct{}, int]{
		Workers: 4, Limit: -1,
		New: func() (struct{}, error) { return struct{}{}, nil },
		Do: func(_ context.Context, _ struct{}, i int) (int, error) {
			running.Add(1)
			defer running.Add(-1)
			started.Add(1)
			if i > 0 {
				time.Sleep(20 * time.Millisecond)
			}
			return i, nil
		},
		Emit: func(i, _ int) (bool, error) {
			for started.Load() < 4 {
				time.Sleep(time.Millisecond) // the other workers are in Do
			}
			return true, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := running.Load(); n != 0 {
		t.Errorf("Run returned with %d calls of Do running", n)
	}
}

func TestRunReportsErrorsAndCancellation(t *testing.T) {
	boom := errors.New("boom")
	cfg := Config[struct{}, int]{
		Workers: 2, Limit: 100,
		New: func() (struct{}, error) { return struct{}{}, nil },
		Do: func(_ context.Context, _ struct{}, i int) (int, error) {
			if i == 5 {
				return 0, boom
			}
			return i, nil
		},
		Emit: func(i, _ int) (bool, error) {
			if i >= 5 {
				return false, fmt.Errorf("emitted %d after the error", i)
			}
			return false, nil
		},
	}
	if err := Run(context.Background(), cfg); !errors.Is(err, boom) {
		t.Errorf("got %v, want boom", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cfg.Do = func(_ context.Context, _ struct{}, i int) (int, error) { return i, nil }
	if err := Run(ctx, cfg); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

// TestApart: Apart returns f's result when f ends first, and ctx's error
// when ctx ends first, without waiting for f (which here never ends until
// the test lets it), or at once when ctx has ended before.
func TestApart(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	blocked := func() int { <-release; return 1 }
	tests := []struct {
		name   string
		f      func() int
		cancel string // "before", "during" or ""
		want   int
		err    error
	}{
		{"f ends", func() int { return 7 }, "", 7, nil},
		{"canceled while f runs", blocked, "during", 0, context.Canceled},
		{"canceled before", blocked, "before", 0, context.Canceled},
	}
	for _, tc := range tests {
		ctx, cancel := context.WithCancel(context.Background())
		switch tc.cancel {
		case "before":
			cancel()
		case "during":
			time.AfterFunc(10*time.Millisecond, cancel)
		}
		done := make(chan struct{})
		var got int
		var err error
		go func() { got, err = Apart(ctx, tc.f); close(done) }()
		select {
		case <-done:
		case <-time.After(time.Minute):
			t.Fatalf("%s: Apart did not return", tc.name)
		}
		cancel()
		if got != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("%s: got %d, %v; want %d, %v", tc.name, got, err, tc.want, tc.err)
		}
	}
}
