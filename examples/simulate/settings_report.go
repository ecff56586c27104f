package main

import (
	"github.com/tenurepolicy/tenure/examples/simulate/internal/report"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/sim"
	"github.com/tenurepolicy/tenure/runtime"
)

func queueSettings(qs []sim.QueueDuration) []report.QueueSetting {
	out := []report.QueueSetting{}
	for _, q := range qs {
		out = append(out, report.QueueSetting{Queue: q.Queue, Duration: runtime.FormatDuration(q.D)})
	}
	return out
}

func (o options) settingsReport() report.SettingsReport {
	set := o.settings
	r := report.SettingsReport{
		MinRuntime: queueSettings(set.MinRuntime), PreemptMinRuntime: queueSettings(set.PreemptMinRuntime), ReclaimMethod: set.Method.String(),
		ExpectedRuntime: queueSettings(set.Expected), RequeueDelay: runtime.FormatDuration(set.RequeueDelay),
		RequeueContenders: "higher", MaxLostWork: set.MaxLostWork, MinAdmit: runtime.FormatDuration(set.MinAdmit), NewerRule: !set.NoNewer,
		ReserveAfter: runtime.FormatDuration(set.ReserveAfter), ThrashWindow: runtime.FormatDuration(set.ThrashWindow),
		Checkpoint: runtime.FormatDuration(o.checkpoint), CheckpointSave: runtime.FormatDuration(o.cpSave),
		CheckpointRestore: runtime.FormatDuration(o.cpRestore), Interval: runtime.FormatDuration(o.interval),
		Tail: runtime.FormatDuration(o.tail), Teams: o.teams, NodeStride: o.nodeStride, Speedup: o.speedup,
		ScaleMix: o.scaleMix, Seed: o.seed, Reservations: set.Reservations, ReserveMinGPUs: set.ReserveMinGPUs, Placement: o.placement.String(),
		ArrivalJitter:  runtime.FormatDuration(o.jitter),
		PreemptorDelay: runtime.FormatDuration(set.PreemptorDelay), EvictionBudget: formatBudget(set.BudgetMax, set.BudgetWindow),
	}
	if set.RequeueEqual {
		r.RequeueContenders = "higher-or-equal"
	}
	return r
}
