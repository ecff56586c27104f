package timebased

import "encoding/json"

// kueueJSON is Config's JSON form, the within-queue part of Kueue's
// ClusterQueue preemption block with KEP-8522's withinClusterQueueConfig.
type kueueJSON struct {
	WithinClusterQueue       string           `json:"withinClusterQueue,omitempty"`
	WithinClusterQueueConfig *kueueConfigJSON `json:"withinClusterQueueConfig,omitempty"`
}

type kueueConfigJSON struct {
	MinAdmitDuration *string `json:"minAdmitDuration,omitempty"`
}

// MarshalJSON is the tests' writer of Kueue's preemption block, for
// example {"withinClusterQueue":"LowerOrNewerEqualPriority","withinClusterQueueConfig":{"minAdmitDuration":"4h0m0s"}},
// durations in Go's form, for the round trips of UnmarshalJSON (the
// library only reads the block).
func (c Config) MarshalJSON() ([]byte, error) {
	out := kueueJSON{WithinClusterQueue: c.Policy.name()}
	if m := c.MinAdmitDuration; m != nil {
		s := m.String()
		out.WithinClusterQueueConfig = &kueueConfigJSON{MinAdmitDuration: &s}
	}
	return json.Marshal(out)
}
