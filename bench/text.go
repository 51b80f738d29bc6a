package main

// methodText explains the numbers; keep it in step with measure.go,
// rss.go and plan.go. %d is the sampling interval in milliseconds.
const methodText = `## Method

- **Same packages for every tool.** ` + "`go list -e -test`" + ` lists each target inside
  ` + "`bench/mod`" + ` (whose go.mod pins the versions); packages whose files, tests or imports
  fail to load are dropped and listed under *Excluded packages*. Every tool then gets
  the same explicit package list and checks tests too, as each does by default.
- **Compiling is outside every number, for every tool alike.** Before timing a target,
  ` + "`go list -export -compiled -deps -test`" + ` compiles its packages, tests and imports
  into a template build cache; its wall time is the *Compile s* column above. Each run
  starts from a hard-linked copy of that template, so it finds export data and cgo
  output ready, as on a machine that has built the code, and no analysis results.
- **Cold** means no analysis cached: no go vet results in GOCACHE, an empty
  ` + "`STATICCHECK_CACHE`" + `. The standalone sendlint keeps no cache of its own.
  **Warm** is the same command again on unchanged code, with the caches the cold run
  left (the pre-commit and editor case).
- **Wall** is GNU ` + "`time`" + `'s ` + "`%%e`" + `. **CPU** is ` + "`%%U + %%S`" + `: user and system time of the
  process and of every child it waited for.
- **Tree MiB** is the peak, over the run, of the summed resident set of every process
  below GNU time, sampled from ` + "`/proc`" + ` every %d ms. This is the number to compare: ` + "`go vet`" + ` runs
  one vet tool or compiler process per package, several at once, and the go command's
  own RSS says little about them. Processes shorter than one sampling interval can be
  missed, and shared pages count once per process. **Largest MiB** is GNU ` + "`time`" + `'s
  ` + "`%%M`" + `: the largest single process of the tree (Linux reports the maximum over the
  process and its waited-for descendants, not their sum).
- **Ratios** are sendlint's number over the baseline's: below 1.00, sendlint costs less.
- **Findings** are output lines of the form ` + "`file:line:col: message`" + `; related-information
  lines printed under a diagnostic are not counted.
- **Other load CPU s** is the CPU time the rest of the machine spent while the run went
  on (all busy time in ` + "`/proc/stat`" + ` less the run's own CPU). Anything much above zero
  means the wall time of that run is inflated by other work; CPU time suffers much
  less from it, so on a busy machine compare the CPU columns.
- The module proxy is off during timed runs: everything was downloaded while resolving.

`

// reproduceText is the last section; %s is the commands that made it.
const reproduceText = `## Reproduce

` + "```" + `sh
%s
` + "```" + `

Options: ` + "`-targets std,grpc`" + ` picks targets (std, x/tools, grpc, connect, etcd, nats,
raft), ` + "`-tools`" + ` picks tools (sendlint, staticcheck, govet-sendlint, govet), ` + "`-n 3`" + ` takes the
median of three runs, ` + "`-sendlint PATH`" + ` (or ` + "`$SENDLINT`" + `) measures a given binary instead of
building ` + "`./cmd/sendlint`" + `, ` + "`-linear ''`" + ` skips the per-package table, ` + "`-keep`" + ` keeps the
scratch directory with every command's output, ` + "`-results FILE`" + ` saves the numbers as JSON,
` + "`-render FILE,...`" + ` writes this report again from such files (merging runs made in parts,
keeping only the tools given with ` + "`-tools`" + `), and ` + "`-quick`" + ` is the smoke test the Go tests
run. The harness installs staticcheck ` + staticcheckVersion + ` and writes nothing outside its
scratch directory except this file and the module cache.
`
