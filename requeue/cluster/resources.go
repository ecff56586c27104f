package cluster

import "strconv"

// Resources is a resource vector: CPU in millicores, memory in bytes, GPUs
// in whole devices. New and Model.AddJob reject components outside
// [0, 2^46].
type Resources struct {
	MilliCPU int64 // CPU in thousandths of a core
	Memory   int64 // memory in bytes
	GPU      int64 // whole GPU devices
}

// add returns r + o, component by component.
func (r Resources) add(o Resources) Resources {
	return Resources{r.MilliCPU + o.MilliCPU, r.Memory + o.Memory, r.GPU + o.GPU}
}

// sub returns r - o, component by component.
func (r Resources) sub(o Resources) Resources {
	return Resources{r.MilliCPU - o.MilliCPU, r.Memory - o.Memory, r.GPU - o.GPU}
}

// fits reports whether r fits into free: every component of r is at most the
// same component of free.
func (r Resources) fits(free Resources) bool {
	return r.MilliCPU <= free.MilliCPU && r.Memory <= free.Memory && r.GPU <= free.GPU
}

// max returns the component-wise maximum of r and o.
func (r Resources) max(o Resources) Resources {
	return Resources{max(r.MilliCPU, o.MilliCPU), max(r.Memory, o.Memory), max(r.GPU, o.GPU)}
}

// negative reports whether any component is below zero.
func (r Resources) negative() bool {
	return r.MilliCPU < 0 || r.Memory < 0 || r.GPU < 0
}

// String formats r as "cpu=1500m mem=2048 gpu=1".
func (r Resources) String() string {
	b := make([]byte, 0, 48)
	b = append(b, "cpu="...)
	b = strconv.AppendInt(b, r.MilliCPU, 10)
	b = append(b, "m mem="...)
	b = strconv.AppendInt(b, r.Memory, 10)
	b = append(b, " gpu="...)
	b = strconv.AppendInt(b, r.GPU, 10)
	return string(b)
}
