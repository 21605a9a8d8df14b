package cli

import "github.com/spf13/cobra"

// AddQuiet gives -q, --quiet to every command below root that lacks it, so
// that scripts can pass it to any command; such commands write nothing
// but errors on stderr.
func AddQuiet(root *cobra.Command) {
	for _, c := range root.Commands() {
		if c.Runnable() && c.Flags().Lookup("quiet") == nil {
			c.Flags().BoolP("quiet", "q", false, "no progress or summary on stderr (this command writes none)")
		}
	}
}
