// Package auditoff is package audit read without the audit tier: its
// audit finding is not reported, and the directive written for it while
// auditing is not reported as unused.
package auditoff

func maybeBlocks() {}

func surelyBlocks() {} // want `function surelyBlocks`

//sendlint:ignore baresend reviewed while auditing: the reader outlives us
func maybeReviewed() {}
