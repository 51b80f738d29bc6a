package triage

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Where says whose code a frame runs.
type Where int

// Places a frame's code can be.
const (
	Unmapped Where = iota // not found on disk: see Place.Why
	Std                   // the standard library or the runtime
	MainModule
	Dependency
)

// Place is a dump frame mapped onto this machine.
type Place struct {
	Where  Where
	File   string // the local file, for MainModule and Dependency
	Line   int
	Module Module // for MainModule and Dependency
	Pkg    string // the package's import path
	Why    string // for Unmapped: why the file was not found
}

// Rewrite replaces the prefix From of a dump path with To (-map from=to).
type Rewrite struct{ From, To string }

// ParseRewrite parses "from=to".
func ParseRewrite(s string) (Rewrite, error) {
	from, to, ok := strings.Cut(s, "=")
	if !ok || from == "" || to == "" {
		return Rewrite{}, fmt.Errorf("-map %q: want from=to, a path prefix in the dump and the directory it is here", s)
	}
	return Rewrite{From: from, To: to}, nil
}

// Mapper maps the files a dump names onto the build list on disk.
type Mapper struct {
	BuildList *BuildList
	Rewrites  []Rewrite
	cache     map[Frame]Place
}

// NewMapper returns a Mapper for bl.
func NewMapper(bl *BuildList, rewrites []Rewrite) *Mapper {
	return &Mapper{BuildList: bl, Rewrites: rewrites, cache: make(map[Frame]Place)}
}

// Map finds a frame's source on disk. It tries, in order: the -map
// rewrites; the path as it is; and the frame's package: its import path
// names its module in the build list and its directory there, whatever
// layout the build machine had (an absolute build path, a -trimpath
// module path, GOPATH, vendor, the module cache). Package main has no
// import path in a dump; its file is found by the longest tail of the path
// that exists in the main module.
func (m *Mapper) Map(f Frame) Place {
	if p, ok := m.cache[f]; ok {
		return p
	}
	p := m.mapFrame(f)
	p.Line = f.Line
	m.cache[f] = p
	return p
}

func (m *Mapper) mapFrame(f Frame) Place {
	file := filepath.ToSlash(f.File)
	if i := strings.LastIndex(f.Pkg, "/vendor/"); i >= 0 {
		// GOPATH-era vendoring put the vendor directory in the import path.
		f.Pkg = f.Pkg[i+len("/vendor/"):]
	}
	for _, r := range m.Rewrites {
		if rest, ok := strings.CutPrefix(file, filepath.ToSlash(r.From)); ok {
			local := filepath.Join(r.To, filepath.FromSlash(rest))
			if p, ok := m.local(local, f.Pkg); ok {
				return p
			}
			return Place{Where: Unmapped, Pkg: f.Pkg, Why: fmt.Sprintf("-map %s=%s gives %s, which does not exist", r.From, r.To, local)}
		}
	}
	if filepath.IsAbs(f.File) {
		if p, ok := m.local(f.File, f.Pkg); ok {
			return p
		}
	}
	if f.Pkg == "main" {
		return m.mainFile(file)
	}
	mod, ok := m.BuildList.module(f.Pkg)
	if !ok {
		if isStd(f.Pkg) {
			return Place{Where: Std, Pkg: f.Pkg}
		}
		return Place{Where: Unmapped, Pkg: f.Pkg, Why: fmt.Sprintf("package %s is in no module of the build list", f.Pkg)}
	}
	where := Dependency
	if mod.Main {
		where = MainModule
	}
	if v := versionIn(file, mod.Path); v != "" && !mod.Main && !mod.Replace && v != mod.Version {
		return Place{Where: Unmapped, Pkg: f.Pkg, Module: mod,
			Why: fmt.Sprintf("the dump runs %s@%s, the build list has %s", mod.Path, v, mod.Version)}
	}
	if mod.Dir == "" {
		return Place{Where: Unmapped, Pkg: f.Pkg, Module: mod, Why: fmt.Sprintf("%s@%s is not downloaded (go mod download %s)", mod.Path, mod.Version, mod.Path)}
	}
	rel := strings.TrimPrefix(strings.TrimPrefix(f.Pkg, mod.Path), "/")
	local := filepath.Join(mod.Dir, filepath.FromSlash(rel), path.Base(file))
	if !exists(local) {
		return Place{Where: Unmapped, Pkg: f.Pkg, Module: mod, Why: fmt.Sprintf("%s does not exist", local)}
	}
	return Place{Where: where, File: local, Module: mod, Pkg: f.Pkg}
}

// local places a file that exists on this machine.
func (m *Mapper) local(file, pkg string) (Place, bool) {
	if !exists(file) {
		return Place{}, false
	}
	mod, ok := m.BuildList.owner(file)
	if !ok {
		if isStd(pkg) {
			return Place{Where: Std, Pkg: pkg}, true
		}
		return Place{}, false
	}
	where := Dependency
	if mod.Main {
		where = MainModule
	}
	return Place{Where: where, File: file, Module: mod, Pkg: pkg}, true
}

// mainFile finds a file of package main by the longest tail of its path
// that names a file in the main module: /build/src/cmd/srv/main.go is
// cmd/srv/main.go here, and so is example.com/mod/cmd/srv/main.go.
func (m *Mapper) mainFile(file string) Place {
	mod := m.BuildList.Main
	parts := strings.Split(file, "/")
	for i := range parts {
		local := filepath.Join(mod.Dir, filepath.FromSlash(strings.Join(parts[i:], "/")))
		if exists(local) {
			return Place{Where: MainModule, File: local, Module: mod, Pkg: "main"}
		}
	}
	return Place{Where: Unmapped, Pkg: "main", Why: fmt.Sprintf("no tail of %s names a file in %s", file, mod.Dir)}
}

// versionIn returns the version a module-cache path names for module
// modPath: .../pkg/mod/google.golang.org/grpc@v1.46.2/stream.go, or
// google.golang.org/grpc@v1.46.2/stream.go under -trimpath. Upper-case
// letters are escaped in the cache ("!burnt!sushi"); so they are here.
func versionIn(file, modPath string) string {
	key := escapePath(modPath) + "@"
	i := strings.Index(file, key)
	if i < 0 || (i > 0 && file[i-1] != '/') {
		return ""
	}
	v, _, _ := strings.Cut(file[i+len(key):], "/")
	return v
}

func escapePath(p string) string {
	var b strings.Builder
	for _, r := range p {
		if 'A' <= r && r <= 'Z' {
			b.WriteByte('!')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// isStd reports whether an import path is the standard library's: its
// first element has no dot.
func isStd(pkg string) bool {
	first, _, _ := strings.Cut(pkg, "/")
	return pkg != "" && pkg != "main" && !strings.Contains(first, ".")
}

func exists(file string) bool {
	st, err := os.Stat(file)
	return err == nil && !st.IsDir()
}
