package data

import (
	"strconv"
	"strings"
	"testing"
	"unicode"
)

func TestPrintable(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"alice", "alice"},
		{"ml-team", "ml-team"},
		{"Jürgen 李", "Jürgen 李"},
		{"", ""},
		{`a"b\c`, `a"b\c`},
		{"\x1b[31mred\x1b[0m", `"\x1b[31mred\x1b[0m"`},
		{"\x1b]0;title\x07", `"\x1b]0;title\a"`},
		{"a\r\nb", `"a\r\nb"`},
		{"tab\there", `"tab\there"`},
		{"evil\u202egpj.exe", `"evil\u202egpj.exe"`},
		{"\x9b31m", `"\x9b31m"`},     // invalid UTF-8 (a bare C1 CSI byte)
		{"\u009b31m", `"\u009b31m"`}, // C1 CSI as a code point
	} {
		if got := Printable(tc.in); got != tc.want {
			t.Errorf("Printable(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// FuzzPrintable checks that Printable's result holds no control character
// and either is the input or unquotes to it.
func FuzzPrintable(f *testing.F) {
	for _, s := range []string{"alice", "\x1b[2J", "a\u202eb", "\xff", "\u00a0", "x\x00y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p := Printable(s)
		if strings.ContainsFunc(p, func(r rune) bool { return !unicode.IsPrint(r) }) {
			t.Fatalf("Printable(%q) = %q holds a non-printable character", s, p)
		}
		if p != s {
			if u, err := strconv.Unquote(p); err != nil || u != s {
				t.Fatalf("Printable(%q) = %q does not unquote to the input (%q, %v)", s, p, u, err)
			}
		}
	})
}
