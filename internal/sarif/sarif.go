// Package sarif writes findings as a SARIF 2.1.0 log, the format GitHub code
// scanning and other CI dashboards import: one run whose tool lists one rule
// per pass (with the pass's documentation as help), and one result per
// finding with its location and its related locations.
//
// Only the parts of the schema sendlint fills are modelled.
package sarif

import (
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sendlint/sendlint/internal/finding"
)

// Schema and version written in every log.
const (
	Schema  = "https://json.schemastore.org/sarif-2.1.0.json"
	Version = "2.1.0"
)

// SrcRoot is the base id of every relative artifact location.
const SrcRoot = "%SRCROOT%"

// FingerprintKey names sendlint's line-independent fingerprint in a result's
// partialFingerprints; it is the fingerprint the baseline uses.
const FingerprintKey = "sendlint/v1"

// Log is a SARIF log.
type Log struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []Run  `json:"runs"`
}

// Run is one run of one tool.
type Run struct {
	Tool               Tool                    `json:"tool"`
	Invocations        []Invocation            `json:"invocations"`
	OriginalURIBaseIDs map[string]ArtifactLink `json:"originalUriBaseIds,omitempty"`
	Results            []Result                `json:"results"`
}

// Tool describes the analyzer.
type Tool struct {
	Driver Driver `json:"driver"`
}

// Driver is the tool's main component.
type Driver struct {
	Name           string `json:"name"`
	InformationURI string `json:"informationUri,omitempty"`
	Version        string `json:"version,omitempty"`
	Rules          []Rule `json:"rules"`
}

// Rule describes one pass.
type Rule struct {
	ID                   string        `json:"id"`
	Name                 string        `json:"name,omitempty"`
	ShortDescription     Message       `json:"shortDescription"`
	FullDescription      *Message      `json:"fullDescription,omitempty"`
	Help                 *Message      `json:"help,omitempty"`
	HelpURI              string        `json:"helpUri,omitempty"`
	DefaultConfiguration Configuration `json:"defaultConfiguration"`
	Properties           *Properties   `json:"properties,omitempty"`
}

// Configuration is a rule's default reporting configuration.
type Configuration struct {
	Level string `json:"level"`
}

// Properties holds the property bag GitHub reads for rules.
type Properties struct {
	Tags      []string `json:"tags,omitempty"`
	Precision string   `json:"precision,omitempty"`
}

// Message is text, with an optional Markdown rendering.
type Message struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

// Invocation says whether the run completed, and what went wrong if not.
type Invocation struct {
	ExecutionSuccessful        bool           `json:"executionSuccessful"`
	ToolExecutionNotifications []Notification `json:"toolExecutionNotifications,omitempty"`
}

// Notification is an error met while running.
type Notification struct {
	Level   string  `json:"level"`
	Message Message `json:"message"`
}

// ArtifactLink is a URI, possibly relative to a base id.
type ArtifactLink struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

// Result is one finding.
type Result struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             Message           `json:"message"`
	Locations           []Location        `json:"locations"`
	RelatedLocations    []Location        `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints,omitempty"`
	Properties          map[string]any    `json:"properties,omitempty"`
}

// Location is a region of a file, with a message for related locations.
type Location struct {
	ID               *int             `json:"id,omitempty"`
	PhysicalLocation PhysicalLocation `json:"physicalLocation"`
	Message          *Message         `json:"message,omitempty"`
}

// PhysicalLocation is a file and a region in it.
type PhysicalLocation struct {
	ArtifactLocation ArtifactLink `json:"artifactLocation"`
	Region           *Region      `json:"region,omitempty"`
}

// Region is a span of lines and columns, counted from 1. The end column is
// the column just past the span, as in go/token.
type Region struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

// RuleDoc is what a log says about one pass.
type RuleDoc struct {
	ID       string
	Title    string // one line
	Help     string // the full documentation, plain text
	Markdown string // the same, as Markdown
	URL      string
}

// Input is everything one log reports.
type Input struct {
	ToolName       string
	ToolVersion    string
	InformationURI string
	Rules          []RuleDoc
	Findings       []finding.Finding
	Fingerprints   []string // one per finding, or nil
	// Properties are one property bag per finding, or nil: what a tool
	// knows of a finding beyond the analysis (triage's runtime evidence).
	Properties []map[string]any
	Errors     []string // what stopped some packages from being analysed
	// Root is the directory that relative locations are relative to:
	// the root of the repository the log will be uploaded for.
	Root string
}

// Build makes the log.
func Build(in Input) *Log {
	driver := Driver{
		Name:           in.ToolName,
		InformationURI: in.InformationURI,
		Version:        in.ToolVersion,
		Rules:          []Rule{},
	}
	index := make(map[string]int)
	for _, r := range in.Rules {
		index[r.ID] = len(driver.Rules)
		driver.Rules = append(driver.Rules, rule(r))
	}
	run := Run{
		Tool:        Tool{Driver: driver},
		Invocations: []Invocation{invocation(in.Errors)},
		Results:     []Result{},
	}
	if in.Root != "" {
		run.OriginalURIBaseIDs = map[string]ArtifactLink{SrcRoot: {URI: dirURI(in.Root)}}
	}
	for i, f := range in.Findings {
		idx, ok := index[f.Pass]
		if !ok {
			// A finding of a pass without a rule would not validate;
			// give it one.
			idx = len(run.Tool.Driver.Rules)
			index[f.Pass] = idx
			run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, rule(RuleDoc{ID: f.Pass, Title: f.Pass}))
		}
		res := result(f, idx, in.Root)
		if in.Fingerprints != nil {
			res.PartialFingerprints = map[string]string{FingerprintKey: in.Fingerprints[i]}
		}
		if in.Properties != nil {
			res.Properties = in.Properties[i]
		}
		run.Results = append(run.Results, res)
	}
	return &Log{Schema: Schema, Version: Version, Runs: []Run{run}}
}

// Write writes the log as indented JSON.
func (l *Log) Write(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(l)
}

func rule(r RuleDoc) Rule {
	out := Rule{
		ID:                   r.ID,
		Name:                 r.ID,
		ShortDescription:     Message{Text: r.Title},
		HelpURI:              r.URL,
		DefaultConfiguration: Configuration{Level: "warning"},
		Properties:           &Properties{Tags: []string{"concurrency", "reliability"}, Precision: "high"},
	}
	if r.Help != "" {
		out.FullDescription = &Message{Text: firstParagraph(r.Help)}
		out.Help = &Message{Text: r.Help, Markdown: r.Markdown}
	}
	return out
}

// firstParagraph returns the documentation's opening paragraph after its
// title line.
func firstParagraph(doc string) string {
	_, body, _ := strings.Cut(strings.TrimSpace(doc), "\n")
	body = strings.TrimSpace(body)
	para, _, _ := strings.Cut(body, "\n\n")
	if para == "" {
		para = strings.TrimSpace(doc)
	}
	return strings.Join(strings.Fields(para), " ")
}

func invocation(errors []string) Invocation {
	inv := Invocation{ExecutionSuccessful: len(errors) == 0}
	for _, e := range errors {
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications,
			Notification{Level: "error", Message: Message{Text: e}})
	}
	return inv
}

func result(f finding.Finding, ruleIndex int, root string) Result {
	res := Result{
		RuleID:    f.Pass,
		RuleIndex: ruleIndex,
		Level:     level(f),
		Message:   Message{Text: f.Message},
		Locations: []Location{location(f.Pos, f.End, root)},
	}
	var links []string
	for i, r := range f.Related {
		id := i + 1
		loc := location(r.Pos, finding.Position{}, root)
		loc.ID = &id
		loc.Message = &Message{Text: r.Message}
		res.RelatedLocations = append(res.RelatedLocations, loc)
		links = append(links, "["+escapeBrackets(r.Message)+"]("+strconv.Itoa(id)+")")
	}
	if len(links) > 0 {
		// Code scanning shows related locations that the message links to.
		res.Message.Text = escapeBrackets(f.Message) + "\n" + strings.Join(links, "; ")
	}
	return res
}

// escapeBrackets escapes the brackets that SARIF message text uses for
// embedded links, for a message that has links ("chan []int").
func escapeBrackets(s string) string {
	return strings.NewReplacer(`[`, `\[`, `]`, `\]`).Replace(s)
}

func location(pos, end finding.Position, root string) Location {
	art := artifact(pos.File, root)
	loc := Location{PhysicalLocation: PhysicalLocation{ArtifactLocation: art}}
	if pos.Line > 0 {
		r := &Region{StartLine: pos.Line, StartColumn: pos.Col}
		if end.File == pos.File && end.Line > 0 && (end.Line > pos.Line || end.Col > pos.Col) {
			r.EndLine, r.EndColumn = end.Line, end.Col
		}
		loc.PhysicalLocation.Region = r
	}
	return loc
}

// artifact names file relative to root when it lies below it, and by an
// absolute file URI otherwise.
func artifact(file, root string) ArtifactLink {
	p := finding.Position{File: file}
	if rel, ok := p.Rel(root); ok && root != "" {
		return ArtifactLink{URI: escapePath(rel), URIBaseID: SrcRoot}
	}
	if filepath.IsAbs(file) {
		return ArtifactLink{URI: (&url.URL{Scheme: "file", Path: filepath.ToSlash(file)}).String()}
	}
	return ArtifactLink{URI: escapePath(filepath.ToSlash(file))}
}

func escapePath(p string) string {
	return (&url.URL{Path: p}).EscapedPath()
}

func dirURI(dir string) string {
	p := filepath.ToSlash(dir)
	if !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// level is a result's SARIF level: an audit-tier finding is a note, one
// the pass can prove is a warning.
func level(f finding.Finding) string {
	if f.Audit {
		return "note"
	}
	return "warning"
}
