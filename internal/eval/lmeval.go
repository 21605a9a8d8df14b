package eval

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// sample is the part of a line of lm-evaluation-harness's --log_samples
// output (samples_TASK_DATE.jsonl) that scoring reads.
type sample struct {
	DocID         json.RawMessage            `json:"doc_id"`
	Doc           map[string]json.RawMessage `json:"doc"`
	Arguments     json.RawMessage            `json:"arguments"`
	Resps         []json.RawMessage          `json:"resps"`
	FilteredResps []json.RawMessage          `json:"filtered_resps"`
	Filter        string                     `json:"filter"`
}

// readSample reads a line of lm-evaluation-harness's --log_samples output:
// the document the harness evaluated ("doc", a row of nlsat prompt, whose
// "id" names the gold record and whose text (Spec.TextKeys) and "label"
// are checked against it) and the model's responses to it.
//
// A generate_until task (one request; "resps" [[generation, ...]],
// "filtered_resps" [filtered]) is read from its raw generation, the first
// of resps[0], by the task's ReadText; the harness writes a line per
// filter, all with the same generation, and they count once. With
// opts.Filter only the lines of that filter are read, from
// filtered_resps[0].
//
// A multiple_choice task (a request per choice; "filtered_resps"
// [[log-likelihood, is-greedy], ...], numbers or, as the harness writes
// them, strings) answers with the choice of the highest log-likelihood,
// the first on ties, as the harness's acc does, read by the task's
// ReadChoice from the choices' continuations (arguments.gen_args_K.arg_1,
// " satisfiable"; "" when the arguments are absent).
func (rd *reader) readSample(b []byte) (Prediction, bool, error) {
	s, p, skip, err := rd.openSample(b)
	if err != nil || skip {
		return p, skip, err
	}
	if s.loglikelihoods() {
		p.Source = "loglikelihood"
		best, conts, desc, err := s.likeliest(p.ID)
		if err != nil {
			return p, false, err
		}
		a, err := rd.t.ReadChoice(conts, best)
		if err != nil {
			return p, false, fmt.Errorf("lm-eval sample for %s: %w", p.ID, err)
		}
		rd.set(&p, a)
		p.Answer = desc
		return p, false, nil
	}
	if p.Answer, p.Source, err = s.generation(p.ID, rd.opts.Filter); err != nil {
		return p, false, err
	}
	return p, false, rd.read(&p)
}

// generation returns the generation of a generate_until task's sample of
// id, and where it was read: the raw one (resps, else filtered_resps), or
// with a filter named that filter's.
func (s *sample) generation(id, filter string) (answer, source string, err error) {
	source = "resps"
	if filter != "" {
		source = "filtered_resps[" + filter + "]"
		err = firstString(s.FilteredResps, &answer)
	} else if err = firstString(s.Resps, &answer); err != nil {
		err = firstString(s.FilteredResps, &answer)
	}
	if err != nil {
		return answer, source, fmt.Errorf("lm-eval sample for %s: %s is not a generation (a string)", id, source)
	}
	return answer, source, nil
}

// openSample decodes a line of lm-evaluation-harness's --log_samples
// output and identifies its doc; skip says that the line is of another
// filter than the one named. A sample without responses is an error.
func (rd *reader) openSample(b []byte) (s sample, p Prediction, skip bool, err error) {
	if err := json.Unmarshal(b, &s); err != nil {
		return s, p, false, fmt.Errorf("not an lm-eval sample: %w", err)
	}
	if p, err = rd.identify(&s); err != nil || (rd.opts.Filter != "" && s.Filter != rd.opts.Filter) {
		return s, p, err == nil, err
	}
	if len(s.FilteredResps) == 0 && len(s.Resps) == 0 {
		return s, p, false, fmt.Errorf("lm-eval sample for %s has no resps or filtered_resps", p.ID)
	}
	return s, p, false, nil
}

// identify reads the id, text and gold label of the sample's doc.
func (rd *reader) identify(s *sample) (Prediction, error) {
	p := Prediction{filter: s.Filter}
	if s.Filter == "" {
		p.filter = "none"
	}
	if err := json.Unmarshal(s.Doc["id"], &p.ID); err != nil || p.ID == "" {
		return p, fmt.Errorf("lm-eval sample (doc_id %s) has no doc.id: only the tasks of nlsat prompt, whose rows keep the record's id, can be scored", s.DocID)
	}
	p.text, p.hasText = rd.textOf(s.Doc)
	var label float64
	if json.Unmarshal(s.Doc["label"], &label) == nil {
		p.docLabel, p.hasDocLabel = int(label), true
	}
	return p, nil
}

// loglikelihoods reports whether the responses are log-likelihoods, as
// multiple_choice tasks have them: filtered_resps [[ll, greedy], ...] or
// resps [[[ll, greedy]], ...].
func (s *sample) loglikelihoods() bool {
	if len(s.FilteredResps) > 0 {
		return isPair(s.FilteredResps[0])
	}
	var reps []json.RawMessage
	return json.Unmarshal(s.Resps[0], &reps) == nil && len(reps) > 0 && isPair(reps[0])
}

// isPair reports whether raw is a [log-likelihood, is-greedy] pair.
func isPair(raw json.RawMessage) bool {
	var pair []json.RawMessage
	if json.Unmarshal(raw, &pair) != nil || len(pair) != 2 {
		return false
	}
	_, err := number(pair[0])
	return err == nil
}

// firstString sets out to resps[0][0] (or resps[0] when it is a string).
func firstString(resps []json.RawMessage, out *string) error {
	if len(resps) == 0 {
		return fmt.Errorf("no response")
	}
	if json.Unmarshal(resps[0], out) == nil {
		return nil
	}
	var reps []string
	if err := json.Unmarshal(resps[0], &reps); err != nil || len(reps) == 0 {
		return fmt.Errorf("not a string")
	}
	*out = reps[0]
	return nil
}

// likeliest returns the index of the choice of highest log-likelihood
// (the first on ties, as the harness's acc), the choices' texts and the
// choices with their log-likelihoods, for the record.
func (s *sample) likeliest(id string) (int, []string, string, error) {
	resps := s.FilteredResps
	if len(resps) == 0 { // resps is [[[ll, greedy]], ...]: a repeat per request
		for _, r := range s.Resps {
			var reps []json.RawMessage
			if json.Unmarshal(r, &reps) != nil || len(reps) == 0 {
				return 0, nil, "", fmt.Errorf("lm-eval sample for %s: resps is not a list of log-likelihoods", id)
			}
			resps = append(resps, reps[0])
		}
	}
	conts := s.continuations(len(resps))
	best, bestLL := -1, math.Inf(-1)
	var desc []string
	for k, raw := range resps {
		var pair []json.RawMessage
		if json.Unmarshal(raw, &pair) != nil || len(pair) == 0 {
			return 0, nil, "", fmt.Errorf("lm-eval sample for %s: choice %d has no log-likelihood", id, k)
		}
		ll, err := number(pair[0])
		if err != nil || math.IsNaN(ll) {
			return 0, nil, "", fmt.Errorf("lm-eval sample for %s: choice %d: log-likelihood %s is not a number", id, k, pair[0])
		}
		if best < 0 || ll > bestLL {
			best, bestLL = k, ll
		}
		desc = append(desc, fmt.Sprintf("%s %g", strings.TrimSpace(conts[k]), ll))
	}
	return best, conts, strings.Join(desc, "; "), nil
}

// continuations returns the text of each of n choices: the second
// argument of each request, or "" where the arguments do not say.
func (s *sample) continuations(n int) []string {
	out := make([]string, n)
	var byName map[string]map[string]json.RawMessage // {"gen_args_K": {"arg_1": ...}}
	var byList [][]json.RawMessage                   // older harnesses: [[context, continuation], ...]
	for k := range out {
		var raw json.RawMessage
		switch {
		case json.Unmarshal(s.Arguments, &byName) == nil:
			raw = byName["gen_args_"+strconv.Itoa(k)]["arg_1"]
		case json.Unmarshal(s.Arguments, &byList) == nil && k < len(byList) && len(byList[k]) > 1:
			raw = byList[k][1]
		}
		json.Unmarshal(raw, &out[k])
	}
	return out
}

// number reads a JSON number, or a string holding one.
func number(raw json.RawMessage) (float64, error) {
	var f float64
	if err := json.Unmarshal(raw, &f); err == nil {
		return f, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return 0, err
	}
	return strconv.ParseFloat(strings.TrimSpace(s), 64)
}
