package yarn

import (
	"errors"
	"fmt"
	"strings"
)

// Severity says how bad a Problem is.
type Severity int

const (
	// Error: Hadoop refuses the file (or a queue in it), or refuses or
	// starves every application the setting applies to.
	Error Severity = iota
	// Warning: Hadoop loads the file but ignores the setting or does
	// something other than it suggests.
	Warning
)

func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// Problem is one broken rule.
type Problem struct {
	Severity Severity
	// Rule is a short stable identifier, e.g. "cs-children-sum".
	Rule string
	// Where is the queue path, property name or element the problem is in.
	Where string
	// Message says what is wrong, in Hadoop's words where Hadoop has some.
	Message string
	// Hadoop names the Hadoop 3.4.1 class and method that applies the rule
	// (or the 2.x behaviour), e.g. "AbstractParentQueue.setChildQueues".
	Hadoop string
}

func (p Problem) String() string {
	return fmt.Sprintf("%s: %s: %s [%s; %s]", p.Severity, p.Where, p.Message, p.Rule, p.Hadoop)
}

// Problems is the outcome of a check.
type Problems []Problem

// Errors returns the problems of severity Error.
func (ps Problems) Errors() Problems { return ps.filter(Error) }

// Warnings returns the problems of severity Warning.
func (ps Problems) Warnings() Problems { return ps.filter(Warning) }

func (ps Problems) filter(s Severity) Problems {
	var out Problems
	for _, p := range ps {
		if p.Severity == s {
			out = append(out, p)
		}
	}
	return out
}

// Has reports whether a problem with the rule is in the list.
func (ps Problems) Has(rule string) bool {
	for _, p := range ps {
		if p.Rule == rule {
			return true
		}
	}
	return false
}

// Err returns nil when there are no problems, else an error listing them
// (file names the file in the message).
func (ps Problems) Err(file string) error {
	if len(ps) == 0 {
		return nil
	}
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return fmt.Errorf("%s: %d problem(s) YARN would have with this file:\n  %s", file, len(ps), strings.Join(lines, "\n  "))
}

// ErrRejected is wrapped by Place when the placement rules reject an
// application.
var ErrRejected = errors.New("application rejected")

type collector struct{ list Problems }

func (c *collector) add(sev Severity, rule, where, hadoop, format string, args ...any) {
	c.list = append(c.list, Problem{Severity: sev, Rule: rule, Where: where, Message: fmt.Sprintf(format, args...), Hadoop: hadoop})
}

// hadoopError is an error whose text is Hadoop's own message (capitalised
// and punctuated as Hadoop writes it, so that it can be searched for).
type hadoopError string

func (e hadoopError) Error() string { return string(e) }

func hadoopErrorf(format string, args ...any) error { return hadoopError(fmt.Sprintf(format, args...)) }
