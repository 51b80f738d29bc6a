package triage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
)

// Module is one module of the build list: the main module, or a
// dependency at the version the main module builds with.
type Module struct {
	Path    string
	Version string // "" for the main module
	Dir     string // where its source is on disk; "" when not downloaded
	Main    bool
	Replace bool // replaced by another module or a directory
}

// BuildList is the main module and its build list.
type BuildList struct {
	Main    Module
	Modules []Module // the main module first
}

// LoadBuildList runs go list -m in dir. It fails when dir is not in a
// module.
func LoadBuildList(dir string) (*BuildList, error) {
	cmd := exec.Command("go", "list", "-m", "-json", "all")
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("listing the module in %s: %s", dir, firstLine(msg))
	}
	bl := new(BuildList)
	dec := json.NewDecoder(&stdout)
	for dec.More() {
		var m struct {
			Path, Version, Dir string
			Main               bool
			Replace            *struct{ Path, Version, Dir string }
		}
		if err := dec.Decode(&m); err != nil {
			return nil, fmt.Errorf("reading go list -m: %v", err)
		}
		mod := Module{Path: m.Path, Version: m.Version, Dir: m.Dir, Main: m.Main, Replace: m.Replace != nil}
		if m.Replace != nil && m.Replace.Dir != "" {
			mod.Dir = m.Replace.Dir
		}
		if mod.Main && bl.Main.Path == "" {
			bl.Main = mod
		}
		bl.Modules = append(bl.Modules, mod)
	}
	if bl.Main.Path == "" {
		return nil, fmt.Errorf("%s is not in a module", dir)
	}
	return bl, nil
}

// module returns the module of the build list that holds package pkg: the
// one with the longest path that prefixes it.
func (bl *BuildList) module(pkg string) (Module, bool) {
	var best Module
	found := false
	for _, m := range bl.Modules {
		if (pkg == m.Path || strings.HasPrefix(pkg, m.Path+"/")) && len(m.Path) >= len(best.Path) {
			best, found = m, true
		}
	}
	return best, found
}

// owner returns the module whose directory holds the local file.
func (bl *BuildList) owner(file string) (Module, bool) {
	var best Module
	found := false
	for _, m := range bl.Modules {
		if m.Dir != "" && within(m.Dir, file) && len(m.Dir) >= len(best.Dir) {
			best, found = m, true
		}
	}
	return best, found
}

func within(dir, file string) bool {
	rel, err := filepath.Rel(dir, file)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
