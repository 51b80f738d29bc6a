// Package testsuite ships: a directory that only begins with "test" is not
// a test suite's, so its findings are reported.
package testsuite

func run() {} // want `function run`
