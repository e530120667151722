//go:build e2e

package browsertest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/launchdir/launchdir/internal/testtier"
)

// Viewport is a window size a page is looked at in.
type Viewport struct {
	Name          string
	Width, Height int64
	Mobile        bool    // mobile emulation: touch, the meta viewport honoured, Scale device pixels per CSS pixel
	Scale         float64 // device pixels per CSS pixel with Mobile (1 without)
}

var (
	// Desktop is a laptop-sized window.
	Desktop = Viewport{Name: "desktop", Width: 1280, Height: 900}
	// Phone is a 390x844 phone (an iPhone 12 to 15) with mobile emulation
	// at two device pixels per CSS pixel.
	Phone = Viewport{Name: "phone", Width: 390, Height: 844, Mobile: true, Scale: 2}
	// Viewports are both, desktop first.
	Viewports = []Viewport{Desktop, Phone}
)

// stepTimeout bounds one page step (a navigation, a click and the page it
// leads to, a query).
const stepTimeout = 60 * time.Second

// Browser is one headless Chromium started for a test, with its own empty
// profile in t.TempDir(); it ends with the test.
type Browser struct {
	t   testing.TB
	ctx context.Context
}

// HeadlessFlags are the Chromium flags every browser test starts it with
// (Start, and tools such as Lighthouse that start their own Chromium): headless,
// no sandbox (tests run as root), no GPU, and no background networking, QUIC,
// component updates or sync (the machines' closed network refuses those
// connections, many at a time).
var HeadlessFlags = []string{
	"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-quic",
	"--disable-background-networking", "--disable-component-update", "--disable-sync",
}

// Start finds (or installs) Chromium and starts it headless with the flags
// this project's machines need: no sandbox (tests run as root), no GPU, and
// no background networking, QUIC, component updates or sync (the machines'
// closed network refuses those connections, many at a time).
func Start(t testing.TB) *Browser {
	t.Helper()
	path := Chromium(t)
	profile := t.TempDir() // removed after the browser stops (cleanups run last-in first-out)
	ctx, stop, err := start(path, profile)
	t.Cleanup(stop)
	if err != nil {
		t.Fatal(err)
	}
	return &Browser{t: t, ctx: ctx}
}

var (
	sharedMu  sync.Mutex
	shared    *Browser
	sharedErr error
)

// Shared is the test binary's one headless Chromium, started on first use
// and stopped when the binary's TestMain ends (it must call testtier.Main,
// or storage/pgtest.Main, which runs testtier.RunAtExit). Parallel tests
// share it: each NewPage is a tab in a browser context of its own (its own
// cookies and storage), so tests that each start their own server do not
// see each other, and the ~1 s start of a browser is paid once.
func Shared(t testing.TB) *Browser {
	t.Helper()
	path := Chromium(t)
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if shared == nil && sharedErr == nil {
		profile, err := os.MkdirTemp("", "launchdir-chromium-")
		if err != nil {
			t.Fatal(err)
		}
		ctx, stop, err := start(path, profile)
		testtier.AtExit(func() { stop(); os.RemoveAll(profile) })
		if err != nil {
			sharedErr = err
		} else {
			shared = &Browser{t: t, ctx: ctx}
		}
	}
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return shared
}

// start starts Chromium at path headless with the profile directory and
// returns its context and the function that stops it.
func start(path, profile string) (context.Context, func(), error) {
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path))
	for _, f := range HeadlessFlags {
		name, value, hasValue := strings.Cut(strings.TrimPrefix(f, "--"), "=")
		if hasValue {
			opts = append(opts, chromedp.Flag(name, value))
		} else {
			opts = append(opts, chromedp.Flag(name, true))
		}
	}
	opts = append(opts,
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(int(Desktop.Width), int(Desktop.Height)),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	stop := func() { cancel(); cancelAlloc() }
	if err := chromedp.Do(ctx); err != nil {
		return nil, stop, fmt.Errorf("start %s headless: %v", path, err)
	}
	return ctx, stop, nil
}

// Page is one tab of the browser in a browser context of its own (its own
// cookies: one person), at one viewport. Its methods fail t on error.
type Page struct {
	t   testing.TB
	ctx context.Context
	vp  Viewport

	mu      sync.Mutex
	console []string // console errors, uncaught exceptions and error log entries not yet taken
	shots   int
}

// NewPage opens a tab for a new person (an empty cookie jar) at vp.
func (b *Browser) NewPage(t testing.TB, vp Viewport) *Page {
	t.Helper()
	p := &Page{t: t, vp: vp}
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext(), chromedp.WithListener(p.listen))
	t.Cleanup(cancel)
	p.ctx = ctx
	// The first run opens the tab and binds it to the context it is given:
	// this one, with no step timeout.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("browser: open a tab: %v", err)
	}
	opts := []chromedp.EmulateViewportOption{chromedp.EmulatePortrait}
	if vp.Mobile {
		opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(vp.Scale))
	}
	p.do("open a tab at "+vp.Name, chromedp.EmulateViewport(vp.Width, vp.Height, opts...))
	return p
}

// Viewport is the page's viewport.
func (p *Page) Viewport() Viewport { return p.vp }

// listen keeps the page's console errors (it runs in the tab's read loop:
// it only records).
func (p *Page) listen(ev any) {
	var msg string
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type != runtime.ConsoleAPICalledTypeError && ev.Type != runtime.ConsoleAPICalledTypeAssert {
			return
		}
		var parts []string
		for _, a := range ev.Args {
			if len(a.Value) > 0 {
				parts = append(parts, string(a.Value))
			} else {
				parts = append(parts, a.Description)
			}
		}
		msg = "console." + string(ev.Type) + ": " + strings.Join(parts, " ")
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg = "uncaught exception: " + d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			msg += " " + d.Exception.Description
		}
		msg += fmt.Sprintf(" (%s:%d)", d.URL, d.LineNumber+1)
	case *log.EventEntryAdded:
		if ev.Entry.Level != log.EntryLevelError {
			return
		}
		msg = "log " + string(ev.Entry.Source) + ": " + ev.Entry.Text
		if ev.Entry.URL != "" {
			msg += " (" + ev.Entry.URL + ")"
		}
	default:
		return
	}
	p.mu.Lock()
	p.console = append(p.console, msg)
	p.mu.Unlock()
}

// do runs actions with a step timeout, failing the test with what on error.
func (p *Page) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, stepTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.t.Fatalf("browser (%s): %s: %v", p.vp.Name, what, err)
	}
}

// Go opens url and waits for the page to load.
func (p *Page) Go(url string) {
	p.t.Helper()
	p.do("open "+url, chromedp.Navigate(url))
	p.waitComplete("open " + url)
}

// URL is the address of the page the tab shows.
func (p *Page) URL() string {
	p.t.Helper()
	return Eval[string](p, `location.href`)
}

// Eval evaluates a JavaScript expression in the page (awaiting a promise)
// and decodes its JSON result into T.
func Eval[T any](p *Page, expr string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, stepTimeout)
	defer cancel()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](expr, chromedp.EvalAwaitPromise, chromedp.EvalAsValue))
	if err != nil {
		p.t.Fatalf("browser (%s): evaluate %.80q: %v", p.vp.Name, expr, err)
	}
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		p.t.Fatalf("browser (%s): evaluate %.80q: decode %s: %v", p.vp.Name, expr, raw, err)
	}
	return v
}

// Text is the rendered text of the first element sel (CSS) matches; it
// fails the test when none does.
func (p *Page) Text(sel string) string {
	p.t.Helper()
	type found struct {
		Found bool   `json:"found"`
		Text  string `json:"text"`
	}
	r := Eval[found](p, fmt.Sprintf(`(() => { const e = document.querySelector(%s); return e ? {found: true, text: e.innerText} : {found: false, text: ""}; })()`, jsString(sel)))
	if !r.Found {
		p.t.Fatalf("browser (%s): no element %q on %s", p.vp.Name, sel, p.URL())
	}
	return r.Text
}

// Count is the number of elements sel (CSS) matches.
func (p *Page) Count(sel string) int {
	p.t.Helper()
	return Eval[int](p, fmt.Sprintf(`document.querySelectorAll(%s).length`, jsString(sel)))
}

// Fill sets the value of the form field sel (CSS): an input, a textarea or
// a select (by option value), as typing or choosing would, with input and
// change events.
func (p *Page) Fill(sel, value string) {
	p.t.Helper()
	ok := Eval[bool](p, fmt.Sprintf(`(() => { const e = document.querySelector(%s); if (!e) return false; e.focus(); e.value = %s;
		e.dispatchEvent(new Event('input', {bubbles: true})); e.dispatchEvent(new Event('change', {bubbles: true})); return e.value === %[2]s; })()`,
		jsString(sel), jsString(value)))
	if !ok {
		p.t.Fatalf("browser (%s): cannot fill %q with %q on %s", p.vp.Name, sel, value, p.URL())
	}
}

// Click clicks the element sel (CSS) with the mouse, as a person would, and
// waits until the page it leads to has loaded (the element must start a
// navigation: a link or a form's button).
func (p *Page) Click(sel string) {
	p.t.Helper()
	Eval[bool](p, `(window.__browsertestBefore = true)`)
	p.do("click "+sel, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
	p.waitComplete("the page after clicking " + sel)
}

// waitComplete waits until a new document (not the one Click marked) has
// loaded.
func (p *Page) waitComplete(what string) {
	p.t.Helper()
	deadline := time.Now().Add(stepTimeout)
	var err error
	for time.Now().Before(deadline) {
		// A navigation can replace the document under an evaluation; that
		// is an error to try again after, not a failure.
		ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
		var done bool
		done, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`!window.__browsertestBefore && document.readyState === 'complete'`))
		cancel()
		if err == nil && done {
			return
		}
		if p.ctx.Err() != nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.t.Fatalf("browser (%s): wait for %s: not loaded after %v (last error %v) at %s", p.vp.Name, what, stepTimeout, err, p.URL())
}

// TakeConsoleErrors returns the console errors, uncaught exceptions and
// error log entries (failed loads among them) since the last call.
func (p *Page) TakeConsoleErrors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	c := p.console
	p.console = nil
	return c
}

// BrokenImages waits for every <img> of the page to load or fail (lazy ones
// are loaded too) and returns those that show no picture (naturalWidth 0).
func (p *Page) BrokenImages() []string {
	p.t.Helper()
	return Eval[[]string](p, `Promise.all([...document.images].map(img => {
		img.loading = 'eager';
		if (img.complete) return img;
		return new Promise(ok => { img.addEventListener('load', () => ok(img)); img.addEventListener('error', () => ok(img)); setTimeout(() => ok(img), 10000); });
	})).then(imgs => imgs.filter(img => !(img.complete && img.naturalWidth > 0)).map(img => img.currentSrc || img.src || img.outerHTML))`)
}

// CheckClean fails the test for every console error and broken image of
// the page (named step in the message), and when the page is wider than the
// viewport (it scrolls sideways).
func (p *Page) CheckClean(step string) {
	p.t.Helper()
	if w := Eval[int](p, `document.documentElement.scrollWidth`); w > int(p.vp.Width) {
		// Name the innermost elements that stick out, to say what to fix.
		// (On a phone innerWidth grows with the page: compare with the viewport.)
		wide := Eval[[]string](p, fmt.Sprintf(`[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > %[1]d + 0.5 &&
			![...e.children].some(c => c.getBoundingClientRect().right > %[1]d + 0.5)).slice(0, 5).map(e =>
			e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ').join('.') : '') + ' "' + e.innerText.slice(0, 40) + '"')`, p.vp.Width))
		p.t.Errorf("%s (%s): the page is %d px wide at a %d px viewport (it scrolls sideways); sticking out: %s", step, p.vp.Name, w, p.vp.Width, strings.Join(wide, ", "))
	}
	for _, img := range p.BrokenImages() {
		p.t.Errorf("%s (%s): broken image %s", step, p.vp.Name, img)
	}
	for _, m := range p.TakeConsoleErrors() {
		p.t.Errorf("%s (%s): %s", step, p.vp.Name, m)
	}
}

var (
	dirMu   sync.Mutex
	cleaned = map[string]bool{}
	unsafe  = regexp.MustCompile(`[^A-Za-z0-9._-]+`)
)

// ScreenshotDir is where the test's screenshots go:
// $LAUNCHDIR_SCREENSHOT_DIR/<TestName>, by default
// <os.TempDir()>/launchdir-screenshots/<TestName>. A test's first screenshot
// in a process clears the folder of an earlier run.
func ScreenshotDir(t testing.TB) string {
	base := os.Getenv(ScreenshotEnv)
	if base == "" {
		base = filepath.Join(os.TempDir(), "launchdir-screenshots")
	}
	var parts []string
	for _, part := range strings.Split(t.Name(), "/") {
		parts = append(parts, unsafe.ReplaceAllString(part, "_"))
	}
	return filepath.Join(append([]string{base}, parts...)...)
}

// shotQuality is the JPEG quality of Shot's screenshots. They were PNGs:
// encoding a full page as PNG is most of a screenshot's cost in Chromium
// (measured at load 26-29 on the demo's home page, five shots a format side
// by side: 2.1-3.9 s a PNG, 1.4-2.6 s a JPEG), and the browser tests take
// about 150 of them. A screenshot is for people to look at; the tests that
// compare pixels use ShotOf, which stays PNG.
const shotQuality = 90

// ShotMaxHeight is the most of a page's height, in CSS pixels, that Shot
// captures from the top: about four desktop screens, where the header, the
// first rows of a list and the forms of every page this project tests sit.
// Chromium's CPU painting a capture grows with its height, and the browser
// tests are bound by it: the review queue's 1280x10,363 desktop page took
// 8.6-12.7 s a full-page shot against 3.5-4.3 s for its first four screens
// (docs/testing.md). The tests' assertions read the DOM, not the picture.
const ShotMaxHeight = 4000

// Shot saves a JPEG (quality shotQuality) of the page's first
// ShotMaxHeight CSS pixels as <NN>-<step>-<viewport>.jpg in the test's
// screenshot folder. When the page is taller than that and one screen
// more, it also saves the page's last screen (a viewport's height at the
// bottom: the footer, pagination, the end of a long list) as
// <NN>-<step>-<viewport>-end.jpg; a page up to one screen taller than
// ShotMaxHeight is captured whole, in one file (fewer pixels to paint than
// the top and the last screen, and one capture instead of two). The log line
// names the files, the page's full size, the captured sizes and how long
// Chromium took, so a reader knows where the picture is cut. It returns the
// first file's path.
//
// The picture has one pixel per CSS pixel at every viewport: the page is
// laid out and painted at the viewport's own device scale (the phone's two
// device pixels per CSS pixel), and only the capture is scaled down. A
// capture at the phone's device scale is four times the pixels to
// rasterize and encode: the review queue's 390x17,468 CSS px page was a
// 780x34,936 JPEG that took Chromium 15-23 s, against 2.6-7.8 s at one
// pixel per CSS pixel (docs/testing.md, ci10a).
func (p *Page) Shot(step string) string {
	p.t.Helper()
	return p.shot(step, ShotMaxHeight)
}

// ShotFull is Shot without the height cap: one JPEG of the whole page,
// however tall. It is for a test whose picture must show the whole length
// of a page; no test needs one now. It costs several times a Shot on a long
// page: Chromium paints every CSS pixel of the page's height (a 1280x10,363
// page took 8.6-12.7 s of a loaded machine's CPU, a 5,700 px one 17-20 s at
// load 30; a Shot of either takes a few seconds), and the browser tests run
// two at a time on Chromium's CPU.
func (p *Page) ShotFull(step string) string {
	p.t.Helper()
	return p.shot(step, 0)
}

// shot saves the screenshots of Shot, capturing at most maxHeight CSS
// pixels from the top of the page (no cap when maxHeight is 0).
func (p *Page) shot(step string, maxHeight float64) string {
	p.t.Helper()
	dir := p.shotDir()
	start := time.Now()
	size := runStep(p, "screenshot "+step, layoutSize)
	top := clip{w: size.w, h: size.h}
	if maxHeight > 0 && size.h > maxHeight+size.screen {
		top.h = maxHeight
	}
	shots := []captured{runStep(p, "screenshot "+step, capture(p.vp, top))}
	end := clip{y: max(0, size.h-size.screen), w: size.w}
	end.h = size.h - end.y
	if top.h < size.h {
		shots = append(shots, runStep(p, "screenshot "+step+" (its last screen)", capture(p.vp, end)))
	}
	took := time.Since(start)
	base := p.shotBase(dir, step)
	paths := []string{base + ".jpg", base + "-end.jpg"}
	for i, s := range shots {
		if err := os.WriteFile(paths[i], s.data, 0o644); err != nil {
			p.t.Fatalf("screenshot %s: %v", step, err)
		}
		if s.woken {
			p.t.Logf("screenshot %s: Chromium drew no frame for the capture in %v; it was asked again after a moment's screencast", paths[i], captureStall)
		}
	}
	if len(shots) == 1 {
		p.t.Logf("screenshot: %s (%.0fx%.0f, the whole page, %d KB, %.1f s)", paths[0], size.w, size.h, len(shots[0].data)/1024, took.Seconds())
	} else {
		p.t.Logf("screenshot: %s (the top %.0fx%.0f of a %.0fx%.0f page, %d KB) and its last screen %s (%.0fx%.0f from y %.0f, %d KB), %.1f s",
			paths[0], top.w, top.h, size.w, size.h, len(shots[0].data)/1024, paths[1], end.w, end.h, end.y, len(shots[1].data)/1024, took.Seconds())
	}
	return paths[0]
}

// ShotSection saves a PNG of the first element sel (CSS) matches, at the
// viewport's device scale, as <NN>-<step>-<viewport>.png in the test's
// screenshot folder, logs its path and returns it: a picture of a part of
// a long page that Shot's capture leaves out (a form half-way down it).
func (p *Page) ShotSection(step, sel string) string {
	p.t.Helper()
	dir := p.shotDir()
	png := p.ShotOf(sel)
	path := p.shotBase(dir, step) + ".png"
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.t.Fatalf("screenshot %s: %v", step, err)
	}
	p.t.Logf("screenshot: %s (%s, %d KB)", path, sel, len(png)/1024)
	return path
}

// shotDir makes the test's screenshot folder, cleared of an earlier run on
// its first screenshot in this process, and returns it.
func (p *Page) shotDir() string {
	p.t.Helper()
	dir := ScreenshotDir(p.t)
	dirMu.Lock()
	if !cleaned[dir] {
		cleaned[dir] = true
		os.RemoveAll(dir)
	}
	dirMu.Unlock()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		p.t.Fatalf("screenshot folder: %v", err)
	}
	return dir
}

// shotBase is the path without extension of the page's next screenshot of
// step in dir: <NN>-<step>-<viewport>, NN counting the page's screenshots.
func (p *Page) shotBase(dir, step string) string {
	p.mu.Lock()
	p.shots++
	n := p.shots
	p.mu.Unlock()
	return filepath.Join(dir, fmt.Sprintf("%02d-%s-%s", n, unsafe.ReplaceAllString(step, "_"), p.vp.Name))
}

// runStep runs one Chromium action with the step timeout and returns its
// result, failing the test with what on error.
func runStep[T any](p *Page, what string, a chromedp.Action[T]) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, stepTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		p.t.Fatalf("browser (%s): %s: %v", p.vp.Name, what, err)
	}
	return v
}

// pageSize is a page's content size and the height of its visual viewport
// (one screen), in CSS pixels.
type pageSize struct {
	w, h, screen float64
}

// layoutSize reads the page's size from Chromium's layout metrics.
func layoutSize(ctx context.Context, t *chromedp.Target) (pageSize, error) {
	m, err := cdp.Call(ctx, t, page.GetLayoutMetrics, cdp.Empty{})
	if err != nil {
		return pageSize{}, err
	}
	if m.CSSContentSize == nil || m.CSSVisualViewport == nil {
		return pageSize{}, fmt.Errorf("no content or viewport size in the layout metrics")
	}
	return pageSize{
		w:      math.Ceil(m.CSSContentSize.Width),
		h:      math.Ceil(m.CSSContentSize.Height),
		screen: math.Ceil(m.CSSVisualViewport.ClientHeight),
	}, nil
}

// clip is a rectangle of the page in CSS pixels from its top left corner.
type clip struct {
	y, w, h float64
}

// captured is a capture's JPEG, and whether the compositor had to be woken
// for it (see capture).
type captured struct {
	data  []byte
	woken bool
}

// capture captures the rectangle c of the page (beyond the viewport, the
// scroll position left as it is) as a JPEG of quality shotQuality with one
// pixel per CSS pixel of vp.
func capture(vp Viewport, c clip) chromedp.Action[captured] {
	return func(ctx context.Context, t *chromedp.Target) (captured, error) {
		scale := 1.0
		if vp.Mobile && vp.Scale > 0 {
			scale = 1 / vp.Scale
		}
		q := int64(shotQuality)
		beyond, surface := true, true
		params := page.CaptureScreenshotParams{
			Format: page.CaptureScreenshotFormatJpeg, Quality: &q,
			CaptureBeyondViewport: &beyond, FromSurface: &surface,
			Clip: &page.Viewport{X: 0, Y: c.y, Width: c.w, Height: c.h, Scale: scale},
		}
		// Chromium answers a capture with the next frame its compositor
		// draws; a surface that has gone idle may draw none, and the capture
		// then waits (one did for the whole step timeout in CI, on a card
		// whose page had just settled). The first attempt waits captureStall;
		// then a short screencast makes the compositor draw and the capture
		// is asked once more, within the step's time.
		first, cancel := context.WithTimeout(ctx, captureStall)
		r, err := cdp.Call(first, t, page.CaptureScreenshot, params)
		cancel()
		if err == nil {
			return captured{data: r.Data}, nil
		}
		if !errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
			return captured{}, err
		}
		if err := wakeCompositor(ctx, t); err != nil {
			return captured{}, fmt.Errorf("the capture drew no frame in %v, and waking the compositor failed: %w", captureStall, err)
		}
		r, err = cdp.Call(ctx, t, page.CaptureScreenshot, params)
		if err != nil {
			return captured{}, fmt.Errorf("the capture drew no frame in %v, nor after waking the compositor: %w", captureStall, err)
		}
		return captured{r.Data, true}, nil
	}
}

// captureStall is how long a capture may wait for its frame before the
// compositor is woken and the capture asked again: a capture of the
// tallest page the tests shoot takes a few seconds on a loaded machine.
var captureStall = 20 * time.Second

// wakeCompositor makes the tab's compositor draw frames for a moment (a
// screencast started and stopped; its frames are not read), so that a
// capture waiting for a frame gets one.
func wakeCompositor(ctx context.Context, t *chromedp.Target) error {
	q := int64(10)
	if _, err := cdp.Call(ctx, t, page.StartScreencast, page.StartScreencastParams{
		Format: page.StartScreencastFormatJpeg, Quality: &q, MaxWidth: 64, MaxHeight: 64,
	}); err != nil {
		return err
	}
	select {
	case <-time.After(250 * time.Millisecond):
	case <-ctx.Done():
		return ctx.Err()
	}
	_, err := cdp.Call(ctx, t, page.StopScreencast, cdp.Empty{})
	return err
}

// ShotOf returns a PNG of the first element matching the CSS selector sel
// (for a test that compares how two states of an element look).
func (p *Page) ShotOf(sel string) []byte {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, stepTimeout)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS(sel), chromedp.NodeVisible))
	if err != nil {
		p.t.Fatalf("browser (%s): screenshot of %s: %v", p.vp.Name, sel, err)
	}
	return png
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
