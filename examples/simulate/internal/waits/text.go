package waits

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/stats"
)

// WriteText prints one policy's class waits as a table: per class the
// maximum and Kaplan–Meier p95, then per size bucket; each row with its
// jobs, the unfinished ones (whose waits are lower bounds) and those of
// them waiting at the end (the rest were running), p95 and maximum. dur formats seconds (the report's duration format); lower
// bounds get a "≥".
func WriteText(w io.Writer, policy string, cs []ClassWaits, dur func(sec float64) string) error {
	f := func(v stats.Value) string {
		if v.Censored {
			return "≥" + dur(v.V)
		}
		return dur(v.V)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s\tclass\tGPUs\tjobs\tunfinished\twaiting\tp95\tmax\t\n", policy)
	for _, c := range cs {
		fmt.Fprintf(tw, "\t%s\tall\t%d\t%d\t%d\t%s (KM %s)\t%s\t\n", c.Class, c.Jobs, c.Censored, c.Waiting, f(c.P95), f(c.KM95), f(c.Max))
		for _, s := range c.BySize {
			fmt.Fprintf(tw, "\t\t%s\t%d\t%d\t%d\t%s\t%s\t\n", s.Size, s.Jobs, s.Censored, s.Waiting, f(s.P95), f(s.Max))
		}
	}
	return tw.Flush()
}
