package dataset

import (
	"fmt"
	"strings"
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
}

// Plain reports whether o writes the JSONL lines as they are.
func (o Output) Plain() bool { return (o.Format == JSONL || o.Format == "") && !o.Minimal }

// ResolveOutput returns the output of a command given --format (""
// when not given), --fields ("full" or "minimal") and its output name:
// the format given, or else the one the name's extension names, or
// JSONL. A format that contradicts the name's extension is an InputError.
func ResolveOutput(format, fields, name string) (Output, error) {
	o := Output{Format: Format(format), Minimal: fields == "minimal"}
	byName, ok := FormatOf(name)
	switch {
	case o.Format == "":
		o.Format = byName
	case ok && byName != o.Format:
		return o, InputErrorf("--format %s does not match the name %s (a %s file); name it %s", o.Format, name, byName, WithFormat(name, o.Format))
	}
	if fields != "" && fields != "full" && fields != "minimal" {
		return o, InputErrorf("--fields %q: expected full or minimal", fields)
	}
	for _, f := range Formats() {
		if Format(f) == o.Format {
			return o, nil
		}
	}
	return o, InputErrorf("--format %q: expected one of %s", o.Format, strings.Join(Formats(), ", "))
}

// String names the output for messages: "parquet", "jsonl (minimal
// fields)".
func (o Output) String() string {
	if o.Minimal {
		return fmt.Sprintf("%s (minimal fields)", o.Format)
	}
	return string(o.Format)
}
