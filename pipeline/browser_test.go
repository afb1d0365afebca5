package pipeline

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/schedplan/schedplan/pipeline/report"
)

// chromiumPath finds a Chromium to drive. Outside CI a missing browser skips
// the test; in CI (CI=true), where .ci/run installs Debian's chromium, it fails.
func chromiumPath(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("no chromium on PATH in CI: .ci/run must install it (scripts/deps.sh --browser)")
	}
	t.Skip("no chromium on PATH; install it with scripts/deps.sh --browser")
	return ""
}

// BrowserCheck is what headless Chromium saw of a report.
type BrowserCheck struct {
	Images      int      // <img> elements
	Loaded      int      // of which decoded with a non-zero size
	External    []string // requests for anything but the file itself and data: URIs
	Screenshot  []byte   // full-page PNG
	Title       string
	SectionsIDs []string
	// LoadedAlts are the alt texts of the images that decoded, Captions
	// the tables' captions.
	LoadedAlts []string
	Captions   []string
	// DecisionTop and DecisionBottom are the first screen's verdict box
	// (#decision h2: the verdict sentence) in CSS pixels from the top of
	// the page at 1400 px wide (-1: none); Plots the PNGs of the images.
	DecisionTop, DecisionBottom float64
	Plots                       []Plot
}

// Plot is one image of a report: its alt text and PNG bytes.
type Plot struct {
	Alt string
	PNG []byte
}

// openInBrowser loads an HTML file in headless Chromium, records every network
// request, waits for the page to load and inspects its images.
func openInBrowser(t *testing.T, path string) BrowserCheck {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	page := (&url.URL{Scheme: "file", Path: abs}).String()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath(t)),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1400, 1000),
	)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 90*time.Second)
	defer cancel()

	var mu sync.Mutex
	var out BrowserCheck
	err = chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			u := e.Request.URL
			if u != page && !strings.HasPrefix(u, "data:") {
				mu.Lock()
				out.External = append(out.External, u)
				mu.Unlock()
			}
		}
	})
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatalf("chromium: network.enable: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(page), chromedp.WaitReady("body")); err != nil {
		t.Fatalf("chromium: %v", err)
	}
	if out.Title, err = chromedp.Run(ctx, chromedp.Title()); err != nil {
		t.Fatal(err)
	}
	counts, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`(() => { const im = Array.from(document.images);
		return [im.length, im.filter(i => i.complete && i.naturalWidth > 0 && i.naturalHeight > 0).length]; })()`))
	if err != nil {
		t.Fatal(err)
	}
	if out.SectionsIDs, err = chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('section')).map(s => s.id)`)); err != nil {
		t.Fatal(err)
	}
	if out.LoadedAlts, err = chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.images).filter(i => i.complete && i.naturalWidth > 0).map(i => i.alt)`)); err != nil {
		t.Fatal(err)
	}
	if out.Captions, err = chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('caption')).map(c => c.textContent)`)); err != nil {
		t.Fatal(err)
	}
	box, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => { const h = document.querySelector('#decision h2');
		if (!h) return [-1, -1]; const r = h.getBoundingClientRect(); return [r.top + window.scrollY, r.bottom + window.scrollY]; })()`))
	if err != nil || len(box) != 2 {
		t.Fatalf("decision box: %v %v", box, err)
	}
	out.DecisionTop, out.DecisionBottom = box[0], box[1]
	srcs, err := chromedp.Run(ctx, chromedp.Evaluate[[][2]string](`Array.from(document.images).map(i => [i.alt, i.src])`))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range srcs {
		if b64, ok := strings.CutPrefix(s[1], "data:image/png;base64,"); ok {
			if png, err := base64.StdEncoding.DecodeString(b64); err == nil {
				out.Plots = append(out.Plots, Plot{s[0], png})
			}
		}
	}
	if out.Screenshot, err = chromedp.Run(ctx, chromedp.FullScreenshot(100)); err != nil {
		t.Fatal(err)
	}
	if len(counts) != 2 {
		t.Fatalf("image count: %v", counts)
	}
	out.Images, out.Loaded = counts[0], counts[1]
	return out
}

func (c BrowserCheck) String() string {
	return fmt.Sprintf("%d/%d images loaded, %d external requests, sections %v", c.Loaded, c.Images, len(c.External), c.SectionsIDs)
}

func TestReportRendersInChromium(t *testing.T) {
	png, err := report.PlotCDF("t", "x", []report.Series{{Name: "a", Values: []float64{1, 2, 3}}})
	if err != nil {
		t.Fatal(err)
	}
	r := &report.Report{Title: "browser check", Sections: []report.Section{{ID: "a", Title: "A", Figures: []report.Figure{{Title: "f1", PNG: png}, {Title: "f2", PNG: png}}}}}
	path := filepath.Join(t.TempDir(), "report.html")
	f, _ := os.Create(path)
	if err := report.WriteReport(f, r); err != nil {
		t.Fatal(err)
	}
	f.Close()
	c := openInBrowser(t, path)
	if c.Images != 2 || c.Loaded != 2 || len(c.External) != 0 || c.Title != "browser check" {
		t.Errorf("%v; external: %v", c, c.External)
	}
	// A broken image must be caught: the check is able to fail.
	bad := strings.Replace(readFile(t, path), "base64,iVBOR", "base64,AAAA", 1)
	os.WriteFile(path, []byte(bad), 0o644)
	if c := openInBrowser(t, path); c.Loaded != 1 {
		t.Errorf("a corrupt image counted as loaded: %v", c)
	}
	// So must an external resource (a loopback address that serves nothing).
	ext := strings.Replace(bad, "</body>", `<img src="http://127.0.0.1:9/x.png"></body>`, 1)
	os.WriteFile(path, []byte(ext), 0o644)
	if c := openInBrowser(t, path); len(c.External) != 1 {
		t.Errorf("an external image went unnoticed: %v", c)
	}
}

func readFile(t *testing.T, p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
