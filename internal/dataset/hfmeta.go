package dataset

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// ClassLabels names the classes of the label columns of a Parquet row:
// for each column, by its name, the name of each value (the value is the
// index). They go into the file's HuggingFace schema metadata.
type ClassLabels map[string][]string

// RecordLabels are the class names of a record's label column (and of
// the minimal layout's): 0 unsat, 1 sat.
var RecordLabels = ClassLabels{"label": {LabelText(LabelUnsat), LabelText(LabelSat)}}

// ClassLabels names the label's classes: 0 unsat, 1 sat. A type that
// embeds Record (the pairs' records) has them too.
func (Record) ClassLabels() ClassLabels { return RecordLabels }

// labelsOf returns the class names of the label columns of Parquet rows
// of typ: those its ClassLabels method names, or a record's for a type
// without one (ProofRow, which is Record's columns and more).
func labelsOf(typ reflect.Type) ClassLabels {
	if l, ok := reflect.New(typ).Interface().(interface{ ClassLabels() ClassLabels }); ok {
		return l.ClassLabels()
	}
	return RecordLabels
}

// HFMetadataKey is the key of the Parquet key/value metadata under which
// HuggingFace datasets looks for a file's features when it loads a
// Parquet file.
const HFMetadataKey = "huggingface"

// parquetRowType returns the struct type whose rows a Parquet file of
// rows of typ holds: typ itself, except that each label column of labels
// (at the top level, or in an embedded struct) is an optional column
// of a pointer, never nil. datasets takes the features of a Parquet file
// from its HuggingFace metadata only for columns whose Arrow field equals
// the feature's own, which is nullable; a required column is read as a
// non-nullable field and would lose its ClassLabel. Every other column
// stays required. Readers of the file read it into typ, as before.
func parquetRowType(typ reflect.Type, labels ClassLabels) reflect.Type {
	changed := false
	fields := make([]reflect.StructField, typ.NumField())
	for i := range typ.NumField() {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("parquet"), ",")
		switch {
		case f.Anonymous && f.Type.Kind() == reflect.Struct:
			if t := parquetRowType(f.Type, labels); t != f.Type {
				f.Type, changed = t, true
			}
		case labels[name] != nil && f.Type.Kind() == reflect.Int:
			f.Type = reflect.PointerTo(f.Type)
			f.Tag = reflect.StructTag(fmt.Sprintf(`json:%q parquet:"%s,optional"`, f.Tag.Get("json"), name))
			changed = true
		}
		fields[i] = f
	}
	if !changed {
		return typ
	}
	return reflect.StructOf(fields)
}

// copyRow copies src, a value of a row type, into dst, a value of its
// parquetRowType: field by field, a label through a new pointer.
func copyRow(dst, src reflect.Value) {
	for i := range src.NumField() {
		d, s := dst.Field(i), src.Field(i)
		switch {
		case d.Type() == s.Type():
			d.Set(s)
		case d.Kind() == reflect.Pointer:
			p := reflect.New(s.Type())
			p.Elem().Set(s)
			d.Set(p)
		default:
			copyRow(d, s)
		}
	}
}

// hfMetadata is the HuggingFace schema metadata of a Parquet file of
// schema: {"info": {"features": {...}}}, the features as datasets
// serialises them, one per column in the file's order: strings and
// integers as Values, doubles as float64 Values, the label columns as
// ClassLabels with their names, lists as a one-element JSON array (a
// list of the element's feature, which every datasets version reads)
// and groups as objects of their fields. They are what the dataset
// card's YAML declares, so that a Parquet file copied alone loads with
// its class names.
func hfMetadata(schema *parquet.Schema, labels ClassLabels) string {
	var b bytes.Buffer
	b.WriteString(`{"info":{"features":{`)
	for i, f := range schema.Fields() {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(&b, f.Name())
		b.WriteByte(':')
		if names, ok := labels[f.Name()]; ok {
			b.WriteString(`{"names":`)
			n, _ := json.Marshal(names)
			b.Write(n)
			b.WriteString(`,"_type":"ClassLabel"}`)
			continue
		}
		writeFeature(&b, f)
	}
	b.WriteString(`}}}`)
	return b.String()
}

// writeFeature writes the feature of a Parquet node.
func writeFeature(b *bytes.Buffer, n parquet.Node) {
	if lt := n.Type().LogicalType(); lt != nil && isList(lt) {
		b.WriteByte('[')
		writeFeature(b, n.Fields()[0].Fields()[0])
		b.WriteByte(']')
		return
	}
	if !n.Leaf() {
		b.WriteByte('{')
		for i, f := range n.Fields() {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONString(b, f.Name())
			b.WriteByte(':')
			writeFeature(b, f)
		}
		b.WriteByte('}')
		return
	}
	dtype := "string"
	switch n.Type().Kind() {
	case parquet.Int64, parquet.Int32:
		dtype = "int64"
	case parquet.Double:
		dtype = "float64"
	case parquet.Boolean:
		dtype = "bool"
	}
	fmt.Fprintf(b, `{"dtype":%q,"_type":"Value"}`, dtype)
}

func writeJSONString(b *bytes.Buffer, s string) {
	q, _ := json.Marshal(s)
	b.Write(q)
}

func isList(lt *format.LogicalType) bool {
	_, ok := lt.Value.(*format.ListType)
	return ok
}
