package eval

import (
	"bytes"
	"cmp"
	"encoding/json"
	"strconv"
)

// MarshalJSON writes the report as one object: its head (Spec.Head), the
// counts and checks, the answers that name no label (under the key
// Spec.Invalid + "_answers"), the overall score, the binary one
// (Spec.Binary), the per-label scores and confusion matrix
// (Spec.PerLabel), every breakdown's rows under its name, the minimal
// pairs (Spec.Pairs) and the chains, if checked. A row holds its group's
// parts under their Field names, then its score, then its binary score.
func (r Report) MarshalJSON() ([]byte, error) {
	spec := r.spec
	if spec == nil {
		spec = &Spec{Invalid: "unparseable"}
	}
	var o object
	if spec.Head {
		o.add("task", r.Task)
		o.add("answers", r.Answers)
		o.add("labels", r.Labels)
	}
	o.add("confidence", r.Confidence)
	for _, b := range spec.Breakdowns {
		if b.Binned {
			o.add("m_bin_width", r.MBinWidth)
			break
		}
	}
	o.add("gold", r.Gold)
	o.add("predictions", r.Predictions)
	o.add("missing", r.Missing)
	o.add("datasets", r.Datasets)
	o.add("texts_checked", r.TextsChecked)
	o.add(spec.Invalid+"_answers", r.Unparsed)
	o.add("overall", r.Overall)
	if spec.Binary != nil {
		o.add("binary", r.Binary)
	}
	if spec.PerLabel {
		o.add("per_label", r.PerLabel)
		o.add("macro_f1", r.MacroF1)
		o.add("confusion", r.Confusion)
		o.add("confusion_invalid", r.ConfusionInvalid)
	}
	for i, b := range spec.Breakdowns {
		var rows []json.RawMessage
		for _, row := range r.Sections[i].Rows {
			var ro object
			for k, part := range b.Parts {
				if n, err := strconv.Atoi(row.Key[k]); part.Number && err == nil {
					ro.add(part.Field, n)
				} else {
					ro.add(part.Field, row.Key[k])
				}
			}
			ro.inline(row.Score)
			if spec.Binary != nil {
				ro.add("binary", row.Binary)
			}
			line, err := ro.bytes()
			if err != nil {
				return nil, err
			}
			rows = append(rows, line)
		}
		if rows == nil {
			rows = []json.RawMessage{}
		}
		o.add(b.Name, rows)
	}
	if spec.Pairs {
		o.add("pairs", r.Pairs)
	}
	if r.Chains != nil {
		o.add("chains", r.Chains)
	}
	return o.bytes()
}

// object builds a JSON object with its keys in the order added, HTML left
// alone (an encoder of the whole escapes it, or not, as for a struct).
type object struct {
	buf bytes.Buffer
	err error
}

func (o *object) add(name string, v any) {
	k, _ := marshal(name)
	val, err := marshal(v)
	if o.err = cmp.Or(o.err, err); o.err != nil {
		return
	}
	o.sep()
	o.buf.Write(k)
	o.buf.WriteByte(':')
	o.buf.Write(val)
}

// inline adds the keys of v, which is written as an object.
func (o *object) inline(v any) {
	val, err := marshal(v)
	if o.err = cmp.Or(o.err, err); o.err != nil {
		return
	}
	if inner := bytes.TrimSpace(val[1 : len(val)-1]); len(inner) > 0 {
		o.sep()
		o.buf.Write(inner)
	}
}

func (o *object) sep() {
	if o.buf.Len() > 0 {
		o.buf.WriteByte(',')
	}
}

func (o *object) bytes() ([]byte, error) {
	if o.err != nil {
		return nil, o.err
	}
	return append(append([]byte{'{'}, o.buf.Bytes()...), '}'), nil
}

// marshal writes v as JSON, HTML left alone.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
