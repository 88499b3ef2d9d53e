package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// TestBenchTeams runs the benchmark's teams scenarios (scripts/lib/bench-teams.sh) at a small
// size, K = 1 and 2 topic resources of 25 entries on an account of 150 others (200 in all for K = 2, a whole number of pages), into a copy of a
// BENCHMARKS.md, and holds the script to what its section claims:
//   - BENCH_SCENARIOS=teams rewrites the teams section only: the main part and the notes are
//     kept byte for byte, the old section is replaced;
//   - each table has a row per K (or D) and step, and its "one pass" column is ceil(total / page
//     size) at the mock's page size, for the total the account holds;
//   - the figures are the mock's counts: a no-change plan reads one pass whatever K (and every
//     data source step too, whatever D); an apply at most two, whatever K (the plan's and the
//     apply's: a write of the instance updates the listing rather than drop it, so the
//     resources that create after another's write do not list again).
func TestBenchTeams(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Terraform against the mock for a minute (-short)")
	}
	terraform := os.Getenv("TERRAFORM")
	if terraform == "" {
		var err error
		if terraform, err = exec.LookPath("terraform"); err != nil {
			if os.Getenv("TF_ACC") != "" {
				t.Fatal("no terraform on PATH and no TERRAFORM: the benchmark needs one (make test puts the one it builds on PATH)")
			}
			t.Skip("no terraform on PATH and no TERRAFORM: the benchmark needs one (TF_ACC=1 makes this a failure)")
		}
	}
	const others, entries = 150, 25
	ks, ds := []int{1, 2}, []int{1, 6}

	const mainPart = "# Benchmarks\n\nThe main part, as an earlier run wrote it.\n\n```\nGo benchmarks\n```\n"
	const notes = "<!-- notes -->\n## Notes\n\nWritten by hand.\n"
	out := filepath.Join(t.TempDir(), "BENCHMARKS.md")
	old := mainPart + "\n<!-- teams -->\n## An old teams section\n<!-- /teams -->\n\n" + notes
	if err := os.WriteFile(out, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "scripts/bench.sh")
	cmd.Env = append(os.Environ(), "TERRAFORM="+terraform, "BENCH_OUT="+out, "BENCH_SCENARIOS=teams",
		"BENCH_TEAMS_K=1 2", "BENCH_TEAMS_OTHERS="+strconv.Itoa(others), "BENCH_TEAMS_ENTRIES="+strconv.Itoa(entries),
		"BENCH_TEAMS_DATA=1 6")
	if log, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("scripts/bench.sh: %v\n%s", err, log)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	text := string(got)
	if !strings.HasPrefix(text, mainPart+"\n<!-- teams -->\n## Many teams on one account") {
		t.Errorf("the main part was not kept as it was, or the new teams section does not follow it:\n%s", text)
	}
	if !strings.HasSuffix(text, "<!-- /teams -->\n\n"+notes) {
		t.Errorf("the notes were not kept after the teams section:\n%s", text)
	}
	if strings.Contains(text, "An old teams section") {
		t.Errorf("the old teams section was kept:\n%s", text)
	}

	onePass := func(total int) int {
		return max(1, (total+mockserver.DefaultMaxPageSize-1)/mockserver.DefaultMaxPageSize)
	}
	// The rows of each table, by the heading above it.
	tables := map[string][][]string{}
	heading := ""
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "### "):
			heading = line
		case strings.HasPrefix(line, "| ") && !strings.HasPrefix(line, "| K |") && !strings.HasPrefix(line, "| others |"):
			cells := strings.Split(strings.Trim(line, "| "), " | ")
			tables[heading] = append(tables[heading], cells)
		}
	}
	atoi := func(s string) int {
		t.Helper()
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("%q is not a count: %v", s, err)
		}
		return n
	}
	// check holds one row: its pass column against total, its pages against the goal of its step.
	check := func(table string, row []string, total int, step, pages, pass string) {
		t.Helper()
		want := onePass(total)
		if atoi(pass) != want {
			t.Errorf("%s, %v: one pass is %s pages, want ceil(%d / %d) = %d", table, row, pass, total, mockserver.DefaultMaxPageSize, want)
		}
		n := atoi(pages)
		switch {
		case step == "plan" && n != want:
			t.Errorf("%s, %v: the no-change plan read %d list pages, want one pass: %d", table, row, n, want)
		case n < 1:
			t.Errorf("%s, %v: %s read no list page: the count is not the mock's", table, row, step)
		case n > 2*want:
			// An apply, of one resource or of K: the plan's pass and the apply's, which the writes
			// update rather than drop.
			t.Errorf("%s, %v: %s read %d list pages, want at most two passes (%d)", table, row, step, n, 2*want)
		}
	}
	steps := []string{"apply", "plan", "apply1"}
	tableOf := map[string]func(k int) int{ // heading -> total the account holds for K
		"### K topic resources of 25 entries, on an account of 150 other subscriptions":      func(k int) int { return others + k*entries },
		"### One eventnotify_account_subscriptions resource holding the same K x 25 entries": func(k int) int { return k * entries },
	}
	for heading, total := range tableOf {
		rows := tables[heading]
		if len(rows) != len(ks)*len(steps) {
			t.Errorf("%q has %d rows, want %d (K in %v, steps %v):\n%s", heading, len(rows), len(ks)*len(steps), ks, steps, text)
			continue
		}
		for i, row := range rows {
			k, step := ks[i/len(steps)], steps[i%len(steps)]
			if len(row) != 8 || atoi(row[0]) != k || row[1] != step {
				t.Errorf("%s: row %d is %v, want K = %d, step %s and 8 cells", heading, i, row, k, step)
				continue
			}
			check(heading, row, total(k), step, row[2], row[3])
		}
	}
	const dataHeading = "### D eventnotify_subscriptions data sources with different filters, on one account"
	rows := tables[dataHeading]
	if len(rows) != len(ds)*2 {
		t.Fatalf("%q has %d rows, want %d (D in %v, apply and plan):\n%s", dataHeading, len(rows), len(ds)*2, ds, text)
	}
	for i, row := range rows {
		d, step := ds[i/2], []string{"apply", "plan"}[i%2]
		if len(row) != 9 || atoi(row[0]) != others || atoi(row[1]) != d || row[2] != step {
			t.Errorf("%s: row %d is %v, want %d others, D = %d, step %s and 9 cells", dataHeading, i, row, others, d, step)
			continue
		}
		// Data sources are read once, in the plan, whatever D: one pass in either step.
		check(dataHeading, row, others, "plan", row[3], row[4])
	}
}
