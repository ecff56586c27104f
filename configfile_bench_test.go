package tenure_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/tenurepolicy/tenure"
)

// BenchmarkConfigUnmarshal decodes a file of 1,000 and 10,000 queues with
// every other part set, beside a naive baseline: encoding/json into the
// same shape without the exact-key check and the conversions.
func BenchmarkConfigUnmarshal(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		c := fullConfig()
		c.Queues = nil
		for i := range n {
			c.Queues = append(c.Queues, tenure.Queue{Name: fmt.Sprintf("q%d", i), PreemptMinRuntime: "20m", ReclaimMinRuntime: "1h"})
		}
		data, err := tenure.MarshalConfig(c)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("queues=%d/Config", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var got tenure.Config
				if err := json.Unmarshal(data, &got); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("queues=%d/naive", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var got struct {
					Queues []tenure.Queue  `json:"queues"`
					Rest   json.RawMessage `json:"-"`
				}
				if err := json.Unmarshal(data, &got); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
