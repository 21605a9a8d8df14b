package main

import (
	"encoding/json"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/dataset"
	"github.com/nlsat/nlsat/internal/stats"
)

type statsOptions struct {
	json    bool
	compare *enumFlag
}

func (o *statsOptions) addFlags(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&o.json, "json", false, "print one JSON object (fixed key order, every key present) instead of tables")
	cmd.Flags().Var(o.compare, "compare", "paper: print only the sentences and words per instance beside the paper's Tables 4 and 5")
	cmd.MarkFlagsMutuallyExclusive("json", "compare")
}

func newStatsCmd(s streams) *cobra.Command {
	o := &statsOptions{compare: newEnum("", "paper")}
	cmd := &cobra.Command{
		Use:   "stats [FILE...]",
		Short: "Summarise JSONL files: lengths, label balance per stratum, templates",
		Long: `Stats reads one or more files of records (stdin if none is given, or for -)
and prints, over all of them together:

  - sentences per instance (min, max, mean) per fragment: the paper's Table 4;
  - words per instance per fragment: the paper's Table 5, which counts words
    as the record's text split at spaces ("words (tokens) when separated by
    SPACE"), so punctuation stays attached and "non-artist" is one word;
  - label balance (sat, unsat, unlabelled, share of sat among the labelled)
    per stratum: each fragment with each (n1, n2), and each fragment with
    each number of sentences m;
  - how many sentences use each template (S1 … A3) and each template
    variant (e.g. A1.every-some.who-not), with their shares.

Rows are sorted (fragments S, W, V, Z, A, then by number), so the output
depends only on the records, not on their order. Every record must be
valid (id, sentences, label 1, 0 or -1 matching label_text, m equal to the
number of sentences); the first that is not stops stats with its file and
line.

` + exitCodesHelp,
		Example: `  nlsat stats nlsat-S/data/train.jsonl
  nlsat stats --json nlsat-S/data/*.jsonl > stats.json
  nlsat stats --compare paper nlsat-S/data/train.jsonl
  nlsat generate --fragment S --count 100 | nlsat stats`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				args = []string{"-"}
			}
			return runStats(o, args, s)
		},
	}
	o.addFlags(cmd)
	return cmd
}

func runStats(o *statsOptions, files []string, s streams) error {
	acc := stats.New()
	for _, f := range files {
		err := dataset.EachRecord(f, s.In, func(r *dataset.Record, _ string) error {
			acc.Add(r)
			return nil
		})
		if err != nil {
			return err
		}
	}
	rep := acc.Report()
	if o.compare.value == "paper" {
		return stats.WritePaperComparison(s.Out, rep)
	}
	if !o.json {
		return stats.WriteText(s.Out, rep)
	}
	enc := json.NewEncoder(s.Out)
	enc.SetEscapeHTML(false)
	return enc.Encode(rep)
}
