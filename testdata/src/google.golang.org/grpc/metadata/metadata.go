// Package metadata stubs the google.golang.org/grpc/metadata type that the
// stream interfaces mention.
package metadata

// MD is a mapping from metadata keys to values.
type MD map[string][]string
