package main

import (
	"bytes"
	"strings"
	"testing"
)

// A bad setting is blamed on the flag that set it, once, whether given as
// a flag or as a -sweep point: tenure's own config check, which repeats
// the settings' Validate methods, must neither name another flag (an
// eviction budget's zero window is not -min-runtime's problem) nor add a
// second line for the same flag.
func TestSettingErrorsNameTheirFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-eviction-budget", "1/0s"}, "simulate: -eviction-budget: eligibility: eviction budget Window must be positive"},
		{[]string{"-sweep", "eviction-budget=none,1/0s"}, "simulate: -sweep point eviction-budget=1/0s: simulate: -eviction-budget: eligibility:"},
		{[]string{"-max-lost-work", "-1"}, "simulate: -max-lost-work: requeue: MaxLostWork -1"},
		{[]string{"-policies", "requeue", "-sweep", "max-lost-work=none,-1"}, "simulate: -sweep point max-lost-work=-1: simulate: -max-lost-work: requeue:"},
		{[]string{"-preemptor-delay", "-1s"}, "simulate: -preemptor-delay: runtime: invalid duration"},
	} {
		var out, errOut bytes.Buffer
		err := run(tc.args, &out, &errOut)
		if err == nil {
			t.Errorf("%q: no error", tc.args)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, tc.want) || strings.Contains(msg, "-min-runtime") || strings.Count(msg, "\n") != 0 {
			t.Errorf("%q: got\n%s\nwant one line with %q, naming no other flag", tc.args, msg, tc.want)
		}
	}
}
