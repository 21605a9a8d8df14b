package cli

import (
	"regexp"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Enum is a flag value with a fixed set of allowed values, which
// completion offers.
type Enum interface {
	pflag.Value
	Allowed() []string
}

// fileFlags are the flags that name a file or directory.
var fileFlags = map[string]bool{"out": true, "file": true, "region": true, "vocab": true, "gold": true, "pred": true,
	"example": true, "timing": true, "plot": true, "per-record": true}

// Complete registers shell completion on every command below root: the
// allowed values of each Enum flag, file names for file flags (directory
// names for a flag whose help begins "output directory") and for
// positional FILE arguments (directories for DIR), and nothing for other
// arguments, such as solve's sentences.
func Complete(root *cobra.Command) {
	for _, c := range root.Commands() {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			e, enum := f.Value.(Enum)
			switch {
			case enum:
				c.RegisterFlagCompletionFunc(f.Name, cobra.FixedCompletions(e.Allowed(), cobra.ShellCompDirectiveNoFileComp))
			case fileFlags[f.Name] && strings.HasPrefix(f.Usage, "output directory"):
				c.MarkFlagDirname(f.Name)
			case fileFlags[f.Name]:
				c.MarkFlagFilename(f.Name)
			}
		})
		if c.ValidArgsFunction == nil {
			c.ValidArgsFunction = positional(c.Use)
		}
	}
}

// flagInUse matches a flag and its value in a command's Use line.
var flagInUse = regexp.MustCompile(`--\S+ \S+`)

// positional completes the arguments that a command's Use line names.
func positional(use string) cobra.CompletionFunc {
	args := strings.TrimSpace(flagInUse.ReplaceAllString(use, ""))
	directive := cobra.ShellCompDirectiveNoFileComp
	switch {
	case strings.Contains(args, "FILE") || strings.Contains(args, "file") || strings.Contains(args, "SWEEP"):
		directive = cobra.ShellCompDirectiveDefault
	case strings.Contains(args, "DIR"):
		directive = cobra.ShellCompDirectiveFilterDirs
	}
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) { return nil, directive }
}
