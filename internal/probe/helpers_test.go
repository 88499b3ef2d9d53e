package probe

import "errors"

// errorsAs is errors.As for a target of type **T.
func errorsAs[T error](err error, target *T) bool { return errors.As(err, target) }
