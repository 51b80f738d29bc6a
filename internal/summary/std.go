package summary

import (
	"go/ast"
	"go/build"
	"go/token"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// The standard library is summarised by this table, not by SSA: go vet
// runs the summary on every dependency of the packages it checks, std
// included, and building SSA for all of them would cost more than the
// checks themselves. The policy: no function or method of the standard
// library blocks on a send its caller can see, except those listed in
// stdCallsArg, which call a function argument before they return and so
// block when it does. Standard-library I/O (net.Conn.Write, an HTTP
// response body) blocks too, but it is not a send; -lockedsend.blocking
// adds such methods.
var stdCallsArg = map[string]int{
	"(*sync.Once).Do":   1, // SSA argument 0 is the receiver
	"(*sync.Map).Range": 1,
}

// isStd reports whether the package is part of the standard library: its
// path has no dot in its first element and its files live under
// $GOROOT/src. Both are needed: a GOPATH-mode test package has a dotless
// path too, and a vendored copy of a std package has a dot. One file
// there is enough: the go command hands vet the files cgo generates (net,
// os/user) from its build cache.
func isStd(path string, fset *token.FileSet, files []*ast.File) bool {
	first, _, _ := strings.Cut(path, "/")
	if strings.Contains(first, ".") || len(files) == 0 {
		return false
	}
	goroot := gorootDir()
	if goroot == "" {
		return false
	}
	root := filepath.Join(goroot, "src") + string(filepath.Separator)
	for _, f := range files {
		if strings.HasPrefix(fset.File(f.Pos()).Name(), root) {
			return true
		}
	}
	return false
}

// gorootDir is the standard library's root: go/build's, which a binary
// built with -trimpath (the golangci-lint plugin) does not know unless
// GOROOT is set, and then the go command's answer, asked once.
var gorootDir = sync.OnceValue(func() string {
	if build.Default.GOROOT != "" {
		return build.Default.GOROOT
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
})
