package admitprotect

import "encoding/json"

// kueueRule is one rule of Protection's JSON form.
type kueueRule struct {
	MinAdmitDuration string `json:"minAdmitDuration"`
}

// kueueJSON is Protection's JSON form, Kueue's preemptionProtection block.
type kueueJSON struct {
	FairSharing         *kueueRule `json:"fairSharing,omitempty"`
	ReclaimWithinCohort *kueueRule `json:"reclaimWithinCohort,omitempty"`
}

// MarshalJSON is the tests' writer of Kueue's preemptionProtection block,
// for example {"fairSharing":{"minAdmitDuration":"1h0m0s"}}, durations in
// Go's form, for the round trips of UnmarshalJSON (the library only reads
// the block).
func (c Protection) MarshalJSON() ([]byte, error) {
	var k kueueJSON
	if d := c.FairSharing; d != nil {
		k.FairSharing = &kueueRule{d.String()}
	}
	if d := c.ReclaimWithinCohort; d != nil {
		k.ReclaimWithinCohort = &kueueRule{d.String()}
	}
	return json.Marshal(k)
}
