package tenure

import (
	"errors"
	"fmt"
	"reflect"
)

// checkCallbacks reports every callback of c that is set but cannot be
// called: an interface holding a nil pointer, func, map, slice or channel
// (such as a nil eligibility.ObserverFunc,
// a nil clock.Func or a nil func type implementing requeue.VictimFilter), and a Logger
// without a handler (&slog.Logger{}) or whose handler is a nil pointer
// (slog.New((*slog.TextHandler)(nil))), one *ConfigError each. It
// runs once, in [New]; nothing on a decision path uses reflection.
func (c Config) checkCallbacks() []error {
	var errs []error
	check := func(key, field string, v any) {
		if v != nil && nilInside(v) {
			errs = append(errs, &ConfigError{key, fmt.Errorf("%s is a nil %T: set it to a usable value or leave it unset", field, v)})
		}
	}
	check("clock", "Clock", c.Clock)
	check("observer", "Observer", c.Observer)
	check("engine.observer", "Engine.Observer", c.Engine.Observer)
	for i, f := range c.Engine.Filters {
		check(fmt.Sprintf("engine.filters[%d]", i), fmt.Sprintf("Engine.Filters[%d]", i), f)
	}
	if c.Logger != nil {
		switch h := c.Logger.Handler(); {
		case h == nil:
			errs = append(errs, &ConfigError{"logger", errors.New("the Logger has no handler (a zero slog.Logger): build it with slog.New, or leave Logger nil")})
		case nilInside(h):
			errs = append(errs, &ConfigError{"logger", fmt.Errorf("the Logger's handler is a nil %T: build the handler with its constructor (such as slog.NewTextHandler), or leave Logger nil", h)})
		}
	}
	return errs
}

// nilInside reports whether the dynamic value of v is a nil pointer, func,
// map, slice, channel or interface.
func nilInside(v any) bool {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Func, reflect.Map, reflect.Slice, reflect.Chan, reflect.Interface, reflect.UnsafePointer:
		return rv.IsNil()
	}
	return false
}
