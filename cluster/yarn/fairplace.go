package yarn

import (
	"fmt"
	"strings"
)

// placementTerminal is QueuePlacementPolicy.RULES' terminal flag: "true",
// "false", or "create" (terminal when the rule may create its queue).
var placementTerminal = map[string]string{
	"user": "create", "primaryGroup": "create", "secondaryGroupExistingQueue": "false",
	"specified": "false", "nestedUserQueue": "create", "default": "create", "reject": "true",
}

func terminal(r *PlacementRule) bool {
	switch placementTerminal[r.Name] {
	case "true":
		return true
	case "false":
		return false
	}
	return r.Create
}

// createFlag is FSPlacementRule.getCreateFlag: true unless the create
// attribute is set to something other than "true" (any case).
func createFlag(e *element) bool {
	c, ok := e.attrs["create"]
	return !ok || c == "" || parseJavaBool(c)
}

// placement is QueuePlacementPolicy.fromXml (or fromConfiguration when the
// file has no policy).
func (p *fsReader) placement(e *element) {
	const hadoop = "QueuePlacementPolicy.fromXml"
	fs := p.fs
	if e == nil {
		fs.Placement = []PlacementRule{{Name: "specified", Create: true}, {Name: "user", Create: true}}
		fs.terminal = []bool{false, true}
		return
	}
	fs.PlacementConfigured = true
	if len(e.nodes) == 0 {
		p.errorf("fs-placement", "queuePlacementPolicy", hadoop, "Empty configuration for QueuePlacementPolicy is not allowed")
		return
	}
	for _, re := range e.children() {
		if !strings.EqualFold(re.tag, "rule") {
			continue
		}
		rule, ok := p.rule(re)
		if !ok {
			continue
		}
		var parentElem *element
		for _, c := range re.children() {
			if strings.EqualFold(c.tag, "rule") {
				parentElem = c // the last one is used
			}
		}
		where := "queuePlacementPolicy rule " + rule.Name
		if parentElem != nil {
			pn := parentElem.attr("name")
			if pn == "reject" || pn == "nestedUserQueue" {
				p.errorf("fs-placement", where, "QueuePlacementPolicy.getParentRuleElement", "Rule '%s' is not allowed as a parent rule for any rule", pn)
				continue
			}
			parent, ok := p.rule(parentElem)
			if !ok {
				continue
			}
			rule.Parent = &parent
		}
		if strings.EqualFold(rule.Name, "nestedUserQueue") && rule.Parent == nil {
			p.errorf("fs-placement", where, hadoop, "Rule '%s' must have a parent rule set", rule.Name)
			continue
		}
		if rule.Parent != nil {
			switch {
			case rule.Parent.Name == rule.Name:
				p.errorf("fs-placement", where, "FSPlacementRule.initialize", "Parent rule may not be the same type as the child rule: %s", rule.Name)
			case rule.Name == "specified":
				p.errorf("fs-placement", where, "SpecifiedPlacementRule.initialize", "Parent rule should not be configured for Specified rule.")
			case rule.Name == "default":
				p.errorf("fs-placement", where, "DefaultPlacementRule.initialize", "Parent rule must not be configured for Default rule.")
			}
		}
		t := terminal(&rule)
		if rule.Parent != nil {
			t = t && terminal(rule.Parent)
		}
		fs.Placement = append(fs.Placement, rule)
		fs.terminal = append(fs.terminal, t)
	}
	if len(fs.Placement) == 0 {
		p.col.add(Warning, "fs-placement", "queuePlacementPolicy", "QueuePlacementPolicy.updateRuleSet",
			"no rules: Hadoop ignores an empty rule set and keeps the rules it had (none when it starts)")
		return
	}
	for i := 0; i < len(fs.terminal)-1; i++ {
		if fs.terminal[i] {
			p.errorf("fs-placement-unreachable", "queuePlacementPolicy", "QueuePlacementPolicy.updateRuleSet",
				"Rules after rule %d in queue placement policy can never be reached", i+1)
		}
	}
	if !fs.terminal[len(fs.terminal)-1] {
		p.errorf("fs-placement-terminal", "queuePlacementPolicy", "QueuePlacementPolicy.updateRuleSet",
			"Could get past last queue placement rule without assigning")
	}
}

// rule is QueuePlacementPolicy.createRule and the rule's setConfig.
func (p *fsReader) rule(e *element) (PlacementRule, bool) {
	name := e.attr("name")
	if name == "" {
		p.errorf("fs-placement", "queuePlacementPolicy", "QueuePlacementPolicy.createRule", "No name provided for a rule element")
		return PlacementRule{}, false
	}
	if _, ok := placementTerminal[name]; !ok {
		p.errorf("fs-placement", "queuePlacementPolicy", "QueuePlacementPolicy.createRule", "No rule class found for %s", name)
		return PlacementRule{}, false
	}
	r := PlacementRule{Name: name, Create: createFlag(e)}
	if name == "default" {
		q := e.attr("queue")
		if !validPlacementQueue(q) {
			p.col.add(Warning, "fs-default-queue", "queuePlacementPolicy rule default", "DefaultPlacementRule.setConfig",
				"Default rule configured with an illegal queue name: '%s': Hadoop uses root.default", q)
			q = ""
		}
		if q == "" {
			q = "default"
		}
		r.Queue = assureRoot(q)
	}
	return r, true
}

// configured is FSPlacementRule.configuredQueue: the queue is in the file.
func (fs *FairScheduler) configured(path string) bool { return fs.byPath[path] != nil }

// Place returns the queue an application of user (groups: primary group
// first) lands in when it asks for queue requested ("" or "default": no
// queue named), by running the queue placement policy
// (QueuePlacementPolicy, UserPlacementRule, SpecifiedPlacementRule,
// DefaultPlacementRule, ...). The queue may be one a rule creates (not in
// the file). It fails when the policy rejects the application, picks a
// parent queue, or a name YARN cannot use.
func (fs *FairScheduler) Place(user string, groups []string, requested string) (string, error) {
	if requested == "" {
		requested = "default"
	}
	for i := range fs.Placement {
		q, err := fs.apply(&fs.Placement[i], user, groups, requested)
		if err != nil {
			return "", err
		}
		if q == "" {
			continue
		}
		if qq := fs.byPath[q]; qq != nil && !qq.IsLeaf() {
			return "", fmt.Errorf("%w: %s is not a leaf queue", ErrRejected, q)
		}
		for _, part := range strings.Split(q, ".") {
			if part == "" || part != TrimQueueName(part) {
				return "", fmt.Errorf("%w: illegal queue name %q (QueueManager.isQueueNameValid)", ErrRejected, q)
			}
		}
		return q, nil
	}
	return "", fmt.Errorf("%w: no placement rule placed the application of user %s", ErrRejected, user)
}

// apply runs one rule: the queue, or "" to go on to the next rule.
func (fs *FairScheduler) apply(r *PlacementRule, user string, groups []string, requested string) (string, error) {
	nested := func(leaf string) (string, error) {
		if r.Parent == nil {
			return assureRoot(leaf), nil
		}
		parent, err := fs.apply(r.Parent, user, groups, requested)
		if err != nil || parent == "" {
			return "", err
		}
		if q := fs.byPath[parent]; q != nil && q.IsLeaf() {
			return "", nil // the parent rule picked a leaf queue
		}
		return parent + "." + leaf, nil
	}
	var q string
	var err error
	switch r.Name {
	case "specified":
		if !validPlacementQueue(requested) {
			return "", fmt.Errorf("%w: application submitted by user %s with illegal queue name '%s'", ErrRejected, user, requested)
		}
		if requested == "default" {
			return "", nil
		}
		q = assureRoot(requested)
	case "user", "nestedUserQueue":
		q, err = nested(CleanName(user))
	case "primaryGroup":
		if len(groups) == 0 {
			return "", nil
		}
		q, err = nested(CleanName(groups[0]))
	case "secondaryGroupExistingQueue":
		for _, g := range groups[min(1, len(groups)):] {
			if c, err := nested(CleanName(g)); err != nil {
				return "", err
			} else if c != "" && fs.configured(c) {
				return c, nil
			}
		}
		return "", nil
	case "default":
		q = r.Queue
	case "reject":
		return "", fmt.Errorf("%w: the reject rule refused the application of user %s", ErrRejected, user)
	}
	if err != nil || q == "" {
		return "", err
	}
	if r.Create || fs.configured(q) {
		return q, nil
	}
	return "", nil
}
