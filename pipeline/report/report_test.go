package report

import (
	"bytes"
	"strings"
	"testing"
)

func TestReportIsSelfContained(t *testing.T) {
	png, err := PlotLines("t", "x", "y", []XYSeries{{"a", []float64{1, 2}, []float64{1, 4}}}, false)
	if err != nil {
		t.Fatal(err)
	}
	r := &Report{Title: "schedplan <report>", Sections: []Section{{
		ID: "v", Title: "Validation",
		Tables:  []TableBlock{{Header: []string{"policy", "mean"}, Rows: [][]string{{"fifo", "10"}, {"las_mq", "5"}}, Highlight: 1}},
		Figures: []Figure{{Title: "curve", PNG: png}},
	}}}
	var buf bytes.Buffer
	if err := WriteReport(&buf, r); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	if !strings.Contains(html, `src="data:image/png;base64,iVBOR`) {
		t.Error("figure is not embedded as a PNG data URI")
	}
	if strings.Contains(html, "<report>") {
		t.Error("title not escaped")
	}
	if !strings.Contains(html, `<tr class="best"><td>las_mq</td>`) {
		t.Error("highlighted row missing")
	}
	for _, ext := range []string{"http://", "https://", "<script", "<link"} {
		if strings.Contains(html, ext) {
			t.Errorf("report refers to an external resource or script: %q", ext)
		}
	}
}
