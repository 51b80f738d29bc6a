package triage

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testBuildList is the dumpgen module with grpc v1.46.2 as a dependency,
// in a scratch module cache.
func testBuildList(t *testing.T) *BuildList {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("testdata", "dumpgen"))
	if err != nil {
		t.Fatal(err)
	}
	grpc := filepath.Join(t.TempDir(), "pkg", "mod", "google.golang.org", "grpc@v1.46.2")
	if err := os.MkdirAll(filepath.Join(grpc, "internal", "transport"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"stream.go", "internal/transport/http2_client.go"} {
		if err := os.WriteFile(filepath.Join(grpc, filepath.FromSlash(f)), []byte("package grpc\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	main := Module{Path: "example.com/dumpgen", Dir: root, Main: true}
	return &BuildList{Main: main, Modules: []Module{
		main,
		{Path: "google.golang.org/grpc", Version: "v1.46.2", Dir: grpc},
		{Path: "golang.org/x/net", Version: "v0.1.0"}, // not downloaded
	}}
}

func TestMap(t *testing.T) {
	bl := testBuildList(t)
	hub := filepath.Join(bl.Main.Dir, "hub", "hub.go")
	mainGo := filepath.Join(bl.Main.Dir, "main.go")
	stream := filepath.Join(bl.Modules[1].Dir, "stream.go")
	const hubFn, hubPkg = "example.com/dumpgen/hub.(*Hub).Run", "example.com/dumpgen/hub"
	for _, tc := range []struct {
		name       string
		frame      Frame
		where      Where
		file, why  string
		rewrites   []Rewrite
		modVersion string
	}{
		{name: "local absolute path", frame: Frame{hubFn, hubPkg, hub, 27}, where: MainModule, file: hub},
		{name: "absolute build path", frame: Frame{hubFn, hubPkg, "/builds/ci/src/dumpgen/hub/hub.go", 27}, where: MainModule, file: hub},
		{name: "trimpath", frame: Frame{hubFn, hubPkg, "example.com/dumpgen/hub/hub.go", 27}, where: MainModule, file: hub},
		{name: "GOPATH", frame: Frame{hubFn, hubPkg, "/home/ci/go/src/example.com/dumpgen/hub/hub.go", 27}, where: MainModule, file: hub},
		{name: "package main by its path's tail", frame: Frame{"main.wedge", "main", "/builds/x/dumpgen/main.go", 70}, where: MainModule, file: mainGo},
		{name: "package main not here", frame: Frame{"main.main", "main", "/builds/other/server.go", 9}, where: Unmapped, why: "no tail of /builds/other/server.go names a file in"},
		{name: "module cache", frame: Frame{"google.golang.org/grpc.(*clientStream).SendMsg", "google.golang.org/grpc", "/root/go/pkg/mod/google.golang.org/grpc@v1.46.2/stream.go", 881}, where: Dependency, file: stream, modVersion: "v1.46.2"},
		{name: "module cache, trimpath", frame: Frame{"google.golang.org/grpc.(*clientStream).SendMsg", "google.golang.org/grpc", "google.golang.org/grpc@v1.46.2/stream.go", 881}, where: Dependency, file: stream},
		{name: "dependency package below the module root", frame: Frame{"google.golang.org/grpc/internal/transport.(*http2Client).Write", "google.golang.org/grpc/internal/transport", "/root/go/pkg/mod/google.golang.org/grpc@v1.46.2/internal/transport/http2_client.go", 1}, where: Dependency, file: filepath.Join(bl.Modules[1].Dir, "internal", "transport", "http2_client.go")},
		{name: "another version", frame: Frame{"google.golang.org/grpc.(*clientStream).SendMsg", "google.golang.org/grpc", "/root/go/pkg/mod/google.golang.org/grpc@v1.50.0/stream.go", 881}, where: Unmapped, why: "the dump runs google.golang.org/grpc@v1.50.0, the build list has v1.46.2"},
		{name: "vendor directory", frame: Frame{"google.golang.org/grpc.(*clientStream).SendMsg", "google.golang.org/grpc", "/builds/app/vendor/google.golang.org/grpc/stream.go", 881}, where: Dependency, file: stream},
		{name: "GOPATH vendoring in the import path", frame: Frame{"example.com/app/vendor/google.golang.org/grpc.(*clientStream).SendMsg", "example.com/app/vendor/google.golang.org/grpc", "/go/src/example.com/app/vendor/google.golang.org/grpc/stream.go", 881}, where: Dependency, file: stream},
		{name: "not downloaded", frame: Frame{"golang.org/x/net/http2.(*Framer).WriteData", "golang.org/x/net/http2", "/root/go/pkg/mod/golang.org/x/net@v0.1.0/http2/frame.go", 1}, where: Unmapped, why: "golang.org/x/net@v0.1.0 is not downloaded"},
		{name: "standard library", frame: Frame{"sync.(*Mutex).Lock", "sync", "/usr/local/go/src/sync/mutex.go", 46}, where: Std},
		{name: "standard library, trimpath", frame: Frame{"sync.(*Mutex).Lock", "sync", "sync/mutex.go", 46}, where: Std},
		{name: "not in the build list", frame: Frame{"github.com/other/lib.F", "github.com/other/lib", "/x/lib.go", 1}, where: Unmapped, why: "package github.com/other/lib is in no module of the build list"},
		{name: "-map", frame: Frame{"main.wedge", "main", "/srv/app/main.go", 70}, where: MainModule, file: mainGo, rewrites: []Rewrite{{"/srv/app", bl.Main.Dir}}},
		{name: "-map to nowhere", frame: Frame{"main.wedge", "main", "/srv/app/main.go", 70}, where: Unmapped, why: "-map /srv/app=/nowhere gives /nowhere/main.go, which does not exist", rewrites: []Rewrite{{"/srv/app", "/nowhere"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := NewMapper(bl, tc.rewrites).Map(tc.frame)
			if p.Where != tc.where || p.File != tc.file || !strings.HasPrefix(p.Why, tc.why) || p.Line != tc.frame.Line {
				t.Errorf("Map(%s) = %+v, want where %d, file %q, why %q", tc.frame.File, p, tc.where, tc.file, tc.why)
			}
			if tc.modVersion != "" && p.Module.Version != tc.modVersion {
				t.Errorf("module %+v, want version %s", p.Module, tc.modVersion)
			}
		})
	}
}

func TestParseRewrite(t *testing.T) {
	if r, err := ParseRewrite("/build=/home/me/src"); err != nil || r != (Rewrite{"/build", "/home/me/src"}) {
		t.Errorf("ParseRewrite = %+v, %v", r, err)
	}
	for _, bad := range []string{"/build", "=/x", "/x="} {
		if _, err := ParseRewrite(bad); err == nil {
			t.Errorf("ParseRewrite(%q) accepted", bad)
		}
	}
}

func TestLoadBuildList(t *testing.T) {
	bl, err := LoadBuildList(filepath.Join("testdata", "dumpgen"))
	if err != nil {
		t.Fatal(err)
	}
	if bl.Main.Path != "example.com/dumpgen" || !bl.Main.Main || !filepath.IsAbs(bl.Main.Dir) {
		t.Errorf("main module %+v", bl.Main)
	}
	if _, err := LoadBuildList(t.TempDir()); err == nil {
		t.Error("a directory outside any module loaded")
	}
}
