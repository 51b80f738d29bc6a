// Package audit exercises the audit tier: the test analyzer reports each
// function whose name starts with "maybe" through Reporter.Audit.
package audit

func maybeBlocks() {} // want `function maybeBlocks \[audit: nothing is proven\]`

func surelyBlocks() {} // want `function surelyBlocks`

//sendlint:ignore baresend reviewed while auditing: the reader outlives us
func maybeReviewed() {}
