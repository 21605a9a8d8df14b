package dataset

import (
	"fmt"
	"os"
	"reflect"
	"strings"

	"github.com/nlsat/nlsat/internal/inputerr"
)

// Format is the encoding of a records file. Every format holds the rows
// of the JSONL form, which is the canonical one: writers are fed JSONL
// lines and readers give them back (see NewWriter and NewReader).
type Format string

// The formats nlsat writes and reads.
const (
	JSONL     Format = "jsonl"
	JSONLGzip Format = "jsonl.gz"
	JSONLZstd Format = "jsonl.zst"
	Parquet   Format = "parquet"
)

// Formats lists every format, the default first.
func Formats() []string {
	return []string{string(JSONL), string(JSONLGzip), string(JSONLZstd), string(Parquet)}
}

// Ext returns the format's file name extension, with its dot.
func (f Format) Ext() string { return "." + string(f) }

// FormatOf returns the format a file name's extension names, and whether
// it names one.
func FormatOf(name string) (Format, bool) {
	for _, f := range []Format{JSONLGzip, JSONLZstd, Parquet, JSONL} {
		if strings.HasSuffix(name, f.Ext()) {
			return f, true
		}
	}
	return JSONL, false
}

// WithFormat replaces the extension of a records file name (.jsonl,
// .jsonl.gz, .jsonl.zst or .parquet; none is added to) by f's.
func WithFormat(name string, f Format) string {
	if old, ok := FormatOf(name); ok {
		name = strings.TrimSuffix(name, old.Ext())
	}
	return name + f.Ext()
}

// Output says how records are written: the file format, and whether only
// the minimal fields (text and label) are kept.
type Output struct {
	Format  Format
	Minimal bool
	// Row is the struct type of a Parquet file's rows: nil for Record,
	// or a type that embeds Record and adds fields (the pairs' records).
	Row reflect.Type
}

// Plain reports whether o writes the JSONL lines as they are.
func (o Output) Plain() bool { return (o.Format == JSONL || o.Format == "") && !o.Minimal }

// Published is the name under which a JSONL file named name is
// published in output o: name itself for plain JSONL, else name with
// o's format's extension.
func (o Output) Published(name string) string {
	if o.Plain() {
		return name
	}
	return WithFormat(name, o.Format)
}

// Args are the flags that reproduce o (" --format F", " --fields
// minimal"), empty for the defaults, for the command a manifest
// records.
func (o Output) Args() string {
	s := ""
	if o.Format != "" && o.Format != JSONL {
		s += " --format " + string(o.Format)
	}
	if o.Minimal {
		s += " --fields minimal"
	}
	return s
}

// FormatName and FieldsName are a manifest's record of o: "" for the
// defaults (JSONL, full fields), so that a JSONL build's manifest is as
// before they existed.
func (o Output) FormatName() string {
	if o.Format == JSONL {
		return ""
	}
	return string(o.Format)
}

// FieldsName: see FormatName.
func (o Output) FieldsName() string {
	if o.Minimal {
		return "minimal"
	}
	return ""
}

// For returns the output for a file named name: o with its format, or
// where it has none (--format not given) the one the name's extension
// names, or JSONL. A format that contradicts the name's extension, or
// that nlsat does not know, is an inputerr.Error.
func (o Output) For(name string) (Output, error) {
	byName, ok := FormatOf(name)
	switch {
	case o.Format == "":
		o.Format = byName
	case ok && byName != o.Format:
		return o, inputerr.Errorf("--format %s does not match the name %s (a %s file); name it %s", o.Format, name, byName, WithFormat(name, o.Format))
	}
	for _, f := range Formats() {
		if Format(f) == o.Format {
			return o, nil
		}
	}
	return o, inputerr.Errorf("--format %q: expected one of %s", o.Format, strings.Join(Formats(), ", "))
}

// String names the output for messages: "parquet", "jsonl (minimal
// fields)".
func (o Output) String() string {
	if o.Minimal {
		return fmt.Sprintf("%s (minimal fields)", o.Format)
	}
	return string(o.Format)
}

// FindFile returns the records file base+ext that exists for one of the
// formats' extensions (JSONL first), or base.jsonl when none does, so
// that the caller's error names the file it expected.
func FindFile(base string) string {
	for _, f := range Formats() {
		if _, err := os.Stat(base + Format(f).Ext()); err == nil {
			return base + Format(f).Ext()
		}
	}
	return base + JSONL.Ext()
}

// TrimExt returns a records file name without its format's extension.
func TrimExt(name string) string {
	if f, ok := FormatOf(name); ok {
		return strings.TrimSuffix(name, f.Ext())
	}
	return name
}
