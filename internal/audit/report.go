package audit

import "encoding/json"

// Report is the result of an audit. Its JSON form has a fixed key order,
// every key is present whatever the input, and numbers are rounded (rates
// to 4 decimals, information to 6), so equal inputs give equal bytes.
//
// In a binary report label 1 is called sat and label 0 unsat, whatever
// the task names them. The audit of a task of more labels sets Pairwise,
// and of the other fields only the header (Dir to MinStratum); its JSON
// form is then Pairwise's, and its text and summary are Pairwise's.
type Report struct {
	Dir        string  `json:"dir"`
	Threshold  float64 `json:"threshold"`
	Confidence float64 `json:"confidence"`
	// Criterion says how an accuracy is compared with Threshold.
	Criterion string `json:"criterion"`
	// MinStratum is the number of records a stratum needs to be reported.
	MinStratum int          `json:"min_stratum"`
	Splits     []SplitCount `json:"splits"`
	// FittedOn is the number of train records the models were fitted to,
	// when it is fewer than train holds (Options.MaxTrain); 0 otherwise.
	FittedOn  int            `json:"fitted_on,omitempty"`
	Features  []FeatureInfo  `json:"features"`
	Baselines []BaselineInfo `json:"baselines"`
	// CountWeights are the surface-count model's weights on standardised
	// features, in feature order.
	CountWeights []Weight `json:"count_weights"`
	BoW          BoWInfo  `json:"bow"`
	// MutualInfo is measured on train, overall and per stratum.
	MutualInfo MutualInfo    `json:"mutual_information"`
	Results    []SplitResult `json:"results"`
	// Metadata scores the fields beside the text (seed index, file
	// position, id) and the balance of each split's head, per split.
	Metadata []MetaSplit `json:"metadata"`
	// Order audits each split file's sequence of labels: runs of one
	// label and positions that predict it.
	Order []OrderSplit `json:"order"`
	// SentencePairs are the sentence-pair baselines (nil unless the
	// task's Spec asks for them).
	SentencePairs *SentPairReport `json:"sentence_pairs"`
	// Difficulty is how much of each split one-step reasoning solves (nil
	// unless the task's Spec asks for it).
	Difficulty []DifficultyProfile `json:"difficulty"`
	// Pairwise is the audit of a task of more than two labels, nil
	// otherwise.
	Pairwise *PairwiseReport `json:"-"`
	// summary opens the summary (the task's Spec.Summary); nil in a
	// report read back from JSON.
	summary func(features int, train string, records int) string
}

// plainReport is Report without its JSON methods.
type plainReport Report

// MarshalJSON writes the report, or Pairwise when it is set. HTML
// characters are left as they are; an encoder that escapes them escapes
// them in the result.
func (r Report) MarshalJSON() ([]byte, error) {
	var v any = (*plainReport)(&r)
	if r.Pairwise != nil {
		v = r.Pairwise
	}
	return marshalNoEscape(v)
}

// UnmarshalJSON reads what MarshalJSON writes: a JSON object with the
// key "pairs" is a pairwise audit.
func (r *Report) UnmarshalJSON(data []byte) error {
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(data, &keys); err != nil {
		return err
	}
	if _, ok := keys["pairs"]; !ok {
		return json.Unmarshal(data, (*plainReport)(r))
	}
	e := &PairwiseReport{}
	if err := json.Unmarshal(data, e); err != nil {
		return err
	}
	*r = Report{Dir: e.Dir, Threshold: e.Threshold, Confidence: e.Confidence, Criterion: e.Criterion, MinStratum: e.MinStratum, Pairwise: e}
	return nil
}

// SplitCount is the size and label balance of one file.
type SplitCount struct {
	Split   string `json:"split"`
	File    string `json:"file"`
	Records int    `json:"records"`
	Sat     int    `json:"sat"`
	Unsat   int    `json:"unsat"`
}

// FeatureInfo says what a surface feature measures and how it is binned.
type FeatureInfo struct {
	Name    string `json:"name"`
	About   string `json:"about"`
	Binning string `json:"binning"`
}

// BaselineInfo describes how a baseline was trained.
type BaselineInfo struct {
	Name          string  `json:"name"`
	About         string  `json:"about"`
	Lambda        float64 `json:"lambda"`
	Iterations    int     `json:"iterations"`
	TrainAccuracy float64 `json:"train_accuracy"`
}

// Weight is a model coefficient on a named feature or n-gram.
type Weight struct {
	Name   string  `json:"name"`
	Weight float64 `json:"weight"`
}

// BoWInfo describes the n-gram model's vocabulary and its strongest
// n-grams toward each label.
type BoWInfo struct {
	MinCount    int      `json:"min_count"`
	Vocabulary  int      `json:"vocabulary"`
	TowardSat   []Weight `json:"toward_sat"`
	TowardUnsat []Weight `json:"toward_unsat"`
}

// MutualInfo holds the label–feature information on train.
type MutualInfo struct {
	Split        string      `json:"split"`
	Records      int         `json:"records"`
	Permutations int         `json:"permutations"`
	Features     []MI        `json:"features"`
	Strata       []MIStratum `json:"strata"`
}

// MIStratum is the MI of every feature within one stratum of train.
type MIStratum struct {
	Stratum  Stratum `json:"stratum"`
	Records  int     `json:"records"`
	Features []MI    `json:"features"`
}

// Stratum names a group of records: a fragment with one (n1, n2), kind
// "n1-n2", or a fragment with m in [MLo, MHi], kind "m". Fields of the
// other kind are 0.
type Stratum struct {
	Kind     string `json:"kind"`
	Fragment string `json:"fragment"`
	N1       int    `json:"n1"`
	N2       int    `json:"n2"`
	MLo      int    `json:"m_lo"`
	MHi      int    `json:"m_hi"`
}

// Score is one predictor's accuracy on a set of records, with its Wilson
// interval; Above is set when the interval's lower end exceeds the
// threshold.
type Score struct {
	Name     string  `json:"name"`
	Correct  int     `json:"correct"`
	Total    int     `json:"total"`
	Accuracy float64 `json:"accuracy"`
	Lo       float64 `json:"lo"`
	Hi       float64 `json:"hi"`
	Above    bool    `json:"above"`
}

// StratumScore holds the baselines' scores on one stratum of a split.
type StratumScore struct {
	Stratum   Stratum `json:"stratum"`
	Records   int     `json:"records"`
	Baselines []Score `json:"baselines"`
}

// SplitResult is the audit of one evaluation split.
type SplitResult struct {
	Split     string  `json:"split"`
	Records   int     `json:"records"`
	Baselines []Score `json:"baselines"`
	// Lookups score each feature alone: each bin predicts its majority
	// label in train.
	Lookups []Score        `json:"lookups"`
	Strata  []StratumScore `json:"strata"`
	// SmallStrata counts the strata left out for having fewer than the
	// minimum number of records.
	SmallStrata int     `json:"small_strata"`
	Verdict     Verdict `json:"verdict"`
	// Fragments, when the split holds several fragments, scores each
	// fragment's records alone with the same models.
	Fragments []FragmentResult `json:"fragments,omitempty"`
}

// FragmentResult is the audit of one fragment's records of a split that
// holds several: the baselines and lookups trained on all of train,
// scored on this fragment's records alone, and their verdict. A shortcut
// that one fragment carries and the others dilute shows here.
type FragmentResult struct {
	Fragment  string  `json:"fragment"`
	Records   int     `json:"records"`
	Baselines []Score `json:"baselines"`
	Lookups   []Score `json:"lookups"`
	Verdict   Verdict `json:"verdict"`
}

// Verdict says whether a split has a surface shortcut. Leaks names each
// predictor whose accuracy is above the threshold (baselines by name,
// single features as "feature:NAME").
type Verdict struct {
	Shortcut bool     `json:"shortcut"`
	Leaks    []string `json:"leaks"`
	Text     string   `json:"text"`
}

// Shortcuts lists the verdicts that found a shortcut, as "split: text":
// the baselines', the metadata's, the file order's and the sentence
// pairs' (every pair's, the vote's and the order's of a pairwise audit);
// none when the audit found none.
func (r *Report) Shortcuts() []string {
	var out []string
	add := func(where string, v Verdict) {
		if v.Shortcut {
			out = append(out, where+": "+v.Text)
		}
	}
	if e := r.Pairwise; e != nil {
		for _, p := range e.Pairs {
			if p.Report != nil {
				for _, s := range p.Report.Shortcuts() {
					out = append(out, p.Pair+" "+s)
				}
			}
		}
		for _, t := range e.Multiway {
			add(t.Split+" "+e.ways()+"-way", t.Verdict)
		}
		for _, os := range e.Order {
			add(os.Split+" order", os.Verdict)
		}
		return out
	}
	for _, res := range r.Results {
		add(res.Split, res.Verdict)
		for _, fr := range res.Fragments {
			add(res.Split+" fragment "+fr.Fragment, fr.Verdict)
		}
	}
	for _, ms := range r.Metadata {
		add(ms.Split+" metadata", ms.Verdict)
	}
	for _, os := range r.Order {
		add(os.Split+" order", os.Verdict)
	}
	if sp := r.SentencePairs; sp != nil {
		for _, ps := range sp.Splits {
			add(ps.Split+" sentence pairs", ps.Verdict)
			for _, fs := range ps.Fragments {
				add(ps.Split+" sentence pairs, fragment "+fs.Fragment, fs.Verdict)
			}
		}
	}
	return out
}
