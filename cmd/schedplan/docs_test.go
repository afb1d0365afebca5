package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The documentation's transcripts are the tool's output, so they cannot
// go stale: a fenced block whose info string is "console" in README.md or
// docs/*.md is a transcript. Its lines starting with "$ " are commands (a
// line ending in " \" continues on the next); the lines after a command,
// up to the next one, are what it prints on standard output. Every
// document's commands run in order in a fresh folder of its own (a later
// command reads what an earlier one wrote), with the schedplan under test
// first on PATH; each must exit 0 and print exactly its transcript, after
// the few figures that differ from run to run (wall times) are masked.
// `make docs` (SCHEDPLAN_UPDATE_DOCS=1) writes what they print back into
// the documents.

// transcript is one command of a document and what it printed there.
type transcript struct {
	cmd  string
	out  []string // expected output lines
	line int      // 0-based line of the command's first line
	body int      // 0-based line of the output's first line
	end  int      // one past the output's last line
}

var (
	fenceConsole = regexp.MustCompile("^```console\\s*$")
	fenceEnd     = regexp.MustCompile("^```\\s*$")
)

// parseTranscripts returns the transcripts of a Markdown document's lines.
func parseTranscripts(lines []string) ([]transcript, error) {
	var ts []transcript
	in := false
	var cur *transcript
	flush := func(end int) {
		if cur != nil {
			cur.end = end
			ts = append(ts, *cur)
			cur = nil
		}
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case !in && fenceConsole.MatchString(l):
			in = true
		case in && fenceEnd.MatchString(l):
			flush(i)
			in = false
		case in && strings.HasPrefix(l, "$ "):
			flush(i)
			cur = &transcript{line: i}
			cmd := strings.TrimPrefix(l, "$ ")
			for strings.HasSuffix(cmd, " \\") && i+1 < len(lines) {
				i++
				cmd = strings.TrimSuffix(cmd, "\\") + strings.TrimSpace(lines[i])
			}
			cur.cmd, cur.body = cmd, i+1
		case in && cur != nil:
			cur.out = append(cur.out, l)
		case in:
			return nil, fmt.Errorf("line %d: output before any command in a console block", i+1)
		}
	}
	if in {
		return nil, fmt.Errorf("a console block is not closed")
	}
	return ts, nil
}

// volatile masks what differs from run to run in a transcript line.
var volatile = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`^(wrote .*) in [0-9.]+ (m?s)$`), "$1 in … $2"},
}

func maskLine(l string) string {
	for _, v := range volatile {
		l = v.re.ReplaceAllString(l, v.with)
	}
	return strings.TrimRight(l, " ")
}

func maskLines(ls []string) string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = maskLine(l)
	}
	return strings.TrimRight(strings.Join(out, "\n"), "\n")
}

// docFiles lists the documents whose transcripts are checked.
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{filepath.Join("..", "..", "README.md")}
	more, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append(files, more...)
}

func TestParseTranscripts(t *testing.T) {
	doc := strings.Split("text\n```console\n$ schedplan a \\\n  --b c\none\n\ntwo\n$ schedplan d\n```\n```sh\n$ not this\n```\n```console\n$ e\n```", "\n")
	ts, err := parseTranscripts(doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 3 || ts[0].cmd != "schedplan a --b c" || strings.Join(ts[0].out, "|") != "one||two" ||
		ts[1].cmd != "schedplan d" || len(ts[1].out) != 0 || ts[2].cmd != "e" || ts[0].line != 2 || ts[0].body != 4 || ts[0].end != 7 {
		t.Errorf("got %+v", ts)
	}
	for _, bad := range []string{"```console\nout\n```", "```console\n$ a"} {
		if _, err := parseTranscripts(strings.Split(bad, "\n")); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if got := maskLine("wrote out/{a,b} in 12.6 s"); got != "wrote out/{a,b} in … s" {
		t.Errorf("mask: %q", got)
	}
}

// TestDocTranscripts runs every transcript of the documentation and
// compares what it prints with what the document says.
func TestDocTranscripts(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the documented commands")
	}
	bin := buildBinary(t)
	update := os.Getenv("SCHEDPLAN_UPDATE_DOCS") == "1"
	path := filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH")
	for _, f := range docFiles(t) {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(raw), "\n")
		ts, err := parseTranscripts(lines)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if len(ts) == 0 {
			continue
		}
		dir := t.TempDir()
		got := make([][]string, len(ts))
		for k, tr := range ts {
			cmd := exec.Command("sh", "-c", tr.cmd)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "PATH="+path, "NO_COLOR=1")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Errorf("%s:%d: $ %s: %v\n%s", f, tr.line+1, tr.cmd, err, stderr.String())
				got[k] = tr.out
				continue
			}
			got[k] = strings.Split(strings.TrimRight(stdout.String(), "\n"), "\n")
			if stdout.Len() == 0 {
				got[k] = nil
			}
			if !update && maskLines(got[k]) != maskLines(tr.out) {
				t.Errorf("%s:%d: $ %s prints, against the document (make docs rewrites it):\n%s",
					f, tr.line+1, tr.cmd, lineDiff(tr.out, got[k]))
			}
		}
		if update {
			var out []string
			prev := 0
			for k, tr := range ts {
				out = append(out, lines[prev:tr.body]...)
				out = append(out, got[k]...)
				prev = tr.end
			}
			out = append(out, lines[prev:]...)
			if err := os.WriteFile(f, []byte(strings.Join(out, "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// lineDiff shows the lines of want and got that differ (masked), with
// their numbers.
func lineDiff(want, got []string) string {
	var b strings.Builder
	n := max(len(want), len(got))
	shown := 0
	for i := 0; i < n && shown < 20; i++ {
		var w, g string
		if i < len(want) {
			w = maskLine(want[i])
		}
		if i < len(got) {
			g = maskLine(got[i])
		}
		if w != g {
			fmt.Fprintf(&b, "  line %d\n    doc: %s\n    now: %s\n", i+1, w, g)
			shown++
		}
	}
	return b.String()
}
