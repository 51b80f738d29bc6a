// Package helpertest is a package of test helpers: not reported unless the
// tests flag is on.
package helpertest

func helper() {}
