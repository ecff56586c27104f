package stats

import (
	"encoding/json"
	"math"
)

// Float is a float64 that encodes as JSON null when it is NaN or infinite
// (JSON has no such numbers; encoding/json refuses them).
type Float float64

// MarshalJSON encodes f as a JSON number, or null when it is not finite.
func (f Float) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(v)
}

// UnmarshalJSON decodes a JSON number, and null as NaN.
func (f *Float) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = Float(math.NaN())
		return nil
	}
	var v float64
	err := json.Unmarshal(b, &v)
	*f = Float(v)
	return err
}

// MarshalJSON encodes v as {"value": V} plus "lower_bound": true when it
// is one; a V that is not finite encodes as null.
func (v Value) MarshalJSON() ([]byte, error) {
	type plain struct {
		V        Float `json:"value"`
		Censored bool  `json:"lower_bound,omitempty"`
	}
	return json.Marshal(plain{Float(v.V), v.Censored})
}
