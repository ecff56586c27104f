package eligibility_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/admitprotect"
	"github.com/tenurepolicy/tenure/eligibility/evictionbudget"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/eligibility/preemptordelay"
)

// The label values are part of the contract (KAI-Scheduler's expected-runtime
// plugin's metric labels, and tenure's own).
func TestReasonStrings(t *testing.T) {
	want := map[eligibility.Reason]string{
		eligibility.Reason("not_protected"):      "not_protected",
		eligibility.Reason("no_min_runtime"):     "no_min_runtime",
		minruntime.ReasonElasticDeferred:         "elastic_deferred",
		eligibility.ReasonMissingStart:           "missing_start",
		eligibility.ReasonClockSkew:              "clock_skew",
		eligibility.ReasonMinRuntimeProtected:    "minruntime_protected",
		minruntime.ReasonUnknownQueue:            "unknown_queue",
		minruntime.ReasonQueueUnset:              "queue_unset",
		minruntime.ReasonNoResolver:              "no_resolver",
		eligibility.ReasonInvalidAction:          "invalid_action",
		eligibility.Reason("min_available_kept"): "min_available_kept",
		minruntime.ReasonBelowMinAvailable:       "below_min_available",
		minruntime.ReasonInvalidCounts:           "invalid_counts",
		minruntime.ReasonConflictingVictims:      "conflicting_victims",
		minruntime.ReasonDuplicateSubgroup:       "duplicate_subgroup",
		eligibility.Reason("nominated"):          "nominated",
		expectedruntime.ReasonNotRunning:         "not_running",
		expectedruntime.ReasonNotPreemptible:     "not_preemptible",
		expectedruntime.ReasonNotConfigured:      "not_configured",
		expectedruntime.ReasonInvalidDuration:    "invalid_duration",
		expectedruntime.ReasonNotExceeded:        "not_exceeded",
		expectedruntime.ReasonInvalidNotBefore:   "invalid_not_before",
		eligibility.ReasonCooldown:               "cooldown",

		eligibility.Reason("no_min_admit"):             "no_min_admit",
		eligibility.Reason("not_admitted"):             "not_admitted",
		eligibility.Reason("already_evicted"):          "already_evicted",
		eligibility.Reason("min_admit_elapsed"):        "min_admit_elapsed",
		admitprotect.ReasonMinAdmitProtected:           "min_admit_protected",
		eligibility.Reason("no_preemptor_delay"):       "no_preemptor_delay",
		eligibility.Reason("preemptor_waited"):         "preemptor_waited",
		preemptordelay.ReasonDelayed:                   "preemptor_delay",
		preemptordelay.ReasonQueuedUnknown:             "queued_unknown",
		eligibility.Reason("invalid_preemption_delay"): "invalid_preemption_delay",
		eligibility.Reason("no_eviction_budget"):       "no_eviction_budget",
		eligibility.Reason("within_eviction_budget"):   "within_eviction_budget",
		evictionbudget.ReasonExhausted:                 "eviction_budget_exhausted",
		eligibility.Reason("invalid_eviction_record"):  "invalid_eviction_record",
		expectedruntime.ReasonInvalidLastCheckpoint:    "invalid_last_checkpoint",
	}
	declared := declaredReasons(t, ".")
	if diff := cmp.Diff(want, declared); diff != "" {
		t.Errorf("the table and the Reason constants declared in the package differ (-table +declared):\n%s", diff)
	}
	for r, label := range want {
		if r.String() != label || string(r) != label || !validLabel(r) {
			t.Errorf("%q: String %q, Valid %v", label, r.String(), validLabel(r))
		}
	}
	if s := eligibility.Reason("").String(); s != "none" {
		t.Errorf("zero Reason: %q", s)
	}
	for _, bad := range []eligibility.Reason{"", "Cooldown", "_x", "1x", "a-b", "a b", "é", eligibility.Reason(strings.Repeat("a", 65))} {
		if validLabel(bad) {
			t.Errorf("%q is Valid", bad)
		}
	}
	for _, good := range []eligibility.Reason{"a", "no_fit", "x9_", eligibility.Reason(strings.Repeat("a", 64))} {
		if !validLabel(good) {
			t.Errorf("%q is not Valid", good)
		}
	}
}

// declaredReasons parses the non-test Go files of dir and returns every
// constant declared with type Reason (or eligibility.Reason) and its label,
// so that a test can check a table against what the package really declares.
func declaredReasons(t *testing.T, dir string) map[eligibility.Reason]string {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	sub, err := filepath.Glob(filepath.Join(dir, "*", "*.go")) // the policies' packages
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, sub...)
	out := map[eligibility.Reason]string{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				typ := types.ExprString(vs.Type)
				if typ != "Reason" && typ != "eligibility.Reason" {
					continue
				}
				for i := range vs.Names {
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok {
						t.Fatalf("%s: %s is not a string literal", name, vs.Names[i].Name)
					}
					label, err := strconv.Unquote(lit.Value)
					if err != nil {
						t.Fatal(err)
					}
					if _, dup := out[eligibility.Reason(label)]; dup {
						t.Errorf("label %q declared twice", label)
					}
					out[eligibility.Reason(label)] = label
				}
			}
		}
	}
	return out
}
