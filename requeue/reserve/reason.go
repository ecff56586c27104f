package reserve

import "github.com/tenurepolicy/tenure/eligibility"

// The reasons of [Planner.Backfill]'s denials.
const (
	// ReasonReserved denies a job a reserved node: it would still hold the
	// node at the reservation's planned start (Until), by its expected
	// runtime or by its min-runtime protection, or the reservation drains.
	ReasonReserved eligibility.Reason = "reserved"
	// ReasonNoExpectedRuntime denies a reserved node to a job without an
	// expected runtime: nothing says it would leave before the start.
	ReasonNoExpectedRuntime eligibility.Reason = "no_expected_runtime"
	// ReasonUnknownNode denies a node the last plan did not list (fail
	// closed: it may be reserved).
	ReasonUnknownNode eligibility.Reason = "unknown_node"
)

// The labels of allowed backfill decisions, of Observer events and of
// Reservation.Reason; the package doc lists them.
const (
	reasonNotReserved    eligibility.Reason = "not_reserved"
	reasonHolder         eligibility.Reason = "reservation_holder"
	reasonBackfill       eligibility.Reason = "backfill"
	reasonTaken          eligibility.Reason = "reservation_taken"
	reasonReplanned      eligibility.Reason = "reservation_replanned"
	reasonMoved          eligibility.Reason = "reservation_moved_earlier"
	reasonNoFit          eligibility.Reason = "holder_does_not_fit"
	reasonDraining       eligibility.Reason = "reservation_draining"
	reasonDue            eligibility.Reason = "reservation_due"
	reasonStarted        eligibility.Reason = "holder_started"
	reasonLeft           eligibility.Reason = "holder_left"
	reasonNotQualified   eligibility.Reason = "holder_not_qualified"
	reasonNodeGone       eligibility.Reason = "node_gone"
	reasonNoPlannedStart eligibility.Reason = "no_planned_start"
	reasonBadRequest     eligibility.Reason = "bad_request"
)

// source is the Source of the Planner's events.
const source = "reservation"
