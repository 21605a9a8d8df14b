package audit

import "fmt"

// Difficulty. Not every label a baseline gets right is a shortcut: about
// half the unsat instances of the phase region hold two sentences that
// contradict each other, and a reasoner that compares sentences two at a
// time finds them. That is inference, not a surface artefact, and the
// balance must not remove it; but users must know how much of a split
// such one-step reasoning already solves, next to their model's score.
// The profile reads it off the records: the certified MUS of every unsat
// instance, and difficulty.unsat_pair (record schema 3), a certified
// contradictory pair or the certified absence of one. The one-step
// detector says unsat exactly when a record has such a pair: it is never
// wrong on sat instances, and right on the unsat ones with a pair.

// MUSBuckets are the MUS sizes the profile counts; the last one counts
// that size and above.
var MUSBuckets = []int{1, 2, 3, 4, 5, 6}

// DifficultyProfile is the difficulty of one split: its unsat records by
// the size of their MUS, how many of them hold a contradictory pair, and
// the one-step detector's accuracy on the split. PairKnown counts the
// unsat records that say whether they hold a pair (files of record
// schema 3); OneStep is only scored when all of them do.
type DifficultyProfile struct {
	Split     string   `json:"split"`
	Records   int      `json:"records"`
	Unsat     int      `json:"unsat"`
	MUSSizes  []Bucket `json:"mus_sizes"`
	PairKnown int      `json:"pair_known"`
	WithPair  int      `json:"with_pair"`
	OneStep   *Score   `json:"one_step"`
}

// Bucket counts the unsat records whose MUS has Size sentences (Size and
// more for the last bucket).
type Bucket struct {
	Size  int `json:"size"`
	Count int `json:"count"`
}

// OneStep names the one-step detector.
const OneStep = "one-step"

// difficultyReport profiles every split.
func difficultyReport(splits []*split, o Options) []DifficultyProfile {
	var out []DifficultyProfile
	for _, s := range splits {
		d := DifficultyProfile{Split: s.name, Records: len(s.items)}
		counts := make([]int, len(MUSBuckets))
		pred, y := make([]int8, len(s.items)), make([]int8, len(s.items))
		for i := range s.items {
			it := &s.items[i]
			y[i], pred[i] = it.label, 1
			if it.label != 0 {
				continue
			}
			d.Unsat++
			if it.mus > 0 {
				counts[min(int(it.mus), MUSBuckets[len(MUSBuckets)-1])-1]++
			}
			if it.pair >= 0 {
				d.PairKnown++
			}
			if it.pair > 0 {
				d.WithPair++
				pred[i] = 0
			}
		}
		for k, size := range MUSBuckets {
			d.MUSSizes = append(d.MUSSizes, Bucket{Size: size, Count: counts[k]})
		}
		if d.PairKnown == d.Unsat && d.Records > 0 {
			sc := score(OneStep, pred, y, nil, o)
			sc.Above = false // inference, not a shortcut
			d.OneStep = &sc
		}
		out = append(out, d)
	}
	return out
}

// Text describes the profile in one line.
func (d DifficultyProfile) Text() string {
	if d.Unsat == 0 {
		return "no unsat records"
	}
	s := fmt.Sprintf("%.1f%% of %d unsat records have a MUS of 2 sentences or fewer", 100*float64(d.MUSSizes[0].Count+d.MUSSizes[1].Count)/float64(d.Unsat), d.Unsat)
	if d.OneStep == nil {
		return s + "; the records do not say whether they hold a contradictory pair (record schema before nlsat-record/3)"
	}
	return s + fmt.Sprintf(", %.1f%% hold two sentences that contradict each other; a one-step reasoner that finds such pairs scores %.1f%% [%.1f, %.1f]",
		100*float64(d.WithPair)/float64(d.Unsat), 100*d.OneStep.Accuracy, 100*d.OneStep.Lo, 100*d.OneStep.Hi)
}
