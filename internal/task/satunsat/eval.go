package satunsat

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/eval"
	"github.com/nlsat/nlsat/internal/fragments"
)

// Eval is the sat/unsat task's part of eval: records labelled 0 unsat or
// 1 sat, scored per split file, fragment, n = n1 + n2, bin of m, gold
// label, size of the MUS (unsat) and of the model (sat), fragment and n
// (the paper's Figure 3, which the plot draws) and split file and
// fragment; with the minimal pairs of nlsat pairs and checks of chains of
// thought. Answers are "label" (0 or 1), "label_text" ("sat" or "unsat")
// or free text read by ReadAnswer.
var Eval eval.Task = evalTask{}

type evalTask struct{}

// The breakdowns of the report, in order; a record's groups are at these
// indices.
const (
	bySplit = iota
	byFragment
	byN
	byMBin
	byLabel
	byMUSSize
	byModelSize
	byFragmentN
	bySplitFragment
	numBreakdowns
)

func key(column string, order func(x, y string) int) []eval.Part {
	return []eval.Part{{Field: "key", Column: column, Order: order}}
}

var (
	splitPart    = eval.Part{Field: "split", Column: "split", Order: eval.CompareSplits}
	fragmentPart = eval.Part{Field: "fragment", Column: "fragment", Order: fragments.CompareNames}
)

var evalSpec = &eval.Spec{
	Name:      Name,
	Labels:    []string{dataset.LabelText(dataset.LabelUnsat), dataset.LabelText(dataset.LabelSat)},
	Keys:      []string{"label", "label_text"},
	TextKeys:  []string{"text"},
	OtherText: "another instance text",
	Invalid:   "unparseable",
	Breakdowns: []eval.Breakdown{
		bySplit:     {Name: "by_split", Title: "By split file", Parts: key("split", eval.CompareSplits)},
		byFragment:  {Name: "by_fragment", Title: "By fragment (the paper's Tables 1 and 2)", Parts: key("fragment", fragments.CompareNames)},
		byN:         {Name: "by_n", Title: "By n = n1 + n2", Parts: key("n", eval.CompareNumeric)},
		byMBin:      {Name: "by_m_bin", Title: "By number of sentences m", Parts: key("m", eval.CompareNumeric), Binned: true},
		byLabel:     {Name: "by_label", Title: "By gold label", Parts: key("label", strings.Compare)}, // sat before unsat, as the paper's prompts
		byMUSSize:   {Name: "by_mus_size", Title: "Unsat gold records by size of the minimal unsatisfiable subset", Parts: key("MUS size", eval.CompareNumeric)},
		byModelSize: {Name: "by_model_size", Title: "Sat gold records by size of the checked model", Parts: key("model size", eval.CompareNumeric)},
		byFragmentN: {Name: "by_fragment_n", Title: "By fragment and n (the paper's Figure 3)",
			Parts: []eval.Part{fragmentPart, {Field: "n", Column: "n", Number: true, Order: eval.CompareNumeric}}},
		bySplitFragment: {Name: "by_split_fragment", Title: "By split file and fragment (the paper's Table 3 with a generalisation split)",
			Parts: []eval.Part{splitPart, fragmentPart}},
	},
	Pairs:  true,
	Chains: true,
	Plot:   "by_fragment_n",
}

func (evalTask) Spec() *eval.Spec { return evalSpec }

// recordInfo is what the per-record file says of a record.
type recordInfo struct {
	Fragment string `json:"fragment"`
	M        int    `json:"m"`
	N1       int    `json:"n1"`
	N2       int    `json:"n2"`
}

// goldLine is a record with the optional keys that later commands add.
type goldLine struct {
	dataset.Record
	PairID   *string `json:"pair_id"`
	PairRole *string `json:"pair_role"`
}

func (evalTask) ReadGold(name, split string, fn func(eval.Gold) error) error {
	f, err := dataset.OpenFile(name)
	if err != nil {
		return fmt.Errorf("cannot read gold records: %w", err)
	}
	defer f.Close()
	return eval.EachLine(f, name, func(b []byte, where string) error {
		g, err := decodeGold(b, split, where)
		if err != nil {
			return err
		}
		return fn(g)
	})
}

// decodeGold reads a record as gold. Unsat records are grouped by the
// size of the minimal unsatisfiable subset in their certificate, sat ones
// by the size of the checked model; a size of 0 (no certificate) is the
// group eval.Unknown.
func decodeGold(b []byte, split, where string) (eval.Gold, error) {
	var r goldLine
	if err := json.Unmarshal(b, &r); err != nil {
		return eval.Gold{}, fmt.Errorf("%s: not a record: %w", where, err)
	}
	if err := r.Validate(); err != nil {
		return eval.Gold{}, fmt.Errorf("%s: %w", where, err)
	}
	if r.Label == dataset.LabelAbsent {
		return eval.Gold{}, fmt.Errorf("%s: record %s has no label, so it cannot be gold", where, r.ID)
	}
	g := eval.Gold{ID: r.ID, Label: r.Label, Info: recordInfo{Fragment: r.Fragment, M: r.M, N1: r.N1, N2: r.N2},
		Text: eval.TextSum(r.Text), Sentences: r.Sentences, Where: where}
	if r.Text == "" {
		g.Text = eval.TextSum(strings.Join(r.Sentences, " "))
	}
	if len(g.Sentences) == 0 {
		g.Sentences = fragments.SplitText(r.Text)
	}
	n := strconv.Itoa(r.N1 + r.N2)
	g.Groups = make([][]string, numBreakdowns)
	g.Groups[byFragment] = []string{r.Fragment}
	g.Groups[byN] = []string{n}
	g.Groups[byMBin] = []string{strconv.Itoa(r.M)}
	g.Groups[byLabel] = []string{dataset.LabelText(r.Label)}
	g.Groups[byFragmentN] = []string{r.Fragment, n}
	if split != "" {
		g.Groups[bySplit] = []string{split}
		g.Groups[bySplitFragment] = []string{split, r.Fragment}
	}
	if r.Label == dataset.LabelUnsat {
		g.Groups[byMUSSize] = []string{sizeKey(len(r.Certificate.MUS))}
	} else {
		g.Groups[byModelSize] = []string{sizeKey(r.Certificate.ModelSize)}
	}
	id, role := deref(r.PairID), deref(r.PairRole)
	if id != "" || role != "" {
		if id == "" {
			return eval.Gold{}, fmt.Errorf("%s: record %s has a pair_role but no pair_id", where, r.ID)
		}
		if role != eval.RoleOriginal && role != eval.RoleEdited {
			return eval.Gold{}, fmt.Errorf("%s: record %s: pair_role %q is not %s or %s", where, r.ID, role, eval.RoleOriginal, eval.RoleEdited)
		}
		g.PairID, g.PairRole = id, role
	}
	return g, nil
}

func sizeKey(n int) string {
	if n <= 0 {
		return eval.Unknown
	}
	return strconv.Itoa(n)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// ReadKey reads "label", 1 (sat) or 0 (unsat), as integers or as 1.0 and
// 0.0, and "label_text", "sat" or "unsat"; any other value is an error.
func (evalTask) ReadKey(key string, raw json.RawMessage) (eval.Answer, error) {
	if key == "label" {
		var f float64
		if err := json.Unmarshal(raw, &f); err != nil || (f != 0 && f != 1) {
			return eval.Answer{}, fmt.Errorf("label %s is not 0 or 1", raw)
		}
		return eval.Answer{Label: int(f)}, nil
	}
	var s string
	json.Unmarshal(raw, &s)
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "sat":
		return eval.Answer{Label: dataset.LabelSat}, nil
	case "unsat":
		return eval.Answer{Label: dataset.LabelUnsat}, nil
	}
	return eval.Answer{}, fmt.Errorf("%s %s is not \"sat\" or \"unsat\"", key, raw)
}

// ReadText reads free text with ReadAnswer and the answer set named
// (AnswersAny when none is).
func (evalTask) ReadText(text, set string) (eval.Answer, error) {
	if set == "" {
		set = string(AnswersAny)
	}
	r, err := ReadAnswer(text, AnswerSet(set))
	return eval.Answer{Label: r.Label, Phrase: r.Phrase}, err
}

// ReadChoice answers with what choice k's text reads as, when every
// choice has a text naming a different label, else with k itself when
// there are two choices (nlsat prompt's doc_to_choice: unsat, sat).
func (evalTask) ReadChoice(conts []string, k int) (eval.Answer, error) {
	a := eval.Answer{Phrase: strings.TrimSpace(conts[k])}
	seen := map[int]bool{}
	for _, c := range conts {
		r, _ := ReadAnswer(c, AnswersAny)
		if r.Label == eval.Unparseable || seen[r.Label] {
			seen = nil
			break
		}
		seen[r.Label] = true
	}
	if seen != nil {
		r, _ := ReadAnswer(conts[k], AnswersAny)
		a.Label = r.Label
		return a, nil
	}
	if len(conts) == 2 && conts[0] == "" && conts[1] == "" {
		a.Label = []int{dataset.LabelUnsat, dataset.LabelSat}[k]
		return a, nil
	}
	return eval.Answer{}, fmt.Errorf("cannot tell which choice means sat: the choices are %q", conts)
}
