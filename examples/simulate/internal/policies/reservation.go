package policies

import "github.com/tenurepolicy/tenure/requeue/reserve"

// ReservationConfig is the reserve policy's tenure.Config.Reservation:
// at most -reservations jobs hold reservations at a time (Max), each
// once it has waited -reserve-after (After) and only when it asks for
// -reserve-min-gpus GPUs or more in all (MinUnits: a reservation's units
// are GPUs). The requeue pass at a planned start runs under the run's
// Engine and its filters (min-runtime protection first), with no
// CanContend of its own: the holder may requeue any job on its nodes.
// MaxReplans keeps the library's default (3).
func ReservationConfig(set Settings) reserve.Config {
	return reserve.Config{Max: set.Reservations, After: set.ReserveAfter, MinUnits: int64(set.ReserveMinGPUs)}
}
