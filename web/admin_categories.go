package web

import (
	"errors"
	"html/template"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
	"github.com/launchdir/launchdir/internal/problem"
	"github.com/launchdir/launchdir/web/shell"
)

// Categories on the console (/admin/categories, admins only;
// docs/console.md "Categories"): the tree with a create form, and one page
// per category to rename it, move it, describe it, edit its comparison
// attributes and merge it into another. A refused form shows each problem
// next to its field with what was typed, and changes nothing.

// categoryFAQRows is how many empty FAQ rows the describe form offers.
const categoryFAQRows = 2

// categoriesPage is the data of admin_categories.html.
type categoriesPage struct {
	Email string
	Tree  []console.AdminCategory
	// A refused create form: its values and problems by field.
	Name, Slug string
	Parent     int64
	Problem    string
	Problems   map[string]string
	NameMax    int
}

// categoryPage is the data of admin_category.html.
type categoryAdminPage struct {
	Email string
	C     *console.AdminCategory
	// Parents are the categories it may move under (not itself nor its
	// subcategories); Targets those it may merge into.
	Parents, Targets []console.AdminCategory
	PageURL          string
	// Form names the refused form ("rename", "move", "describe",
	// "attributes", "merge"); Problem says why, Problems by field.
	Form, Problem string
	Problems      map[string]string
	// The values the forms show: the category's, or what was typed in the
	// refused form.
	Name, Slug, Position, Description string
	Parent, Target                    int64
	FAQs                              []categoryFAQRow
	Attrs                             []attrRow
	// Done says what the last change did ("renamed", "merged 3 listings").
	Done string
	// Bounds for the page.
	NameMax, DescriptionMax, FAQsMax, QuestionMax, AnswerMax, AttrsMax, KeyMax, LabelMax, PositionMax, DepthMax int
}

// categoryFAQRow is one FAQ on a category's describe form.
type categoryFAQRow struct {
	N                                  int
	Question, Answer                   string
	QuestionProblem, AnswerProblem     string
	QuestionField, AnswerField, Prefix string
}

// attrRow is one comparison attribute on the attributes form.
type attrRow struct {
	N                                    int
	Key, Label, Position                 string
	New, Remove                          bool
	KeyProblem, LabelProblem, PosProblem string
}

// parseCategoryPages parses the templates of routeCategories's pages (pageSet).
func parseCategoryPages(pages map[string]*template.Template) {
	t := template.Must(shell.Layout().Funcs(funcs).ParseFS(templateFS, "templates/parts.html"))
	for _, name := range []string{"admin_categories", "admin_category"} {
		pages[name] = template.Must(template.Must(t.Clone()).ParseFS(templateFS, "templates/"+name+".html"))
	}
}

// routeCategories registers the category pages.
func (h *handler) routeCategories(mux *http.ServeMux) {
	mux.Handle("GET /admin/categories", h.adminRoute(console.RoleAdmin, false, h.categoriesHome))
	mux.Handle("POST /admin/categories", h.adminRoute(console.RoleAdmin, true, h.categoryCreate))
	mux.Handle("GET /admin/categories/{id}", h.adminRoute(console.RoleAdmin, false, h.categoryHome))
	mux.Handle("POST /admin/categories/{id}/rename", h.adminRoute(console.RoleAdmin, true, h.categoryRename))
	mux.Handle("POST /admin/categories/{id}/move", h.adminRoute(console.RoleAdmin, true, h.categoryMove))
	mux.Handle("POST /admin/categories/{id}/describe", h.adminRoute(console.RoleAdmin, true, h.categoryDescribe))
	mux.Handle("POST /admin/categories/{id}/attributes", h.adminRoute(console.RoleAdmin, true, h.categoryAttributes))
	mux.Handle("POST /admin/categories/{id}/merge", h.adminRoute(console.RoleAdmin, true, h.categoryMerge))
}

// fieldProblems turns a refusal into problems by field (the first of
// each); ok is false when err is no refusal (a not found or internal error
// is shown as its own page).
func fieldProblems(err error) (msg string, problems map[string]string, status int, ok bool) {
	var de *domain.Error
	if !errors.As(err, &de) || de.Code == domain.EInternal || de.Code == domain.ENotFound {
		return "", nil, 0, false
	}
	return de.Message, firstMessages(de), problem.Status(de.Code), true
}

// categoriesHome is GET /admin/categories.
func (h *handler) categoriesHome(w http.ResponseWriter, r *http.Request, email string) {
	h.showCategories(w, r, email, statusOK, &categoriesPage{})
}

func (h *handler) showCategories(w http.ResponseWriter, r *http.Request, email string, status int, p *categoriesPage) {
	tree, err := h.console.CategoryTree(r.Context())
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	p.Email, p.Tree, p.NameMax = email, tree, console.CategoryNameMax
	h.render(w, r, status, "admin_categories", "Categories", "", p)
}

// categoryCreate is POST /admin/categories (name, slug, parent).
func (h *handler) categoryCreate(w http.ResponseWriter, r *http.Request, email string) {
	in := console.CategoryInput{Name: r.PostForm.Get("name"), Slug: r.PostForm.Get("slug")}
	in.ParentID, _ = strconv.ParseInt(r.PostForm.Get("parent"), 10, 64)
	id, err := h.console.CreateCategory(r.Context(), email, in)
	if err != nil {
		msg, problems, status, ok := fieldProblems(err)
		if !ok {
			h.serviceError(w, r, err)
			return
		}
		h.showCategories(w, r, email, status, &categoriesPage{Name: in.Name, Slug: in.Slug, Parent: in.ParentID,
			Problem: "Nothing was created: " + msg, Problems: problems})
		return
	}
	h.log.Info("web: admin created a category", "admin", email, "category", id)
	http.Redirect(w, r, "/admin/categories/"+strconv.FormatInt(id, 10)+"?done=created#done", statusSeeOther)
}

// categoryID is the {id} of the request, false (after a 404 page) when it
// is not a category id.
func (h *handler) categoryID(w http.ResponseWriter, r *http.Request) (int64, bool) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id < 1 {
		h.notFound(w, r)
		return 0, false
	}
	return id, true
}

// categoryDone are the messages of ?done=. A change's redirect ends in
// #done (the notice), so that the page does not keep the #form fragment of
// the form's action and opens at the top.
var categoryDone = map[string]string{
	"created": "Created.", "renamed": "Renamed; the old address leads here.", "moved": "Moved.",
	"described": "Description and FAQs saved.", "attributes": "Comparison attributes saved.",
}

// categoryHome is GET /admin/categories/{id}.
func (h *handler) categoryHome(w http.ResponseWriter, r *http.Request, email string) {
	id, ok := h.categoryID(w, r)
	if !ok {
		return
	}
	p := &categoryAdminPage{Done: categoryDone[r.URL.Query().Get("done")]}
	if n := r.URL.Query().Get("merged"); n != "" {
		if _, err := strconv.Atoi(n); err == nil {
			p.Done = "Merged: " + n + " listing link(s) moved here; the merged category's address leads here."
		}
	}
	h.showCategory(w, r, email, id, statusOK, p)
}

// showCategory renders a category's page; p carries a refused form (its
// Form, problems and typed values), which win over the stored values.
func (h *handler) showCategory(w http.ResponseWriter, r *http.Request, email string, id int64, status int, p *categoryAdminPage) {
	c, err := h.console.AdminCategory(r.Context(), id)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	tree, err := h.console.CategoryTree(r.Context())
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	p.Email, p.C, p.PageURL = email, c, h.svc.Site.CategoryPageURL(c.Slug)
	below := map[int64]bool{id: true}
	for _, t := range tree { // tree order: a parent comes before its subcategories
		if below[t.ParentID] {
			below[t.ID] = true
		}
	}
	for _, t := range tree {
		if !below[t.ID] {
			p.Parents = append(p.Parents, t)
		}
		if t.ID != id {
			p.Targets = append(p.Targets, t)
		}
	}
	if p.Form != "rename" {
		p.Name, p.Slug = c.Name, c.Slug
	}
	if p.Form != "move" {
		p.Parent, p.Position = c.ParentID, strconv.Itoa(c.Position)
	}
	if p.Form != "describe" {
		p.Description = c.Description
		for _, f := range c.FAQs {
			p.FAQs = append(p.FAQs, categoryFAQRow{Question: f.Question, Answer: f.Answer})
		}
		for range categoryFAQRows {
			p.FAQs = append(p.FAQs, categoryFAQRow{})
		}
	}
	for i := range p.FAQs {
		f := &p.FAQs[i]
		f.N = i + 1
		f.QuestionField, f.AnswerField = "faqs["+strconv.Itoa(i)+"].question", "faqs["+strconv.Itoa(i)+"].answer"
		f.QuestionProblem, f.AnswerProblem = p.Problems[f.QuestionField], p.Problems[f.AnswerField]
	}
	if p.Form != "attributes" {
		for i, a := range c.Attributes {
			p.Attrs = append(p.Attrs, attrRow{Key: a.Key, Label: a.Label, Position: strconv.Itoa(i + 1)})
		}
		p.Attrs = append(p.Attrs, attrRow{New: true, Position: strconv.Itoa(len(c.Attributes) + 1)})
	}
	for i := range p.Attrs {
		p.Attrs[i].N = i + 1
	}
	p.NameMax, p.DescriptionMax, p.FAQsMax = console.CategoryNameMax, console.CategoryDescriptionMax, console.CategoryFAQsMax
	p.QuestionMax, p.AnswerMax, p.AttrsMax = console.CategoryFAQQuestionMax, console.CategoryFAQAnswerMax, console.CategoryAttributesMax
	p.KeyMax, p.LabelMax, p.PositionMax, p.DepthMax = console.AttributeKeyMax, console.AttributeLabelMax, console.CategoryPositionMax, console.CategoryDepthMax
	h.render(w, r, status, "admin_category", c.Name+" (category)", "", p)
}

// categoryRefused shows the category's page with form's refusal, or the
// error's own page when it is no refusal.
func (h *handler) categoryRefused(w http.ResponseWriter, r *http.Request, email string, id int64, form string, err error, p *categoryAdminPage) {
	msg, problems, status, ok := fieldProblems(err)
	if !ok {
		h.serviceError(w, r, err)
		return
	}
	p.Form, p.Problem, p.Problems = form, "Nothing was changed: "+msg, problems
	h.showCategory(w, r, email, id, status, p)
}

// categoryRename is POST /admin/categories/{id}/rename (name, slug).
func (h *handler) categoryRename(w http.ResponseWriter, r *http.Request, email string) {
	id, ok := h.categoryID(w, r)
	if !ok {
		return
	}
	name, slug := r.PostForm.Get("name"), r.PostForm.Get("slug")
	if err := h.console.RenameCategory(r.Context(), email, id, name, slug); err != nil {
		h.categoryRefused(w, r, email, id, "rename", err, &categoryAdminPage{Name: name, Slug: slug})
		return
	}
	h.log.Info("web: admin renamed a category", "admin", email, "category", id)
	http.Redirect(w, r, "/admin/categories/"+strconv.FormatInt(id, 10)+"?done=renamed#done", statusSeeOther)
}

// categoryMove is POST /admin/categories/{id}/move (parent, position).
func (h *handler) categoryMove(w http.ResponseWriter, r *http.Request, email string) {
	id, ok := h.categoryID(w, r)
	if !ok {
		return
	}
	p := &categoryAdminPage{Position: strings.TrimSpace(r.PostForm.Get("position"))}
	parent, err := strconv.ParseInt(r.PostForm.Get("parent"), 10, 64)
	if err != nil || parent < 0 {
		parent = -1
	}
	p.Parent = parent
	position, perr := strconv.Atoi(p.Position)
	switch {
	case parent < 0:
		err = domain.Invalid("parent", "type", "Choose where the category goes: the top level or a category.")
	case perr != nil:
		err = domain.Invalid("position", "type", "The position is a whole number from 0 to %d; %q is not one.", console.CategoryPositionMax, p.Position)
	default:
		err = h.console.MoveCategory(r.Context(), email, id, parent, position)
	}
	if err != nil {
		h.categoryRefused(w, r, email, id, "move", err, p)
		return
	}
	h.log.Info("web: admin moved a category", "admin", email, "category", id)
	http.Redirect(w, r, "/admin/categories/"+strconv.FormatInt(id, 10)+"?done=moved#done", statusSeeOther)
}

// categoryDescribe is POST /admin/categories/{id}/describe (description,
// then question and answer once per FAQ row, in order).
func (h *handler) categoryDescribe(w http.ResponseWriter, r *http.Request, email string) {
	id, ok := h.categoryID(w, r)
	if !ok {
		return
	}
	qs, as := r.PostForm["question"], r.PostForm["answer"]
	p := &categoryAdminPage{Description: r.PostForm.Get("description")}
	var faqs []domain.FAQ
	for i := 0; i < max(len(qs), len(as)); i++ {
		var f domain.FAQ
		if i < len(qs) {
			f.Question = qs[i]
		}
		if i < len(as) {
			f.Answer = as[i]
		}
		faqs = append(faqs, f)
		p.FAQs = append(p.FAQs, categoryFAQRow{Question: f.Question, Answer: f.Answer})
	}
	if err := h.console.DescribeCategory(r.Context(), email, id, p.Description, faqs); err != nil {
		h.categoryRefused(w, r, email, id, "describe", err, p)
		return
	}
	h.log.Info("web: admin described a category", "admin", email, "category", id)
	http.Redirect(w, r, "/admin/categories/"+strconv.FormatInt(id, 10)+"?done=described#done", statusSeeOther)
}

// categoryAttributes is POST /admin/categories/{id}/attributes: key, label
// and position once per row, in order, and remove once per key to remove.
// Rows are kept in the order of their positions (then as sent); a row with
// neither key nor label is ignored (the empty row for a new attribute).
func (h *handler) categoryAttributes(w http.ResponseWriter, r *http.Request, email string) {
	id, ok := h.categoryID(w, r)
	if !ok {
		return
	}
	keys, labels, positions, remove := r.PostForm["key"], r.PostForm["label"], r.PostForm["position"], r.PostForm["remove"]
	at := func(list []string, i int) string {
		if i < len(list) {
			return list[i]
		}
		return ""
	}
	type sent struct {
		row attrRow
		pos int
	}
	var rows []sent
	bad := map[string]string{}
	for i := 0; i < max(len(keys), len(labels)); i++ {
		row := attrRow{Key: strings.TrimSpace(at(keys, i)), Label: at(labels, i), Position: strings.TrimSpace(at(positions, i))}
		if row.Key == "" && strings.TrimSpace(row.Label) == "" {
			continue
		}
		row.Remove = slices.Contains(remove, row.Key)
		pos, err := strconv.Atoi(row.Position)
		if row.Position != "" && (err != nil || pos < 0 || pos > console.CategoryPositionMax) {
			row.PosProblem = "The position is a whole number from 0 to " + strconv.Itoa(console.CategoryPositionMax) + "."
			bad["position"] = row.PosProblem
		}
		if row.Position == "" {
			pos = console.CategoryPositionMax + 1 // after every numbered row
		}
		rows = append(rows, sent{row, pos})
	}
	slices.SortStableFunc(rows, func(a, b sent) int { return a.pos - b.pos })
	p := &categoryAdminPage{}
	var attrs []domain.Attribute
	for _, s := range rows {
		if !s.row.Remove {
			attrs = append(attrs, domain.Attribute{Key: s.row.Key, Label: s.row.Label})
		}
	}
	var err error
	if len(bad) > 0 {
		err = domain.Invalid("position", "range", "%s", bad["position"])
	} else {
		err = h.console.SetCategoryAttributes(r.Context(), email, id, attrs)
	}
	if err != nil {
		// The rows as sent, problems on the kept rows (the domain numbers
		// them in the order of attrs).
		_, problems, _, _ := fieldProblems(err)
		k := 0
		for _, s := range rows {
			row := s.row
			if !row.Remove {
				row.KeyProblem = problems["attributes["+strconv.Itoa(k)+"].key"]
				row.LabelProblem = problems["attributes["+strconv.Itoa(k)+"].label"]
				k++
			}
			p.Attrs = append(p.Attrs, row)
		}
		p.Attrs = append(p.Attrs, attrRow{New: true})
		h.categoryRefused(w, r, email, id, "attributes", err, p)
		return
	}
	h.log.Info("web: admin set a category's attributes", "admin", email, "category", id)
	http.Redirect(w, r, "/admin/categories/"+strconv.FormatInt(id, 10)+"?done=attributes#done", statusSeeOther)
}

// categoryMerge is POST /admin/categories/{id}/merge (target): the
// category goes, its listings go to target; the page of target follows.
func (h *handler) categoryMerge(w http.ResponseWriter, r *http.Request, email string) {
	id, ok := h.categoryID(w, r)
	if !ok {
		return
	}
	target, err := strconv.ParseInt(r.PostForm.Get("target"), 10, 64)
	p := &categoryAdminPage{Target: target}
	var res *console.MergeResult
	if err != nil || target < 1 {
		err = domain.Invalid("target", "required", "Choose the category to merge into.")
	} else {
		res, err = h.console.MergeCategory(r.Context(), email, id, target)
	}
	if err != nil {
		h.categoryRefused(w, r, email, id, "merge", err, p)
		return
	}
	h.log.Info("web: admin merged a category", "admin", email, "source", id, "target", target, "moved", res.Moved)
	http.Redirect(w, r, "/admin/categories/"+strconv.FormatInt(target, 10)+"?merged="+strconv.Itoa(res.Moved)+"#done", statusSeeOther)
}
