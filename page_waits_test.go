package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// A wait that a page shows ends by itself, with a message that says what is missing (issue 40:
// the README's `until grep` loop for the mock's output ran forever when eventnotify-mock was not
// on PATH). The form the pages use:
//
//	for _ in $(seq 100); do grep -qs '^X=' f && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
//	grep -qs '^X=' f || echo 'what is missing' >&2
var (
	// loopStart matches a while or until loop's keyword where a command starts.
	loopStart = regexp.MustCompile(`(^|[;&|(]\s*|\b(?:do|then|else)\s+)(until|while)\s+(.*)$`)
	// readLoop matches the condition of a loop over its input lines, which ends with its input.
	readLoop = regexp.MustCompile(`^(IFS=\S*\s+)?read\b`)
	// forLoop matches a for loop on one line: its list and its body.
	forLoop = regexp.MustCompile(`\bfor\s+\w+\s+in\s+(.*?);\s*do\b(.*)$`)
	// seqList is a list of a fixed number of rounds.
	seqList = regexp.MustCompile(`^\$\(seq [0-9]+\)$`)
	// waitCommand matches the shell's wait for background jobs, which has no bound.
	waitCommand = regexp.MustCompile(`(^|[;&|]\s*)wait(\s|$)`)
	// mockInBackground matches eventnotify-mock started by its bare name in the background.
	mockInBackground = regexp.MustCompile(`^eventnotify-mock\s.*&\s*$`)
)

// shellLike reports whether a code block's lines run in a shell: a shell block, or a CI file's
// run steps.
func shellLike(lang string) bool {
	switch lang {
	case "sh", "bash", "shell", "console", "zsh", "yaml", "yml":
		return true
	}
	return false
}

// unboundedWaits returns what is wrong with the waits of a block of shell lines: a while or
// until loop (other than one that reads its input), a wait for background jobs, a for loop that
// waits for a condition (it breaks) over anything but a fixed number of rounds or without a
// message after it, and eventnotify-mock started by name with no check that it is on PATH.
func unboundedWaits(lines []string) []string {
	var problems []string
	checkedPath := false
	for i, raw := range lines {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		where := fmt.Sprintf("line %d (%s)", i+1, line)
		if strings.Contains(line, "command -v eventnotify-mock") {
			checkedPath = messageFollows(lines, i, "go env GOPATH")
		}
		if m := loopStart.FindStringSubmatch(line); m != nil && (m[2] != "while" || !readLoop.MatchString(m[3])) {
			problems = append(problems, where+": a "+m[2]+" loop has no bound; wait with `for _ in $(seq N); do COND && break; ...; done` and a message when COND still fails")
		}
		if waitCommand.MatchString(line) {
			problems = append(problems, where+": wait has no bound")
		}
		if m := forLoop.FindStringSubmatch(line); m != nil && strings.Contains(m[2], "break") {
			if !seqList.MatchString(strings.TrimSpace(m[1])) {
				problems = append(problems, where+": a wait over "+m[1]+", not a fixed number of rounds ($(seq N))")
			}
			if !messageFollows(lines, i, "") {
				problems = append(problems, where+": no message to standard error (echo ... >&2) follows the wait, to say what is missing when it gives up")
			}
		}
		if mockInBackground.MatchString(line) && !checkedPath {
			problems = append(problems, where+": eventnotify-mock is started by name with no `command -v eventnotify-mock` before it that says, when it is not on PATH, how to add $(go env GOPATH)/bin")
		}
	}
	return problems
}

// messageFollows reports whether one of the three lines from lines[i] on (a condition may be
// continued on the next line) prints a message to standard error that contains want.
func messageFollows(lines []string, i int, want string) bool {
	for j := i; j < len(lines) && j <= i+2; j++ {
		l := lines[j]
		if strings.Contains(l, "echo ") && strings.Contains(l, ">&2") && strings.Contains(l, want) {
			return true
		}
	}
	return false
}

// TestUnboundedWaits: the check finds each kind of wait that can hang, and passes the pages' form.
func TestUnboundedWaits(t *testing.T) {
	guarded := []string{
		`command -v eventnotify-mock >/dev/null ||`,
		`  echo 'not on PATH: export PATH="$PATH:$(go env GOPATH)/bin"' >&2`,
		`eventnotify-mock -listen 127.0.0.1:0 >mock.env &`,
		`mock_pid=$!`,
		`for _ in $(seq 100); do grep -qs '^X=' mock.env && break; kill -0 "$mock_pid" 2>/dev/null || break; sleep 0.1; done`,
		`grep -qs '^X=' mock.env ||`,
		`  echo 'the mock printed no X' >&2`,
	}
	tests := []struct {
		name  string
		lines []string
		want  string // a part of the one problem expected; "" for none
	}{
		{"the pages' form", guarded, ""},
		{"until loop", []string{`until grep -q '^X=' mock.env; do sleep 0.1; done`}, "until loop has no bound"},
		{"guarded until loop", []string{`until grep -q x f; do kill -0 "$p" || exit 1; sleep 0.1; done`}, "until loop has no bound"},
		{"while loop", []string{`while ! curl -fs "$URL"; do sleep 1; done`}, "while loop has no bound"},
		{"while loop after do", []string{`for f in *.tf; do while true; do sleep 1; done; done`}, "while loop has no bound"},
		{"while read", []string{`grep x f | while read -r line; do echo "$line"; done`}, ""},
		{"while IFS= read", []string{`while IFS= read -r line; do echo "$line"; done <f`}, ""},
		{"wait", []string{`terraform apply & wait`}, "wait has no bound"},
		{"wait for a job", []string{`wait "$pid"`}, "wait has no bound"},
		{"for loop without a fixed count", []string{`for i in $(ls); do test -f x && break; sleep 1; done`, `test -f x || echo 'no x' >&2`}, "not a fixed number of rounds"},
		{"wait without a message", []string{`for _ in $(seq 10); do test -f x && break; sleep 1; done`, `. ./x`}, "no message to standard error"},
		{"for loop that does not wait", []string{`for f in a b; do echo "$f"; done`}, ""},
		{"mock without a PATH check", guarded[2:], "no `command -v eventnotify-mock`"},
		{"PATH check without the fix", append([]string{`command -v eventnotify-mock >/dev/null || echo 'no mock' >&2`}, guarded[2:]...), "no `command -v eventnotify-mock`"},
		{"mock by its full path", []string{`"$(go env GOPATH)/bin/eventnotify-mock" -listen 127.0.0.1:0 >mock.env &`}, ""},
		{"comment", []string{`# until it is ready, wait`}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := unboundedWaits(tc.lines)
			switch {
			case tc.want == "" && len(got) > 0:
				t.Errorf("problems %q, want none", got)
			case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want)):
				t.Errorf("problems %q, want one that says %q", got, tc.want)
			}
		})
	}
}

// TestPageWaitsAreBounded: every wait in the shell and CI blocks of the README, CONTRIBUTING.md
// and the docs ends by itself with a message that says what is missing.
func TestPageWaitsAreBounded(t *testing.T) {
	waits := 0
	for name, text := range userPages(t) {
		for _, b := range fencedBlocks(text) {
			if !shellLike(b.lang) {
				continue
			}
			for _, l := range b.lines {
				if m := forLoop.FindStringSubmatch(l); m != nil && strings.Contains(m[2], "break") {
					waits++
				}
			}
			for _, p := range unboundedWaits(b.lines) {
				t.Errorf("%s, the %s block at line %d: %s", name, b.lang, b.line, p)
			}
		}
	}
	// The README's, the mock server guide's, and the module testing guide's two.
	if waits < 4 {
		t.Errorf("found %d waits for the mock in the pages, want at least 4: did the blocks move?", waits)
	}
}
