package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// staticcheckVersion is the release teams are compared against.
const staticcheckVersion = "v0.8.2"

// buildTools installs staticcheck and finds or builds sendlint, as the
// selected tools need them, into the scratch directory, and returns a
// version line for each.
func (h *harness) buildTools() (map[string]string, error) {
	versions := map[string]string{}
	bin := filepath.Join(h.cfg.work, "bin")
	if h.uses("staticcheck") {
		h.logf("installing staticcheck %s", staticcheckVersion)
		if err := h.build(h.cfg.work, "install", "honnef.co/go/tools/cmd/staticcheck@"+staticcheckVersion); err != nil {
			return nil, err
		}
		h.bin["staticcheck"] = filepath.Join(bin, "staticcheck")
		v, err := firstLine(h.bin["staticcheck"], "-version")
		versions["staticcheck"] = v
		if err != nil {
			return nil, err
		}
	}
	if h.uses("sendlint") {
		path, err := h.sendlint()
		if err != nil {
			return nil, err
		}
		h.bin["sendlint"] = path
		if versions["sendlint"], err = sendlintVersion(path); err != nil {
			return nil, err
		}
	}
	return versions, nil
}

// sendlint returns the binary to measure: the one given, or one built from
// ./cmd/sendlint.
func (h *harness) sendlint() (string, error) {
	if h.cfg.sendlint != "" {
		return filepath.Abs(h.cfg.sendlint)
	}
	if _, err := os.Stat(filepath.Join(h.cfg.root, "cmd", "sendlint")); err != nil {
		return "", fmt.Errorf("no ./cmd/sendlint to build: pass -sendlint or $SENDLINT, or leave sendlint out of -tools")
	}
	out := filepath.Join(h.cfg.work, "bin", "sendlint")
	h.logf("building sendlint")
	return out, h.build(h.cfg.root, "build", "-o", out, "./cmd/sendlint")
}

// build runs go install or go build with the tools' build cache and GOBIN
// in the scratch directory.
func (h *harness) build(dir string, args ...string) error {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(slices.Clip(h.baseEnv), "GOCACHE="+h.buildCache, "GOBIN="+filepath.Join(h.cfg.work, "bin"),
		"GOFLAGS=-buildvcs=false", "GOWORK=off", "GOTOOLCHAIN=local")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return nil
}

// sendlintVersion is the go vet handshake line, which carries a build ID,
// with the directory dropped, plus a hash of the binary so that a report
// names exactly what it measured.
func sendlintVersion(path string) (string, error) {
	v, err := firstLine(path, "-V=full")
	if err != nil {
		return "", err
	}
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer func() { _ = f.Close() }() // read only
	sum := sha256.New()
	if _, err := io.Copy(sum, f); err != nil {
		return "", err
	}
	v = strings.Replace(v, path, filepath.Base(path), 1)
	return fmt.Sprintf("%s (sha256 %x)", v, sum.Sum(nil)[:6]), nil
}

func firstLine(name string, args ...string) (string, error) {
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return line, nil
}
