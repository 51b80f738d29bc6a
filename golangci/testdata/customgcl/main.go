// Command custom-gcl is golangci-lint with the sendlint module plugin linked
// in: what `golangci-lint custom` generates from .custom-gcl.yml, built from
// the module proxy instead of a clone of golangci-lint's repository.
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/golangci/golangci-lint/v2/pkg/commands"
	"github.com/golangci/golangci-lint/v2/pkg/exitcodes"

	_ "github.com/sendlint/sendlint/golangci" // registers the "sendlint" linter
)

func main() {
	if err := commands.Execute(buildInfo()); err != nil {
		fmt.Fprintf(os.Stderr, "The command is terminated due to an error: %v\n", err)
		os.Exit(exitcodes.Failure)
	}
}

// buildInfo names golangci-lint's version followed by a hash of this
// executable. golangci-lint salts its cache of per-package results with the
// version: a fixed version would let a rebuilt plugin be served the issues
// its previous build found.
func buildInfo() commands.BuildInfo {
	info := commands.BuildInfo{Version: "unknown", Commit: "none", Date: "unknown", GoVersion: "unknown"}
	if bi, ok := debug.ReadBuildInfo(); ok {
		info.GoVersion = bi.GoVersion
		for _, dep := range bi.Deps {
			if dep.Path == "github.com/golangci/golangci-lint/v2" {
				info.Version = strings.TrimPrefix(dep.Version, "v")
			}
		}
	}
	info.Version += "-sendlint-" + executableHash()
	return info
}

// executableHash returns the first 12 hex digits of the SHA-256 of the
// running executable.
func executableHash() string {
	path, err := os.Executable()
	if err != nil {
		fmt.Fprintf(os.Stderr, "custom-gcl: %v\n", err)
		os.Exit(exitcodes.Failure)
	}
	f, err := os.Open(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "custom-gcl: %v\n", err)
		os.Exit(exitcodes.Failure)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		fmt.Fprintf(os.Stderr, "custom-gcl: reading %s: %v\n", path, err)
		os.Exit(exitcodes.Failure)
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}
