package console

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/launchdir/launchdir/domain"
	"golang.org/x/net/idna"
)

// Domain Rating imports (docs/console.md "Domain Rating
// and revenue"). An admin uploads a CSV export of an SEO provider on
// /admin/ratings (or runs "launchdir admin ratings import FILE --source
// NAME"). The whole file is validated first and kept as a pending import
// with its accepted and refused rows; nothing reaches domain_ratings until
// the admin confirms it. A confirmation adds the accepted readings, keyed
// by (domain, date, source): a reading of another date is never touched,
// the same reading again changes nothing, and a new value for the same
// domain, date and source replaces the old one (the provider corrected it).
// Readings belong to the domain, not to a listing: a domain no listing has
// yet is kept, and the listing that later gets that domain shows it (reads
// join domain_ratings on listings.domain).

// Bounds of a Domain Rating file.
const (
	// MaxRatingsFileBytes is the largest file accepted (1 MiB).
	MaxRatingsFileBytes = 1 << 20
	// MaxRatingsRows is the most data rows (after the header) a file may have.
	MaxRatingsRows = 5000
	// MaxRatingSource is the longest provider name.
	MaxRatingSource = 60
	// maxRatingFileName is the longest file name kept (longer ones are cut).
	maxRatingFileName = 200
	// maxRatingRaw is how much of a refused line is kept to show it.
	maxRatingRaw = 200
)

// Statuses of a rating import.
const (
	ImportPending   = "pending"
	ImportConfirmed = "confirmed"
	ImportDiscarded = "discarded"
)

// RatingRow is one data row of an import: accepted (Reason "") with its
// normalised domain, date and value, or refused with the reason.
type RatingRow struct {
	Line   int
	Domain string
	Date   string
	Value  int
	Reason string
	// Raw is the line as read (refused rows only), cut to 200 characters.
	Raw string
	// Listing is the name of the listing of this site with the domain, ""
	// when there is none yet; Stored the value already stored for the same
	// domain, date and source (nil: none). Both are filled when read back.
	Listing string
	Stored  *int
}

// Refused says whether the row was refused.
func (r RatingRow) Refused() bool { return r.Reason != "" }

// RatingImport is one upload with its rows.
type RatingImport struct {
	ID                        int64
	FileName, Source, Actor   string
	Status                    string
	Accepted, Refused         int
	Added, Updated, Unchanged int
	CreatedAt                 time.Time
	DecidedBy                 string
	DecidedAt                 *time.Time
	Rows                      []RatingRow
}

// RatingsStore keeps rating imports and writes their readings.
type RatingsStore interface {
	// CreateRatingImport stores imp (pending) with its rows and returns its id.
	CreateRatingImport(ctx context.Context, imp *RatingImport) (int64, error)
	// RatingImport returns one import of the site with its rows (Listing and
	// Stored filled); ENotFound when there is none.
	RatingImport(ctx context.Context, id int64) (*RatingImport, error)
	// RatingImports lists the site's latest imports, newest first, without rows.
	RatingImports(ctx context.Context, limit int) ([]RatingImport, error)
	// DecideRatingImport confirms (writing the accepted readings) or discards
	// a pending import, and writes the audit entry audit makes of the result,
	// in one transaction. EConflict when the import is not pending.
	DecideRatingImport(ctx context.Context, id int64, status, actor string, at time.Time, audit func(RatingImport) *AuditEntry) (*RatingImport, error)
}

// ratingsStore is s.Ratings; an error when it is not set.
func (s *Console) ratingsStore() (RatingsStore, error) {
	if s.Ratings != nil {
		return s.Ratings, nil
	}
	return nil, domain.Errorf(domain.EInternal, "rating imports are not configured")
}

// Column names of the common exports, lower case, by what they hold.
var (
	domainColumns = []string{"domain", "target", "url", "host", "site", "website"}
	ratingColumns = []string{"rating", "dr", "domain rating", "domain_rating", "domain-rating"}
	dateColumns   = []string{"date", "day"}
)

var (
	ratingSourceRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9 ._()-]*$`)
	hostLabelRe    = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`)
	ratingValueRe  = regexp.MustCompile(`^[0-9]{1,3}(\.0+)?$`)
)

// CheckRatingSource validates the provider's name, returning it trimmed.
func CheckRatingSource(src string) (string, error) {
	src = strings.TrimSpace(src)
	switch {
	case src == "":
		return "", domain.Invalid("source", "required", "Name the SEO provider the file comes from (source), e.g. ahrefs.")
	case utf8.RuneCountInString(src) > MaxRatingSource:
		return "", domain.Invalid("source", "maxLength", "The source is at most %d characters.", MaxRatingSource)
	case !ratingSourceRe.MatchString(src):
		return "", domain.Invalid("source", "pattern", "The source is letters, digits, spaces and . _ ( ) -, starting with a letter or digit.")
	}
	return src, nil
}

// RatingHost normalises the domain column of a row: a URL or a host, to
// the host as listings.domain keeps it (lower case, no www., no port, no
// trailing dot; an international name in its ASCII form).
func RatingHost(v string) (string, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return "", errors.New("the domain is empty")
	}
	h := v
	if strings.Contains(v, "://") {
		u, err := url.Parse(v)
		if err != nil || u.Host == "" {
			return "", fmt.Errorf("%q is not a URL or a host", v)
		}
		h = u.Host
	}
	h = strings.SplitN(strings.TrimPrefix(h, "//"), "/", 2)[0]
	if i := strings.LastIndexByte(h, ':'); i >= 0 {
		h = h[:i]
	}
	h = strings.TrimPrefix(strings.TrimSuffix(strings.ToLower(h), "."), "www.")
	if h == "" || strings.ContainsAny(h, " \t@?#[]") {
		return "", fmt.Errorf("%q is not a URL or a host", v)
	}
	a, err := idna.Lookup.ToASCII(h)
	if err != nil {
		return "", fmt.Errorf("%q is not a host name", h)
	}
	a = strings.TrimPrefix(strings.ToLower(a), "www.")
	if len(a) > 253 || !strings.Contains(a, ".") {
		return "", fmt.Errorf("%q is not a domain name (a host such as example.com)", h)
	}
	for _, l := range strings.Split(a, ".") {
		if !hostLabelRe.MatchString(l) {
			return "", fmt.Errorf("%q is not a domain name (a host such as example.com)", h)
		}
	}
	return a, nil
}

// ParseRatingsCSV reads a Domain Rating export and validates every row.
// It returns the rows (accepted and refused, by line), or an error about
// the whole file: larger than MaxRatingsFileBytes (ETooLarge), no header
// with a domain, a rating and a date column, more than MaxRatingsRows data
// rows, not CSV, no data row (EInvalid on field "file"). today is the last
// date a reading may have.
//
// The header names its columns in any order and case: domain, target, url,
// host, site or website; rating, dr or domain rating; date or day. Other
// columns are ignored. The separator is a comma, or a semicolon or a tab
// when the header has no comma. A rating is a whole number 0-100 ("45.0"
// is 45; "45.5" is refused); a date is YYYY-MM-DD, not after today. The
// same domain and date twice in a file refuses the second row.
func ParseRatingsCSV(r io.Reader, today time.Time) ([]RatingRow, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxRatingsFileBytes+1))
	if err != nil {
		return nil, domain.Invalid("file", "read", "The file could not be read: %v.", err)
	}
	if len(data) > MaxRatingsFileBytes {
		return nil, &domain.Error{Code: domain.ETooLarge, Message: "The file is larger than 1 MiB (1,048,576 bytes); split it.",
			Fields: []domain.FieldError{{Field: "file", Rule: "maxSize", Message: "The file is larger than 1 MiB; split it."}}}
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(data) {
		return nil, domain.Invalid("file", "encoding", "The file is not UTF-8 text; export it as CSV (UTF-8).")
	}
	first, _, _ := bufio.NewReader(bytes.NewReader(data)).ReadLine()
	cr := csv.NewReader(bytes.NewReader(data))
	cr.FieldsPerRecord, cr.LazyQuotes, cr.ReuseRecord = -1, true, false
	if !bytes.ContainsRune(first, ',') {
		if bytes.ContainsRune(first, ';') {
			cr.Comma = ';'
		} else if bytes.ContainsRune(first, '\t') {
			cr.Comma = '\t'
		}
	}
	header, err := cr.Read()
	if err == io.EOF {
		return nil, domain.Invalid("file", "required", "The file is empty; it needs a header row (domain, rating, date) and rows.")
	}
	if err != nil {
		return nil, domain.Invalid("file", "csv", "The file is not CSV: %v.", err)
	}
	cols := map[string]int{}
	for role, names := range map[string][]string{"domain": domainColumns, "rating": ratingColumns, "date": dateColumns} {
		best := len(names)
		for i, h := range header {
			h = strings.ToLower(strings.Join(strings.Fields(h), " "))
			for k, n := range names {
				if h == n && k < best {
					best, cols[role] = k, i
				}
			}
		}
	}
	var missing []string
	for _, role := range []string{"domain", "rating", "date"} {
		if _, ok := cols[role]; !ok {
			missing = append(missing, role)
		}
	}
	if len(missing) > 0 {
		return nil, domain.Invalid("file", "header", "The first row must name the columns; no %s column was found (accepted names: domain, target or url; rating, dr or domain rating; date).", strings.Join(missing, " or "))
	}
	var rows []RatingRow
	seen := map[string]int{}
	lastDay := today.UTC().Format(domain.DateLayout)
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, domain.Invalid("file", "csv", "The file is not CSV: %v.", err)
		}
		if len(rows) == MaxRatingsRows {
			return nil, domain.Invalid("file", "maxRows", "The file has more than %d rows; split it.", MaxRatingsRows)
		}
		line, _ := cr.FieldPos(0)
		row := RatingRow{Line: line}
		field := func(role string) string {
			if i := cols[role]; i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		row.Reason = func() string {
			if len(rec) <= max(cols["domain"], cols["rating"], cols["date"]) {
				return "the row has fewer columns than the header"
			}
			h, err := RatingHost(field("domain"))
			if err != nil {
				return "domain: " + err.Error()
			}
			row.Domain = h
			v := field("rating")
			if !ratingValueRe.MatchString(v) {
				return fmt.Sprintf("rating: %q is not a whole number 0-100", v)
			}
			n, _ := strconv.Atoi(strings.SplitN(v, ".", 2)[0])
			if n > 100 {
				return fmt.Sprintf("rating: %d is above 100", n)
			}
			row.Value = n
			d := field("date")
			t, err := time.Parse(domain.DateLayout, d)
			if err != nil || t.Format(domain.DateLayout) != d {
				return fmt.Sprintf("date: %q is not a date YYYY-MM-DD", d)
			}
			if d > lastDay {
				return fmt.Sprintf("date: %s is after today (%s)", d, lastDay)
			}
			row.Date = d
			key := row.Domain + " " + row.Date
			if l, dup := seen[key]; dup {
				return fmt.Sprintf("the same domain and date as line %d", l)
			}
			seen[key] = line
			return ""
		}()
		if row.Refused() {
			raw := strings.Join(rec, string(cr.Comma))
			if utf8.RuneCountInString(raw) > maxRatingRaw {
				raw = string([]rune(raw)[:maxRatingRaw]) + "…"
			}
			row.Domain, row.Date, row.Value, row.Raw = "", "", 0, raw
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return nil, domain.Invalid("file", "required", "The file has a header but no rows.")
	}
	return rows, nil
}

// PreviewRatingImport validates an uploaded file and keeps it as a pending
// import (nothing is written to domain_ratings). A file refused as a whole
// keeps nothing.
func (s *Console) PreviewRatingImport(ctx context.Context, actor, fileName, source string, body io.Reader) (*RatingImport, error) {
	st, err := s.ratingsStore()
	if err != nil {
		return nil, err
	}
	src, err := CheckRatingSource(source)
	if err != nil {
		return nil, err
	}
	rows, err := ParseRatingsCSV(body, s.now())
	if err != nil {
		return nil, err
	}
	name := strings.TrimSpace(path.Base(strings.ReplaceAll(fileName, `\`, "/")))
	if name == "." || name == "/" || name == "" {
		name = "ratings.csv"
	}
	if utf8.RuneCountInString(name) > maxRatingFileName {
		name = string([]rune(name)[:maxRatingFileName])
	}
	imp := &RatingImport{FileName: name, Source: src, Actor: actor, Status: ImportPending, CreatedAt: s.now(), Rows: rows}
	for _, r := range rows {
		if r.Refused() {
			imp.Refused++
		} else {
			imp.Accepted++
		}
	}
	if imp.ID, err = st.CreateRatingImport(ctx, imp); err != nil {
		return nil, err
	}
	return imp, nil
}

// RatingImport returns one import with its rows.
func (s *Console) RatingImport(ctx context.Context, id int64) (*RatingImport, error) {
	st, err := s.ratingsStore()
	if err != nil {
		return nil, err
	}
	return st.RatingImport(ctx, id)
}

// RatingImports lists the latest imports, newest first.
func (s *Console) RatingImports(ctx context.Context, limit int) ([]RatingImport, error) {
	st, err := s.ratingsStore()
	if err != nil {
		return nil, err
	}
	return st.RatingImports(ctx, limit)
}

// ConfirmRatingImport writes a pending import's accepted readings and the
// audit entry rating.import with its counts. EConflict when it was
// confirmed or discarded already; EInvalid when it has no accepted row.
func (s *Console) ConfirmRatingImport(ctx context.Context, actor string, id int64) (*RatingImport, error) {
	return s.decideRatingImport(ctx, actor, id, ImportConfirmed)
}

// DiscardRatingImport drops a pending import without writing a reading.
func (s *Console) DiscardRatingImport(ctx context.Context, actor string, id int64) (*RatingImport, error) {
	return s.decideRatingImport(ctx, actor, id, ImportDiscarded)
}

func (s *Console) decideRatingImport(ctx context.Context, actor string, id int64, status string) (*RatingImport, error) {
	st, err := s.ratingsStore()
	if err != nil {
		return nil, err
	}
	if status == ImportConfirmed {
		imp, err := st.RatingImport(ctx, id)
		if err != nil {
			return nil, err
		}
		if imp.Status == ImportPending && imp.Accepted == 0 {
			return nil, domain.Invalid("import", "accepted", "Import #%d has no accepted row; there is nothing to store. Discard it and upload a corrected file.", id)
		}
	}
	return st.DecideRatingImport(ctx, id, status, actor, s.now(), func(imp RatingImport) *AuditEntry {
		if status != ImportConfirmed {
			return nil
		}
		e := s.auditEntry(actor, "rating.import", fmt.Sprintf("import #%d %s", imp.ID, imp.FileName), nil, map[string]any{
			"file": imp.FileName, "source": imp.Source, "accepted": imp.Accepted, "refused": imp.Refused,
			"added": imp.Added, "updated": imp.Updated, "unchanged": imp.Unchanged})
		return &e
	})
}

// ImportRatings is the command line's import: validate, then (unless
// dryRun) confirm at once. The returned import has its rows either way.
func (s *Console) ImportRatings(ctx context.Context, actor, fileName, source string, body io.Reader, dryRun bool) (*RatingImport, error) {
	imp, err := s.PreviewRatingImport(ctx, actor, fileName, source, body)
	if err != nil {
		return nil, err
	}
	rows := imp.Rows
	if dryRun || imp.Accepted == 0 {
		if _, err := s.DiscardRatingImport(ctx, actor, imp.ID); err != nil {
			return nil, err
		}
		imp.Status = ImportDiscarded
		if !dryRun {
			return imp, domain.Invalid("file", "accepted", "No row of the file was accepted; nothing was stored.")
		}
		return imp, nil
	}
	done, err := s.ConfirmRatingImport(ctx, actor, imp.ID)
	if err != nil {
		return nil, err
	}
	done.Rows = rows
	return done, nil
}
