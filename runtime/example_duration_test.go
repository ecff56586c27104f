package runtime_test

import (
	"fmt"

	"github.com/tenurepolicy/tenure/runtime"
)

func ExampleParseDuration() {
	for _, s := range []string{"600s", "1.5d", "2d4h30m", "1w2d3h", "0", "5", "1h-30m"} {
		d, err := runtime.ParseDuration(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s = %v\n", s, d)
	}
	// Output:
	// 600s = 10m0s
	// 1.5d = 36h0m0s
	// 2d4h30m = 52h30m0s
	// 1w2d3h = 219h0m0s
	// 0 = 0s
	// runtime: invalid duration "5": a number needs a unit (such as s, m, h, d); only 0 may omit it
	// runtime: invalid duration "1h-30m": sign '-' inside the duration (at "-30m")
}

func ExampleFormatDuration() {
	d, _ := runtime.ParseDuration("52h")
	fmt.Println(runtime.FormatDuration(d))
	d, _ = runtime.ParseDuration("1.5d")
	fmt.Println(runtime.FormatDuration(d))
	d, _ = runtime.ParseDuration("600s")
	fmt.Println(runtime.FormatDuration(d))
	d, _ = runtime.ParseDuration("1500ms")
	fmt.Println(runtime.FormatDuration(d))
	// Output:
	// 2d4h
	// 1d12h
	// 10m
	// 1s500ms
}
