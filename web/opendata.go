package web

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// The open-data export (docs/feeds.md "Open data"): the stored JSON
// document (domain.OpenDataExport, built weekly and on first request) and
// three CSV files written from it, so that every file holds the same build;
// the files of the latest build are kept on disk (openDataCache).

// openDataFiles are the export's files.
var openDataFiles = []string{"export.json", "listings.csv", "weeks.csv", "awards.csv"}

// routeOpenData registers the export's files.
func (h *handler) routeOpenData(mux *http.ServeMux) {
	mux.HandleFunc("GET /open-data/{file}", h.openData)
}

func (h *handler) openData(w http.ResponseWriter, r *http.Request) {
	file := r.PathValue("file")
	if !slices.Contains(openDataFiles, file) {
		h.notFound(w, r)
		return
	}
	b, err := h.exportFiles.acquire(r.Context(), h.svc)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	defer h.exportFiles.release(b)
	f := b.files[file]
	ctype := "application/json; charset=utf-8"
	if file != "export.json" {
		ctype = "text/csv; charset=utf-8; header=present"
	}
	hd := w.Header()
	hd.Set("Cache-Control", "public, max-age=3600")
	hd.Set("Link", `<`+domain.OpenDataLicenceURL+`>; rel="license"`)
	hd.Set("Content-Disposition", `attachment; filename="`+h.svc.SiteNow(r.Context()).Key+"-"+file+`"`)
	hd.Set("ETag", f.etag)
	hd.Set("Content-Type", ctype)
	http.ServeContent(w, r, "", b.at, io.NewSectionReader(f.f, 0, f.size))
}

// openDataCache keeps the files of the latest export this process served,
// each written once per build into a temporary file that is removed from
// its folder at once (the open descriptor keeps it; nothing is left behind
// when the process ends). A request asks the store only for the build time
// and reads its file from disk (http.ServeContent: Range and conditional
// requests), so serving the 59 MB document of 100,000 listings allocates a
// few kilobytes instead of copying, hashing and, for a CSV file, decoding
// the whole document each time (TestOpenData_RequestHeap, docs/feeds.md).
type openDataCache struct {
	mu    sync.Mutex
	build *openDataBuild
}

// openDataBuild is one build's files.
type openDataBuild struct {
	at    time.Time
	files map[string]openDataFile
	// users counts the requests reading the files; stale says a newer build
	// replaced this one, whose files are closed when the last user is done.
	users int
	stale bool
}

// openDataFile is one file of a build: its descriptor, size and ETag.
type openDataFile struct {
	f    *os.File
	size int64
	etag string
}

// acquire returns the files of the latest build, writing them first when
// the store holds a newer build than the cached one (or none is cached);
// release them after the response.
func (c *openDataCache) acquire(ctx context.Context, svc *domain.Service) (*openDataBuild, error) {
	at, err := svc.OpenDataBuiltAt(ctx)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.build == nil || !c.build.at.Equal(at) {
		body, at, err := svc.OpenDataExport(ctx)
		if err != nil {
			return nil, err
		}
		b, err := writeOpenDataFiles(at, body)
		if err != nil {
			return nil, err
		}
		if old := c.build; old != nil {
			old.stale = true
			if old.users == 0 {
				old.close()
			}
		}
		c.build = b
	}
	c.build.users++
	return c.build, nil
}

// release ends a request's use of b.
func (c *openDataCache) release(b *openDataBuild) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if b.users--; b.users == 0 && b.stale {
		b.close()
	}
}

func (b *openDataBuild) close() {
	for _, f := range b.files {
		f.f.Close()
	}
}

// writeOpenDataFiles writes the stored JSON document body, built at at, and
// the CSV files read from it (one pass, listing by listing) into temporary
// files.
func writeOpenDataFiles(at time.Time, body []byte) (b *openDataBuild, err error) {
	b = &openDataBuild{at: at, files: map[string]openDataFile{}}
	defer func() {
		if err != nil {
			b.close()
		}
	}()
	outs := map[string]*hashedFile{}
	for _, name := range openDataFiles {
		f, err := os.CreateTemp("", "launchdir-open-data-*-"+name)
		if err != nil {
			return nil, err
		}
		os.Remove(f.Name()) // the descriptor keeps it
		b.files[name] = openDataFile{f: f}
		outs[name] = newHashedFile(f)
	}
	if _, err := outs["export.json"].Write(body); err != nil {
		return nil, err
	}
	csvs := map[string]*csv.Writer{}
	for name, o := range outs {
		if name != "export.json" {
			csvs[name] = csv.NewWriter(o)
		}
	}
	if err := writeOpenDataCSVs(bytes.NewReader(body), csvs); err != nil {
		return nil, fmt.Errorf("web: open data: csv: %w", err)
	}
	for name, o := range outs {
		size, etag, err := o.finish()
		if err != nil {
			return nil, err
		}
		b.files[name] = openDataFile{f: b.files[name].f, size: size, etag: etag}
	}
	return b, nil
}

// hashedFile buffers writes to a file and hashes them for its ETag.
type hashedFile struct {
	w    *bufio.Writer
	sum  hash.Hash
	size int64
}

func newHashedFile(f *os.File) *hashedFile {
	h := &hashedFile{sum: sha256.New()}
	h.w = bufio.NewWriterSize(io.MultiWriter(f, h.sum), 64<<10)
	return h
}

func (h *hashedFile) Write(p []byte) (int, error) {
	n, err := h.w.Write(p)
	h.size += int64(n)
	return n, err
}

// finish flushes the file and returns its size and ETag (as serveBody's:
// the first 16 bytes of its SHA-256 in hex).
func (h *hashedFile) finish() (int64, string, error) {
	if err := h.w.Flush(); err != nil {
		return 0, "", err
	}
	return h.size, `"` + hex.EncodeToString(h.sum.Sum(nil)[:16]) + `"`, nil
}

// writeOpenDataCSVs reads the export's JSON document from r element by
// element (never the whole document at once) and writes each table to its
// CSV writer in csvs (by file name) with a header row.
func writeOpenDataCSVs(r io.Reader, csvs map[string]*csv.Writer) error {
	for name, w := range csvs {
		if err := w.Write(openDataHeaders[name]); err != nil {
			return err
		}
	}
	dec := json.NewDecoder(r)
	if err := expectDelim(dec, '{'); err != nil {
		return err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case "listings":
			err = eachRow(dec, csvs["listings.csv"], listingRow)
		case "weeks":
			err = eachRow(dec, csvs["weeks.csv"], func(wk *domain.OpenWeek) []string {
				return []string{wk.Week, strconv.Itoa(wk.Launches), strconv.Itoa(wk.Votes)}
			})
		case "awards":
			err = eachRow(dec, csvs["awards.csv"], func(a *domain.OpenAward) []string {
				return []string{a.Week, strconv.Itoa(a.Rank), a.Title, a.ListingSlug, a.ListingName, strconv.Itoa(a.Votes)}
			})
		default:
			var skip json.RawMessage
			err = dec.Decode(&skip)
		}
		if err != nil {
			return err
		}
	}
	if err := expectDelim(dec, '}'); err != nil {
		return err
	}
	for _, w := range csvs {
		if w.Flush(); w.Error() != nil {
			return w.Error()
		}
	}
	return nil
}

// openDataHeaders are the CSV files' header rows.
var openDataHeaders = map[string][]string{
	"listings.csv": {"slug", "name", "tagline", "website", "page_url", "status", "plan", "featured",
		"primary_category", "country", "stage", "pricing_model", "launch_week", "launched_at", "votes", "views", "followers"},
	"weeks.csv":  {"week", "launches", "votes"},
	"awards.csv": {"week", "rank", "title", "listing_slug", "listing_name", "votes"},
}

func listingRow(l *domain.OpenListing) []string {
	launched := ""
	if l.LaunchedAt != nil {
		launched = l.LaunchedAt.UTC().Format(time.RFC3339)
	}
	itoa := strconv.Itoa
	return []string{l.Slug, l.Name, l.Tagline, l.Website, l.PageURL, l.Status, l.Plan, strconv.FormatBool(l.Featured),
		l.PrimaryCategory, l.Country, l.Stage, l.PricingModel, l.LaunchWeek, launched, itoa(l.Votes), itoa(l.Views), itoa(l.Followers)}
}

// eachRow decodes the JSON array (or null) dec is at, one element at a
// time, and writes each element's row to w (nil: the table is not wanted),
// every cell through noFormula.
func eachRow[T any](dec *json.Decoder, w *csv.Writer, row func(*T) []string) error {
	tok, err := dec.Token()
	if err != nil || tok == nil {
		return err
	}
	if tok != json.Delim('[') {
		return fmt.Errorf("want [, found %v", tok)
	}
	for dec.More() {
		var v T
		if err := dec.Decode(&v); err != nil {
			return err
		}
		if w == nil {
			continue
		}
		cells := row(&v)
		for i, cell := range cells {
			cells[i] = noFormula(cell)
		}
		if err := w.Write(cells); err != nil {
			return err
		}
	}
	return expectDelim(dec, ']')
}

// expectDelim reads the next token of dec, which must be the delimiter d.
func expectDelim(dec *json.Decoder, d json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != d {
		return fmt.Errorf("want %v, found %v", d, tok)
	}
	return nil
}

// noFormula writes a cell a spreadsheet would run as a formula (it starts
// with =, +, -, @, a tab or a carriage return; OWASP "CSV injection") with a
// leading apostrophe, so names and taglines makers wrote open as text. The
// JSON file keeps every value as it is.
func noFormula(cell string) string {
	if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
		return "'" + cell
	}
	return cell
}
