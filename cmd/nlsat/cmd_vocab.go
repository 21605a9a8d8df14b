package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/nlsat/nlsat/internal/fragments"
)

func newVocabCmd(s streams) *cobra.Command {
	var vocab vocabFlag
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "vocab",
		Short: "Print the nouns and verbs instances are drawn from",
		Long: fmt.Sprintf(`Vocab prints the vocabulary: the built-in one (%d profession nouns with
their articles, %d transitive verbs with their third-person forms; the
paper used 156 and 70), or with --vocab FILE that file's, checked as every
command that samples or parses checks it. Its output is a vocabulary file:
edit it and pass it back with --vocab to generate, split, phase-sweep,
crosscheck, label, pairs, distract, solve or translate. Words are lower-case
letters, each used once, not a function word of the grammar ("every",
"some", "him", ...) nor a keyword of SMT-LIB or TPTP.

`, len(fragments.Nouns()), len(fragments.Verbs())) + exitCodesHelp,
		Example: `  nlsat vocab > words.txt
  nlsat vocab --vocab words.txt --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			lx, err := vocab.words()
			if err != nil {
				return err
			}
			if asJSON {
				return json.NewEncoder(s.Out).Encode(lx)
			}
			fmt.Fprintf(s.Err, "nlsat: %d nouns, %d verbs (digest %s)\n", len(lx.Nouns()), len(lx.Verbs()), lx.Digest())
			return lx.WriteText(s.Out)
		},
	}
	vocab.addFlag(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, `print {"nouns": [{"article", "word"}], "verbs": [{"base", "third"}]} instead`)
	return cmd
}
