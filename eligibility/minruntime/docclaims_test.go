package minruntime_test

import (
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"

	"github.com/tenurepolicy/tenure/eligibility/minruntime"
)

var dcNow = time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)

// ScenarioValidator: the zero value rejects a scenario taking active tasks
// of an elastic victim with ReasonNoResolver (no Until), lets a
// non-elastic one go, and, once its scratch is sized, allocates nothing.
func TestDocClaimScenarioValidatorZero(t *testing.T) {
	elastic := &eligibility.Job{ID: "e", Queue: 2, Start: dcNow.Add(-time.Minute), Subgroups: []eligibility.Subgroup{{Name: "w", MinAvailable: 1, Active: 3}}}
	rigid := &eligibility.Job{ID: "r", Queue: 2, Start: dcNow.Add(-time.Minute), Subgroups: []eligibility.Subgroup{{Name: "w", MinAvailable: 3, Active: 3}}}
	take := []minruntime.Task{{Subgroup: "w", Active: true}}
	var v minruntime.Validator
	d, err := v.Validate(0, 2, []minruntime.Victim{{Job: elastic, Tasks: take}}, dcNow)
	if err != nil || d.Allowed || d.Reason != minruntime.ReasonNoResolver || !d.Until.IsZero() {
		t.Errorf("elastic victim, zero validator: %+v, %v; want denied no_resolver, no Until", d, err)
	}
	d, err = v.Validate(0, 2, []minruntime.Victim{{Job: rigid, Tasks: take}}, dcNow)
	if err != nil || !d.Allowed {
		t.Errorf("non-elastic victim, zero validator: %+v, %v; want allowed", d, err)
	}
	scenario := []minruntime.Victim{{Job: elastic, Tasks: take}, {Job: rigid, Tasks: take}}
	if a := testing.AllocsPerRun(50, func() { _, _ = v.Validate(0, 2, scenario, dcNow) }); a != 0 {
		t.Errorf("Validate allocates %v times once its scratch is sized", a)
	}
}
