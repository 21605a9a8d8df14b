package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// deprecatedKey annotates a flag kept for old command lines with what to
// use instead.
const deprecatedKey = "nlsat-deprecated"

// Deprecate hides flag name of fs, an old spelling kept so that existing
// scripts keep working; WarnDeprecated tells who uses it what to write
// instead. (cobra's own MarkDeprecated would print the notice on stdout,
// among the data.)
func Deprecate(fs *pflag.FlagSet, name, instead string) {
	fs.MarkHidden(name)
	fs.SetAnnotation(name, deprecatedKey, []string{instead})
}

// WarnDeprecated writes one line on w for each deprecated flag that cmd's
// command line sets.
func WarnDeprecated(cmd *cobra.Command, w io.Writer) {
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if v := f.Annotations[deprecatedKey]; len(v) > 0 {
			fmt.Fprintf(w, "nlsat: --%s is deprecated; %s\n", f.Name, v[0])
		}
	})
}
