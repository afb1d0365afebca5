package yarn

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
)

// element is a DOM element as Hadoop's DocumentBuilder builds it (comments
// ignored): its attributes, and its children in order, text and elements.
type element struct {
	tag   string
	attrs map[string]string
	nodes []node
	line  int
}

// node is a child of an element: text or an element.
type node struct {
	text string
	elem *element
}

// maxDepth bounds the nesting of a parsed document.
const maxDepth = 1000

// parseDOM reads an XML document into its root element.
func parseDOM(data []byte) (*element, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	var stack []*element
	var root *element
	for {
		line, _ := dec.InputPos()
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) >= maxDepth {
				return nil, fmt.Errorf("line %d: elements nested more than %d deep", line, maxDepth)
			}
			e := &element{tag: t.Name.Local, attrs: map[string]string{}, line: line}
			for _, a := range t.Attr {
				e.attrs[a.Name.Local] = a.Value
			}
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				p.nodes = append(p.nodes, node{elem: e})
			} else if root == nil {
				root = e
			}
			stack = append(stack, e)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				p.nodes = append(p.nodes, node{text: string(t)})
			}
		}
	}
	if root == nil {
		return nil, errors.New("no XML element")
	}
	return root, nil
}

// children returns the element children.
func (e *element) children() []*element {
	var out []*element
	for _, n := range e.nodes {
		if n.elem != nil {
			out = append(out, n.elem)
		}
	}
	return out
}

// firstText is ((Text) element.getFirstChild()).getData(): ok is false
// where Hadoop fails (no child, or an element first).
func (e *element) firstText() (string, bool) {
	if len(e.nodes) == 0 || e.nodes[0].elem != nil {
		return "", false
	}
	return e.nodes[0].text, true
}

func (e *element) attr(name string) string { return e.attrs[name] }
