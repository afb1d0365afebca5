package yarn

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"
)

// Property is one <property> of a Hadoop configuration file.
type Property struct {
	Name        string
	Value       string
	Description string
	// Final marks a property later definitions may not override.
	Final bool

	noValue bool // read from a file without a value
}

// Configuration is a Hadoop configuration file (<configuration> of
// <property> elements), properties in file order.
type Configuration struct {
	Properties []Property

	includes int // XInclude elements read (not followed)
}

type xmlProperty struct {
	NameAttr    string   `xml:"name,attr"`
	ValueAttr   *string  `xml:"value,attr"`
	FinalAttr   string   `xml:"final,attr"`
	Name        []string `xml:"name"`
	Value       []string `xml:"value"`
	Final       string   `xml:"final"`
	Description string   `xml:"description"`
}

type xmlConfiguration struct {
	XMLName    xml.Name
	Properties []xmlProperty `xml:"property"`
	Includes   []struct{}    `xml:"http://www.w3.org/2001/XInclude include"`
}

// ParseConfiguration reads a Hadoop configuration file. Properties may be
// written with child elements (<name>, <value>, <final>) or attributes, as
// Hadoop's Configuration.Parser accepts. A property without a name or a
// value is kept with what it has; Values reports it.
func ParseConfiguration(data []byte) (*Configuration, error) {
	var x xmlConfiguration
	dec := xml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&x); err != nil {
		return nil, fmt.Errorf("not a Hadoop configuration file: %w", err)
	}
	if x.XMLName.Local != "configuration" {
		return nil, fmt.Errorf("not a Hadoop configuration file: the top-level element is <%s>, not <configuration>", x.XMLName.Local)
	}
	c := &Configuration{}
	for _, p := range x.Properties {
		q := Property{Name: p.NameAttr, Description: p.Description}
		if len(p.Name) > 0 {
			q.Name = p.Name[len(p.Name)-1]
		}
		q.Name = strings.TrimSpace(q.Name)
		switch {
		case len(p.Value) > 0:
			q.Value = p.Value[len(p.Value)-1]
		case p.ValueAttr != nil:
			q.Value = *p.ValueAttr
		default:
			q.noValue = true
		}
		q.Final = parseJavaBool(strings.TrimSpace(p.Final)) || parseJavaBool(p.FinalAttr)
		c.Properties = append(c.Properties, q)
	}
	c.includes = len(x.Includes)
	return c, nil
}

// Values returns the configuration's effective values the way Hadoop's
// Configuration builds them: a later definition replaces an earlier one
// unless the earlier one is final. Problems are warnings: duplicate
// definitions, properties without a name or value, ${...} references
// (Hadoop substitutes them; this package does not), XInclude (not followed).
func (c *Configuration) Values() (map[string]string, Problems) {
	var col collector
	vals := map[string]string{}
	final := map[string]bool{}
	if c.includes > 0 {
		col.add(Warning, "conf-include", "<xi:include>", "Configuration.loadResource", "XInclude is not followed by this checker")
	}
	for _, p := range c.Properties {
		switch {
		case p.Name == "":
			col.add(Warning, "conf-property", "<property>", "Configuration.Parser.handleEndElement", "a property without a name is ignored")
			continue
		case p.noValue:
			col.add(Warning, "conf-property", p.Name, "Configuration.Parser.handleEndElement", "a property without a value is ignored")
			continue
		}
		if old, dup := vals[p.Name]; dup {
			if final[p.Name] {
				col.add(Warning, "conf-duplicate", p.Name, "Configuration.loadProperty", "defined again after a final definition: the new value %q is ignored", p.Value)
				continue
			}
			col.add(Warning, "conf-duplicate", p.Name, "Configuration.loadProperty", "defined twice: %q replaces %q", p.Value, old)
		}
		if strings.Contains(p.Value, "${") {
			col.add(Warning, "conf-substitution", p.Name, "Configuration.substituteVars", "value %q refers to a variable Hadoop substitutes; it is read here as written", p.Value)
		}
		vals[p.Name] = p.Value
		final[p.Name] = p.Final
	}
	return vals, col.list
}

// Add appends a property.
func (c *Configuration) Add(name, value, description string) {
	c.Properties = append(c.Properties, Property{Name: name, Value: value, Description: description})
}

type xmlOutProperty struct {
	Name        string `xml:"name"`
	Value       string `xml:"value"`
	Description string `xml:"description,omitempty"`
	Final       string `xml:"final,omitempty"`
}

// Marshal renders the configuration as XML with an XML declaration and,
// when comment is not empty, a comment before <configuration> ("--" in it
// is written as "- -", which XML comments cannot contain).
func (c *Configuration) Marshal(comment string) ([]byte, error) {
	out := struct {
		XMLName    xml.Name         `xml:"configuration"`
		Properties []xmlOutProperty `xml:"property"`
	}{}
	for _, p := range c.Properties {
		q := xmlOutProperty{Name: p.Name, Value: p.Value, Description: p.Description}
		if p.Final {
			q.Final = "true"
		}
		out.Properties = append(out.Properties, q)
	}
	return marshalXML(out, comment)
}

func marshalXML(v any, comment string) ([]byte, error) {
	body, err := xml.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString(xml.Header)
	if comment != "" {
		for strings.Contains(comment, "--") {
			comment = strings.ReplaceAll(comment, "--", "- -")
		}
		b.WriteString("<!-- " + strings.TrimSuffix(comment, "-") + " -->\n")
	}
	b.Write(body)
	b.WriteByte('\n')
	return b.Bytes(), nil
}
