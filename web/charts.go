package web

import (
	"fmt"
	"html/template"
	"strings"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// The listing page's two small charts are inline SVG written on the server:
// no script, and no style attribute (the page's CSP allows only the site's
// stylesheet), so their colours come from classes in static/style.css.

const (
	chartW, chartH         = 320, 120
	chartLeft, chartRight  = 28, 8
	chartTop, chartBottom  = 14, 22
	chartPlotW, chartPlotH = chartW - chartLeft - chartRight, chartH - chartTop - chartBottom
	chartLabelY            = chartH - 6
	chartDayShort          = "Mon Jan 2"
	chartDayAxis           = "Jan 2"
)

// svgText escapes s for SVG text and attribute values.
func svgText(s string) string { return template.HTMLEscapeString(s) }

// drChart draws the Domain Rating history as a line on a 0-100 scale, one
// point per reading placed by its date; "" when there are fewer than two
// readings (one reading has no history to draw).
func drChart(dr *domain.DomainRating) template.HTML {
	if dr == nil || len(dr.History) < 2 {
		return ""
	}
	first, err1 := time.Parse(time.DateOnly, dr.History[0].Date)
	last, err2 := time.Parse(time.DateOnly, dr.History[len(dr.History)-1].Date)
	if err1 != nil || err2 != nil || !last.After(first) {
		return ""
	}
	span := last.Sub(first).Seconds()
	x := func(d string) float64 {
		t, err := time.Parse(time.DateOnly, d)
		if err != nil {
			return chartLeft
		}
		return chartLeft + float64(chartPlotW)*t.Sub(first).Seconds()/span
	}
	y := func(v int) float64 { return chartTop + float64(chartPlotH)*(1-float64(min(max(v, 0), 100))/100) }
	var pts []string
	for _, p := range dr.History {
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(p.Date), y(p.Value)))
	}
	summary := fmt.Sprintf("Domain Rating from %d on %s to %d on %s, %d readings", dr.History[0].Value, formatDay(dr.History[0].Date),
		dr.Current, formatDay(dr.AsOf), len(dr.History))
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-label="%s"><title>%s</title>`,
		chartW, chartH, chartW, chartH, svgText(summary), svgText(summary))
	for _, v := range []int{0, 50, 100} { // the scale
		fmt.Fprintf(&b, `<line class="grid" x1="%d" y1="%.1f" x2="%d" y2="%.1f"/><text class="axis" x="%d" y="%.1f" text-anchor="end">%d</text>`,
			chartLeft, y(v), chartW-chartRight, y(v), chartLeft-4, y(v)+4, v)
	}
	fmt.Fprintf(&b, `<polyline class="line" points="%s"/>`, strings.Join(pts, " "))
	for _, p := range dr.History {
		fmt.Fprintf(&b, `<circle class="dot" cx="%.1f" cy="%.1f" r="2.5"><title>%s: %d</title></circle>`, x(p.Date), y(p.Value), svgText(formatDay(p.Date)), p.Value)
	}
	fmt.Fprintf(&b, `<text class="axis" x="%d" y="%d" text-anchor="start">%s</text><text class="axis" x="%d" y="%d" text-anchor="end">%s</text></svg>`,
		chartLeft, chartLabelY, svgText(first.Format(chartDayAxis)), chartW-chartRight, chartLabelY, svgText(last.Format(chartDayAxis)))
	return template.HTML(b.String()) //nolint:gosec // numbers and escaped text only
}

// votesChart draws the counted votes of each day of a launch week as bars,
// each labelled with its weekday and count; "" without days.
func votesChart(days []domain.VoteDay) template.HTML {
	if len(days) == 0 {
		return ""
	}
	top, total := 0, 0
	for _, d := range days {
		top, total = max(top, d.Votes), total+d.Votes
	}
	slot := float64(chartPlotW) / 7 // a whole week's width, even while it is under way
	barW := slot * 0.6
	var b strings.Builder
	var parts []string
	for _, d := range days {
		t, _ := time.Parse(time.DateOnly, d.Day)
		parts = append(parts, fmt.Sprintf("%s %d", t.Format("Mon"), d.Votes))
	}
	summary := fmt.Sprintf("Votes on each day of the launch week: %s (%s in all)", strings.Join(parts, ", "), plural(total, "vote"))
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-label="%s"><title>%s</title>`,
		chartW, chartH, chartW, chartH, svgText(summary), svgText(summary))
	base := float64(chartTop + chartPlotH)
	fmt.Fprintf(&b, `<line class="grid" x1="%d" y1="%.1f" x2="%d" y2="%.1f"/>`, chartLeft, base, chartW-chartRight, base)
	for i, d := range days {
		t, _ := time.Parse(time.DateOnly, d.Day)
		h := 0.0
		if top > 0 {
			h = float64(chartPlotH) * float64(d.Votes) / float64(top)
		}
		cx := float64(chartLeft) + slot*(float64(i)+0.5)
		fmt.Fprintf(&b, `<rect class="bar" x="%.1f" y="%.1f" width="%.1f" height="%.1f"><title>%s: %s</title></rect>`,
			cx-barW/2, base-h, barW, h, svgText(t.Format(chartDayShort)), svgText(plural(d.Votes, "vote")))
		fmt.Fprintf(&b, `<text class="value" x="%.1f" y="%.1f" text-anchor="middle">%d</text>`, cx, base-h-3, d.Votes)
		fmt.Fprintf(&b, `<text class="axis" x="%.1f" y="%d" text-anchor="middle">%s</text>`, cx, chartLabelY, t.Format("Mon"))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) //nolint:gosec // numbers and escaped text only
}

// plural writes a count with its noun: "1 vote", "1,204 votes"; many
// (optional) is the plural when it is not noun+"s".
func plural(n any, noun string, many ...string) string {
	one := false
	switch v := n.(type) {
	case int:
		one = v == 1
	case int64:
		one = v == 1
	}
	if !one {
		if len(many) > 0 {
			noun = many[0]
		} else {
			noun += "s"
		}
	}
	return formatNum(n) + " " + noun
}

// drChange says how the Domain Rating moved across its history in words:
// "up 5 since Sep 1, 2026", "unchanged since ...", or "" for one reading.
func drChange(dr *domain.DomainRating) string {
	if dr == nil || len(dr.History) < 2 {
		return ""
	}
	since := formatDay(dr.History[0].Date)
	switch {
	case dr.Change > 0:
		return fmt.Sprintf("up %d since %s", dr.Change, since)
	case dr.Change < 0:
		return fmt.Sprintf("down %d since %s", -dr.Change, since)
	}
	return "unchanged since " + since
}
