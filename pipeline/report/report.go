package report

import (
	"encoding/base64"
	"errors"
	"fmt"
	"html/template"
	"io"
	"sync"
)

// Report is the content of report.html: sections of text, tables and
// figures. The HTML is one self-contained file: styles inline, figures as
// embedded PNG data, no script and no external resource.
type Report struct {
	Title    string
	Subtitle string
	// Decision, when set, is the first screen: above the sections and
	// their index.
	Decision *Decision
	Sections []Section
}

// Decision is the first screen of report.html: the verdict in one line,
// the facts it rests on, and what to do next.
type Decision struct {
	Headline string
	Facts    [][2]string // label, text
	Steps    []string
}

// Section is one part of the report.
type Section struct {
	ID      string // anchor
	Title   string
	Intro   string
	Tables  []TableBlock
	Figures []Figure
}

// TableBlock is a table of preformatted cells.
type TableBlock struct {
	Caption string
	Header  []string
	Rows    [][]string
	// Highlight marks a row (by index) as the recommended one; -1 for none.
	Highlight int
	// SpecsLast sets the last column in a small monospace font that wraps
	// (for policy specifications).
	SpecsLast bool
}

// Figure is a PNG image with a caption, or, when the data gave nothing
// sensible to draw, a note saying why in place of the image.
type Figure struct {
	Title   string
	Caption string
	PNG     []byte
	Note    string
}

// NewFigure makes a figure by calling draw (one of the Plot functions): a
// *NoFigure error becomes the figure's note; any other error is returned.
func NewFigure(title, caption string, draw func() ([]byte, error)) (Figure, error) {
	png, err := draw()
	f := Figure{Title: title, Caption: caption, PNG: png}
	var nf *NoFigure
	switch {
	case errors.As(err, &nf):
		f.PNG, f.Note = nil, "Figure not drawn: "+nf.Reason+"."
	case err != nil:
		return f, fmt.Errorf("figure %q: %w", title, err)
	}
	return f, nil
}

// DataURI returns the figure as a data: URI for an <img> src.
func (f Figure) DataURI() template.URL {
	return template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(f.PNG))
}

// reportTmpl is parsed on first use, not at start-up.
var reportTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
<style>
body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; line-height: 1.45; padding: 0 1em; }
h1 { margin-bottom: 0.2em; } .sub { color: #666; margin-top: 0; }
nav a { margin-right: 1em; }
section { margin-top: 2.5em; border-top: 1px solid #ddd; padding-top: 0.5em; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.92em; }
caption { text-align: left; font-weight: 600; padding-bottom: 0.3em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { background: #f3f3f3; }
tr.best td { background: #e8f5e9; font-weight: 600; }
table.specs td:last-child { text-align: left; font-family: monospace; font-size: 0.85em; word-break: break-all; max-width: 22em; }
figure { margin: 1.5em 0; } figure img { max-width: 100%; border: 1px solid #eee; }
figcaption { color: #555; font-size: 0.9em; }
div.decision { border: 2px solid #4a7; border-radius: 6px; padding: 0.2em 1.2em 0.8em; margin: 1em 0 1.5em; background: #f6fbf7; }
div.decision h2 { margin: 0.5em 0; } div.decision h3 { margin: 0.6em 0 0.2em; }
table.facts { margin: 0.5em 0; font-size: 0.95em; } table.facts th, table.facts td { border: none; text-align: left; vertical-align: top; padding: 0.15em 0.6em 0.15em 0; background: none; }
table.facts th { white-space: nowrap; color: #555; font-weight: 600; }
p.note { border: 1px dashed #bbb; color: #555; padding: 2em; text-align: center; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p class="sub">{{.Subtitle}}</p>
{{with .Decision}}<div id="decision" class="decision">
<h2>{{.Headline}}</h2>
<table class="facts">{{range .Facts}}<tr><th>{{index . 0}}</th><td>{{index . 1}}</td></tr>{{end}}</table>
{{if .Steps}}<h3>Next steps</h3>
<ol>{{range .Steps}}<li>{{.}}</li>{{end}}</ol>{{end}}
</div>
{{end}}<nav>{{range .Sections}}<a href="#{{.ID}}">{{.Title}}</a>{{end}}</nav>
{{range .Sections}}
<section id="{{.ID}}">
<h2>{{.Title}}</h2>
{{if .Intro}}<p>{{.Intro}}</p>{{end}}
{{range .Tables}}
<table{{if .SpecsLast}} class="specs"{{end}}>
{{if .Caption}}<caption>{{.Caption}}</caption>{{end}}
<thead><tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>
{{$hl := .Highlight}}{{range $i, $row := .Rows}}<tr{{if eq $i $hl}} class="best"{{end}}>{{range $row}}<td>{{.}}</td>{{end}}</tr>
{{end}}</tbody>
</table>
{{end}}
{{range .Figures}}
<figure>
{{if .Note}}<p class="note">{{.Note}}</p>{{else}}<img src="{{.DataURI}}" alt="{{.Title}}">{{end}}
<figcaption><b>{{.Title}}.</b> {{.Caption}}</figcaption>
</figure>
{{end}}
</section>
{{end}}
</body>
</html>
`))
})

// WriteReport renders r as HTML.
func WriteReport(w io.Writer, r *Report) error { return reportTmpl().Execute(w, r) }
