package job

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/nlsat/nlsat/internal/inputerr"
)

// Lock is a held lock on an output: while a run holds it, another run
// asking for the same output is refused at once instead of doing the same
// work and failing at the end. The lock is an advisory lock (flock) on
// the file .OUT.lock beside out, which names the holder; the system
// releases it when the holder dies, so a killed run leaves no stale lock.
type Lock struct {
	f    *os.File
	name string
}

// LockName is the lock file of the output out.
func LockName(out string) string {
	out = filepath.Clean(out)
	return filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".lock")
}

// LockOutput takes the lock of the output out (a file or a directory),
// creating out's parent directories first if mkdir is set. If another
// run holds it, the error (an InputError) names that run's process and
// host.
func LockOutput(out string, mkdir bool) (*Lock, error) {
	name := LockName(out)
	if mkdir {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return nil, inputerr.Errorf("cannot write %s: %w", out, unwrapPath(err))
		}
	}
	for {
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, inputerr.Errorf("cannot write %s: %w", out, unwrapPath(err))
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			holder, _ := io.ReadAll(io.LimitReader(f, 1024))
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, inputerr.Errorf("%s is being written by another run (%s); wait for it to finish or stop it, or choose another output", out, describeHolder(string(holder), name))
			}
			return nil, fmt.Errorf("cannot lock %s: %w", name, err)
		}
		// The holder before us may have removed the file between our open
		// and our lock: the lock then guards nothing, so take it again.
		fi, err1 := f.Stat()
		ni, err2 := os.Stat(name)
		if err1 != nil || err2 != nil || !os.SameFile(fi, ni) {
			f.Close()
			continue
		}
		host, _ := os.Hostname()
		if err := f.Truncate(0); err == nil {
			fmt.Fprintf(f, "pid %d on host %s since %s\n", os.Getpid(), host, time.Now().UTC().Format(time.RFC3339))
		}
		return &Lock{f: f, name: name}, nil
	}
}

// describeHolder is what a lock file says of its holder.
func describeHolder(text, name string) string {
	if text = strings.TrimSpace(text); text == "" {
		return "its lock " + name + " names no holder yet"
	}
	return text + ", lock " + name
}

// Release removes the lock file and releases the lock. A nil Lock is
// released already.
func (l *Lock) Release() {
	if l == nil || l.f == nil {
		return
	}
	os.Remove(l.name)
	l.f.Close()
	l.f = nil
}
