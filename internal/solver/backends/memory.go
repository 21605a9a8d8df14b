package backends

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nlsat/nlsat/internal/solver/native"
)

// Memory is a number of bytes given on the command line with an optional
// unit: 512MB, 2GiB, 1.5G, 65536 (K, M, G, T are powers of 1024, with or
// without "i" and "B"). It is a pflag.Value.
type Memory int64

// DefaultMaxMemory is the default of --max-memory.
const DefaultMaxMemory = Memory(native.DefaultMaxMemory)

// String returns m with a binary unit.
func (m *Memory) String() string { return native.FormatBytes(int64(*m)) }

// Type names the flag's values in help.
func (m *Memory) Type() string { return "size" }

// Set parses s.
func (m *Memory) Set(s string) error {
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I")
	mult := int64(1)
	if n := len(t); n > 0 {
		if i := strings.IndexByte("KMGT", t[n-1]); i >= 0 {
			mult = int64(1) << (10 * (i + 1))
			t = t[:n-1]
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || v <= 0 || v*float64(mult) >= 1<<62 {
		return fmt.Errorf("%q is not a size such as 512MB or 2GiB", s)
	}
	*m = Memory(v * float64(mult))
	return nil
}
