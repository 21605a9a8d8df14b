package split

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"

	"github.com/nlsat/nlsat/internal/learn"
)

// A work file of balance models keeps their long columns apart from their
// JSON: the pattern keys of the pair models and of the residual stage,
// and the weights of their logistic fits, hundreds of thousands of
// numbers in an A pool's models. As JSON text one A pool's models took
// 19.7 MB (9.4 MB compressed), and a sharded build keeps a copy beside its
// shards; packed, 4.7 MB. The keys of all columns share one dictionary
// (appendKeys): the pair models of a stage number mostly the same
// patterns. A weight is its eight bytes, stored byte-plane by byte-plane
// so that the compressor sees the like sign and exponent bytes together
// (8% smaller than value by value).
//
// The file, before gzip, is the JSON of the value with those columns
// null, a newline, then the columns in the order eachColumn visits them
// (which the JSON alone fixes): the key columns, then the number of
// weight columns and per column its length plus one (0 for a nil column)
// and its eight byte-planes. Reading the JSON back and filling in the
// columns gives the value bit for bit.

// columnar is a value whose work file keeps its long columns apart.
type columnar interface {
	// eachColumn calls keys and weights on each long column, in an order
	// that depends only on what the value's JSON without the columns
	// holds.
	eachColumn(keys func(*[]uint64), weights func(*[]float64))
}

func (m *balanceModels) eachColumn(keys func(*[]uint64), weights func(*[]float64)) {
	for _, st := range []*stage{m.Free, m.Core} {
		if st == nil {
			continue
		}
		for _, p := range st.Pairs {
			if p == nil {
				continue
			}
			keys(&p.Keys)
			for _, s := range append([]*learn.Sparse{p.Full}, p.Folds...) {
				if s != nil {
					weights(&s.W)
				}
			}
		}
	}
	if m.Residual != nil {
		m.Residual.eachColumn(keys, weights)
	}
}

func (r *residual) eachColumn(keys func(*[]uint64), weights func(*[]float64)) {
	keys(&r.Keys[0])
	keys(&r.Keys[1])
	if r.Fit != nil {
		weights(&r.Fit.W)
	}
}

// columnsOf returns the columnar value v points to, through any number of
// pointers; nil when there is none (a nil pointer, or another type).
func columnsOf(v any) columnar {
	for rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && !rv.IsNil(); rv = rv.Elem() {
		if c, ok := rv.Interface().(columnar); ok {
			return c
		}
	}
	return nil
}

// pack encodes v, a pointer, as a packed work file (before compression).
// It does not touch v, which other goroutines may be reading: the columns
// are taken out of a copy.
func pack(v any) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var keys [][]uint64
	var weights [][]float64
	if columnsOf(v) != nil {
		cp := reflect.New(reflect.TypeOf(v).Elem()).Interface()
		if err := json.Unmarshal(data, cp); err != nil {
			return nil, err
		}
		columnsOf(cp).eachColumn(
			func(k *[]uint64) { keys = append(keys, *k); *k = nil },
			func(w *[]float64) { weights = append(weights, *w); *w = nil })
		if data, err = json.Marshal(cp); err != nil {
			return nil, err
		}
	}
	out := appendKeys(append(data, '\n'), keys)
	out = binary.AppendUvarint(out, uint64(len(weights)))
	for _, w := range weights {
		size := uint64(0) // nil
		if w != nil {
			size = uint64(len(w)) + 1
		}
		out = binary.AppendUvarint(out, size)
		for shift := 56; shift >= 0; shift -= 8 {
			for _, x := range w {
				out = append(out, byte(math.Float64bits(x)>>shift))
			}
		}
	}
	return out, nil
}

// The key columns share one dictionary, since the pair models of a stage
// mostly number the same patterns: its keys, ascending, as varints of
// their differences; then per column a tag, keyNil, keyBits (a column
// that ascends strictly, as one bit per key of the dictionary) or
// keyList (any other, as its length and each key's place).
const (
	keyNil = iota
	keyBits
	keyList
)

func appendKeys(out []byte, keys [][]uint64) []byte {
	out = binary.AppendUvarint(out, uint64(len(keys)))
	var dict []uint64
	for _, k := range keys {
		dict = append(dict, k...)
	}
	slices.Sort(dict)
	dict = slices.Compact(dict)
	out = binary.AppendUvarint(out, uint64(len(dict)))
	prev := uint64(0)
	for _, x := range dict {
		out = binary.AppendUvarint(out, x-prev)
		prev = x
	}
	for _, k := range keys {
		switch {
		case k == nil:
			out = append(out, keyNil)
		case ascending(k):
			bits := make([]byte, (len(dict)+7)/8)
			j := 0
			for _, x := range k {
				i, _ := slices.BinarySearch(dict[j:], x)
				j += i
				bits[j/8] |= 1 << (j % 8)
			}
			out = append(append(out, keyBits), bits...)
		default:
			out = binary.AppendUvarint(append(out, keyList), uint64(len(k)))
			for _, x := range k {
				i, _ := slices.BinarySearch(dict, x)
				out = binary.AppendUvarint(out, uint64(i))
			}
		}
	}
	return out
}

// ascending reports whether each key of k is greater than the one
// before.
func ascending(k []uint64) bool {
	for i := 1; i < len(k); i++ {
		if k[i] <= k[i-1] {
			return false
		}
	}
	return true
}

// readKeys reads the key columns appendKeys wrote into keys.
func readKeys(r *bytes.Reader, keys []*[]uint64) error {
	n, err := binary.ReadUvarint(r)
	if err != nil || n != uint64(len(keys)) {
		return fmt.Errorf("%w: %d key columns where %d were expected", errPacked, n, len(keys))
	}
	size, err := binary.ReadUvarint(r)
	if err != nil || size > uint64(r.Len()) {
		return errPacked
	}
	dict := make([]uint64, size)
	prev := uint64(0)
	for i := range dict {
		d, err := binary.ReadUvarint(r)
		if err != nil {
			return errPacked
		}
		prev += d
		dict[i] = prev
	}
	for _, k := range keys {
		tag, err := r.ReadByte()
		if err != nil {
			return errPacked
		}
		switch tag {
		case keyNil:
			*k = nil
		case keyBits:
			bits := make([]byte, (len(dict)+7)/8)
			if _, err := io.ReadFull(r, bits); err != nil {
				return errPacked
			}
			col := []uint64{}
			for i, x := range dict {
				if bits[i/8]&(1<<(i%8)) != 0 {
					col = append(col, x)
				}
			}
			*k = col
		case keyList:
			n, err := binary.ReadUvarint(r)
			if err != nil || n > uint64(r.Len()) {
				return errPacked
			}
			col := make([]uint64, n)
			for i := range col {
				at, err := binary.ReadUvarint(r)
				if err != nil || at >= uint64(len(dict)) {
					return errPacked
				}
				col[i] = dict[at]
			}
			*k = col
		default:
			return errPacked
		}
	}
	return nil
}

// errPacked is what unpack says of a file that ends early or holds more
// or other columns than the value it describes.
var errPacked = errors.New("the packed columns do not match the models")

// unpack decodes data, a packed work file, into v, a pointer.
func unpack(data []byte, v any) error {
	skel, cols, ok := bytes.Cut(data, []byte{'\n'})
	if !ok {
		return errPacked
	}
	if err := json.Unmarshal(skel, v); err != nil {
		return err
	}
	r := bytes.NewReader(cols)
	var keys []*[]uint64
	var weights []*[]float64
	if c := columnsOf(v); c != nil {
		c.eachColumn(
			func(k *[]uint64) { keys = append(keys, k) },
			func(w *[]float64) { weights = append(weights, w) })
	}
	if err := readKeys(r, keys); err != nil {
		return err
	}
	if n, err := binary.ReadUvarint(r); err != nil || n != uint64(len(weights)) {
		return fmt.Errorf("%w: %d weight columns where %d were expected", errPacked, n, len(weights))
	}
	for _, w := range weights {
		size, err := binary.ReadUvarint(r)
		switch {
		case err != nil || size > 0 && size-1 > uint64(r.Len()/8):
			return errPacked
		case size == 0:
			*w = nil
			continue
		}
		n := int(size - 1)
		plane := make([]byte, 8*n)
		if _, err := io.ReadFull(r, plane); err != nil {
			return errPacked
		}
		col := make([]float64, n)
		for i := range col {
			var bits uint64
			for p := range 8 {
				bits = bits<<8 | uint64(plane[p*n+i])
			}
			col[i] = math.Float64frombits(bits)
		}
		*w = col
	}
	if r.Len() != 0 {
		return fmt.Errorf("%w: %d bytes after the last column", errPacked, r.Len())
	}
	return nil
}
