package yarn

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/schedplan/schedplan/internal/lazyre"
)

// whitespace is the table FairSchedulerUtilities.trimQueueName trims (Guava
// v19's CharMatcher.whitespace()).
const whitespace = "\u2002\u3000\r\u0085\u200A\u2005\u2000\u3000" +
	"\u2029\u000B\u3000\u2008\u2003\u205F\u3000\u1680" +
	"\u0009\u0020\u2006\u2001\u202F\u00A0\u000C\u2009" +
	"\u3000\u2004\u3000\u3000\u2028\n\u2007\u3000"

// TrimQueueName removes leading and trailing whitespace the way
// FairSchedulerUtilities.trimQueueName does (Unicode whitespace, not only
// ASCII).
func TrimQueueName(name string) string {
	return strings.TrimFunc(name, func(r rune) bool { return strings.ContainsRune(whitespace, r) })
}

// CleanName is the queue name the Fair Scheduler's user and group placement
// rules derive from a user or group name (FairQueuePlacementUtils.cleanName):
// whitespace trimmed, every '.' replaced by "_dot_". User alice.smith's
// queue is root.alice_dot_smith.
func CleanName(name string) string {
	return strings.ReplaceAll(TrimQueueName(name), ".", "_dot_")
}

// assureRoot prefixes "root." unless the name is root or already starts with
// it (FairQueuePlacementUtils.assureRoot).
func assureRoot(q string) string {
	if q != "" && q != "root" && !strings.HasPrefix(q, "root.") {
		return "root." + q
	}
	return q
}

// validPlacementQueue is FairQueuePlacementUtils.isValidQueueName: trimmed,
// not starting or ending with '.'.
func validPlacementQueue(q string) bool {
	return q == TrimQueueName(q) && !strings.HasPrefix(q, ".") && !strings.HasSuffix(q, ".")
}

// javaTrim is String.trim: removes characters <= ' ' at both ends.
func javaTrim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
}

var (
	javaDecimal = lazyre.New(`^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?$`)
	javaHex     = lazyre.New(`^[+-]?0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?\d+[fFdD]?$`)
)

// parseJavaDouble parses s as Double.parseDouble does (Java's
// floating-point literal syntax, surrounding whitespace ignored, "NaN" and
// "Infinity" accepted, an optional f/F/d/D suffix). ok is false where Java
// throws NumberFormatException.
func parseJavaDouble(s string) (v float64, ok bool) {
	s = javaTrim(s)
	switch strings.TrimLeft(s, "+-") {
	case "NaN":
		return math.NaN(), len(s) <= 4
	case "Infinity":
		if len(s) > len("Infinity")+1 {
			return 0, false
		}
		if s[0] == '-' {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	}
	if !javaDecimal().MatchString(s) && !javaHex().MatchString(s) {
		return 0, false
	}
	s = strings.TrimRight(s, "fFdD")
	if strings.ContainsAny(s, "xX") && !strings.ContainsAny(s, "pP") {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil && !isRange(err) {
		return 0, false
	}
	return v, true // out of range gives ±Inf or 0, as in Java
}

// parseJavaFloat is Float.parseFloat: parseJavaDouble rounded to float32.
func parseJavaFloat(s string) (float64, bool) {
	v, ok := parseJavaDouble(s)
	return float64(float32(v)), ok
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// parseJavaInt is Integer.parseInt (no whitespace, optional sign, 32 bits).
func parseJavaInt(s string) (int64, bool) {
	return parseJavaInteger(s, 32)
}

// parseJavaLong is Long.parseLong.
func parseJavaLong(s string) (int64, bool) {
	return parseJavaInteger(s, 64)
}

func parseJavaInteger(s string, bits int) (int64, bool) {
	if s == "" || strings.ContainsAny(s, "_ ") || strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		return 0, false
	}
	v, err := strconv.ParseInt(s, 10, bits)
	return v, err == nil
}

// parseConfBool is Configuration.getBoolean: "true" or "false" in any case
// (trimmed); anything else gives the default.
func parseConfBool(s string, def bool) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true":
		return true
	case "false":
		return false
	}
	return def
}

// parseJavaBool is Boolean.parseBoolean: true only for "true" in any case.
func parseJavaBool(s string) bool { return strings.EqualFold(s, "true") }

// UserQueueName is the queue the Fair Scheduler's user placement rule
// creates for user name (CleanName), or an error when the name gives no
// usable queue: empty once trimmed, or holding control characters or
// invalid UTF-8, which an allocation file cannot carry.
func UserQueueName(name string) (string, error) {
	q := CleanName(name)
	if q == "" || strings.ContainsFunc(q, func(r rune) bool { return r < ' ' || r == utf8.RuneError }) {
		return "", fmt.Errorf("user %q has no usable queue name (empty or whitespace once trimmed, or a control character)", name)
	}
	return q, nil
}
