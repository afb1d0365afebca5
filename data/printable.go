package data

import (
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Printable returns s ready to be shown on a terminal: s itself when it is
// valid UTF-8 made only of printable characters (unicode.IsPrint: letters,
// marks, numbers, punctuation, symbols and the ASCII space), otherwise s
// quoted as a Go string literal, so that control characters (ANSI and OSC
// escape sequences, carriage returns, bidirectional overrides) are shown
// escaped instead of acting on the terminal. User names, job ids and file
// names come from the logs a user reads and may hold anything.
func Printable(s string) string {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 || !unicode.IsPrint(r) {
			return strconv.Quote(s)
		}
		i += n
	}
	return s
}
