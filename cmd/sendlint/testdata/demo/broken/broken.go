// Package broken does not type-check.
package broken

func f() int { return undefinedName }
