package web

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// The open-data export (docs/feeds.md "Open data"): the stored JSON
// document (domain.OpenDataExport, built weekly and on first request) and
// three CSV files written from it, so that every file holds the same build.

// openDataFiles are the export's files.
var openDataFiles = []string{"export.json", "listings.csv", "weeks.csv", "awards.csv"}

// routeOpenData registers the export's files.
func (h *handler) routeOpenData(mux *http.ServeMux) {
	mux.HandleFunc("GET /open-data/{file}", h.openData)
}

func (h *handler) openData(w http.ResponseWriter, r *http.Request) {
	file := r.PathValue("file")
	known := false
	for _, f := range openDataFiles {
		known = known || f == file
	}
	if !known {
		h.notFound(w, r)
		return
	}
	body, builtAt, err := h.svc.OpenDataExport(r.Context())
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	ctype := "application/json; charset=utf-8"
	if file != "export.json" {
		var doc domain.OpenData
		if err := json.Unmarshal(body, &doc); err != nil {
			h.log.Error("web: open data: stored export", "err", err)
			h.fail(w, r, domain.EInternal, "Internal error.")
			return
		}
		if body, err = openDataCSV(file, &doc); err != nil {
			h.log.Error("web: open data: csv", "file", file, "err", err)
			h.fail(w, r, domain.EInternal, "Internal error.")
			return
		}
		ctype = "text/csv; charset=utf-8; header=present"
	}
	hd := w.Header()
	hd.Set("Cache-Control", "public, max-age=3600")
	hd.Set("Link", `<`+domain.OpenDataLicenceURL+`>; rel="license"`)
	hd.Set("Content-Disposition", `attachment; filename="`+h.svc.SiteNow(r.Context()).Key+"-"+file+`"`)
	serveBody(w, r, ctype, builtAt, body)
}

// openDataCSV writes one table of doc as CSV with a header row.
func openDataCSV(file string, doc *domain.OpenData) ([]byte, error) {
	var rows [][]string
	itoa := strconv.Itoa
	switch file {
	case "listings.csv":
		rows = append(rows, []string{"slug", "name", "tagline", "website", "page_url", "status", "plan", "featured",
			"primary_category", "country", "stage", "pricing_model", "launch_week", "launched_at", "votes", "views", "followers"})
		for _, l := range doc.Listings {
			launched := ""
			if l.LaunchedAt != nil {
				launched = l.LaunchedAt.UTC().Format(time.RFC3339)
			}
			rows = append(rows, []string{l.Slug, l.Name, l.Tagline, l.Website, l.PageURL, l.Status, l.Plan, strconv.FormatBool(l.Featured),
				l.PrimaryCategory, l.Country, l.Stage, l.PricingModel, l.LaunchWeek, launched, itoa(l.Votes), itoa(l.Views), itoa(l.Followers)})
		}
	case "weeks.csv":
		rows = append(rows, []string{"week", "launches", "votes"})
		for _, wk := range doc.Weeks {
			rows = append(rows, []string{wk.Week, itoa(wk.Launches), itoa(wk.Votes)})
		}
	case "awards.csv":
		rows = append(rows, []string{"week", "rank", "title", "listing_slug", "listing_name", "votes"})
		for _, a := range doc.Awards {
			rows = append(rows, []string{a.Week, itoa(a.Rank), a.Title, a.ListingSlug, a.ListingName, itoa(a.Votes)})
		}
	}
	for _, row := range rows[1:] {
		for i, cell := range row {
			row[i] = noFormula(cell)
		}
	}
	var buf bytes.Buffer
	cw := csv.NewWriter(&buf)
	if err := cw.WriteAll(rows); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
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
