package tenure

import (
	"errors"

	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/reserve"
)

// reservationConfig is Config.Reservation as the Policy's planner runs
// it: its requeue passes under engine (the composed engine's settings and
// filters), with Reservation.Engine's CanContend, and the Policy's
// Observer when it has none of its own.
func (c Config) reservationConfig(engine requeue.EngineConfig) reserve.Config {
	r := c.Reservation
	engine.CanContend = r.Engine.CanContend
	r.Engine = engine
	if r.Observer == nil {
		r.Observer = c.Observer
	}
	return r
}

// checkReservationEngine reports settings of Reservation.Engine other
// than CanContend: the requeue pass at a planned start runs under Engine,
// and a setting given only here would be ignored.
func (c Config) checkReservationEngine() []error {
	e := c.Reservation.Engine
	if e.Name != "" || e.DefaultDelay != 0 || e.MaxVictims != 0 || e.MaxAttempts != 0 || e.MaxFillFailures != 0 ||
		e.MaxChecks != 0 || e.MaxLostWork != 0 || e.VictimCost != nil || e.Filters != nil || e.VictimOrder != nil || e.Observer != nil {
		return []error{&ConfigError{"reservation.engine", errors.New(
			"Reservation.Engine holds only CanContend: the pass at a planned start runs under Engine (set its settings and filters there)")}}
	}
	return nil
}

// checkReservation returns Config.Reservation's problems, as reserve.New
// reports them (its engine settings are Engine's, checked apart).
func (c Config) checkReservation() error {
	r := c.Reservation
	r.Engine, r.Observer = requeue.EngineConfig{}, nil
	_, err := reserve.New(r)
	return err
}
