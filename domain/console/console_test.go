package console_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
)

// stubStores satisfies every store New checks; New never calls them.
type stubStores struct{ console.Stores }

func fullDeps() console.Deps {
	st := stubStores{}
	return console.Deps{Site: domain.Site{Key: "main"}, Now: time.Now,
		Team: st, Settings: st, Categories: st, Blog: st, Listings: st, People: st,
		Moderation: st, Ratings: st, Revenue: st, Owners: st}
}

// TestNew: New builds a Console from a full Deps and names every
// dependency that is missing.
func TestNew(t *testing.T) {
	if c, err := console.New(fullDeps()); err != nil || c == nil {
		t.Fatalf("New(full Deps) = %v, %v", c, err)
	}
	for name, drop := range map[string]func(*console.Deps){
		"Site.Key":                         func(d *console.Deps) { d.Site.Key = "" },
		"Now":                              func(d *console.Deps) { d.Now = nil },
		"Team":                             func(d *console.Deps) { d.Team = nil },
		"Settings":                         func(d *console.Deps) { d.Settings = nil },
		"Categories":                       func(d *console.Deps) { d.Categories = nil },
		"Blog":                             func(d *console.Deps) { d.Blog = nil },
		"Listings":                         func(d *console.Deps) { d.Listings = nil },
		"People":                           func(d *console.Deps) { d.People = nil },
		"Moderation":                       func(d *console.Deps) { d.Moderation = nil },
		"Ratings":                          func(d *console.Deps) { d.Ratings = nil },
		"Revenue":                          func(d *console.Deps) { d.Revenue = nil },
		"Owners":                           func(d *console.Deps) { d.Owners = nil },
		"VoteMinAccountAge (not negative)": func(d *console.Deps) { d.VoteMinAccountAge = -time.Hour },
	} {
		d := fullDeps()
		drop(&d)
		c, err := console.New(d)
		if err == nil || c != nil || !strings.Contains(err.Error(), "Deps."+name) {
			t.Errorf("New without %s = %v, %v; want an error naming Deps.%s", name, c, err, name)
		}
	}
}

// TestConsole_NotOnTheService keeps the console out of the domain core: no
// operation of the Console is (again) a method of *domain.Service. The core
// reads the team's work through domain.SettingsReader and domain.Redirects.
func TestConsole_NotOnTheService(t *testing.T) {
	svc := reflect.TypeOf(&domain.Service{})
	cons := reflect.TypeOf(&console.Console{})
	if cons.NumMethod() < 50 {
		t.Fatalf("*console.Console has %d exported methods; the console's operations are expected here", cons.NumMethod())
	}
	for i := range cons.NumMethod() {
		name := cons.Method(i).Name
		if _, ok := svc.MethodByName(name); ok {
			t.Errorf("*domain.Service has the console's method %s: the console's operations live in domain/console", name)
		}
	}
}

// teamOnService are the only site-team operations that are methods of
// *domain.Service (domain/admin.go), each with the reason it stays there:
// they are the ordering's (domain/orders*), reading its product table, its
// currency and its order views, which the console cannot reach.
var teamOnService = map[string]string{
	"AdminPrices":     "list_products' table at the current prices",
	"SetProductPrice": "Ordering.SetProductPrice with the service clock (the product table and currency rules)",
	"AdminWorkItems":  "the ordering's work-item store",
	"FinishWorkItem":  "the ordering's work-item store, stamped with the service clock",
	"AdminOrders":     "the ordering's order views (derived expiry)",
}

// TestConsole_TeamMethodsOnTheService: a method of *domain.Service named
// for the team (Admin*) or listed in teamOnService is exactly that list,
// and none of them is also a Console method. A new team operation goes to
// domain/console, or into the list with its reason.
func TestConsole_TeamMethodsOnTheService(t *testing.T) {
	svc := reflect.TypeOf(&domain.Service{})
	cons := reflect.TypeOf(&console.Console{})
	for i := range svc.NumMethod() {
		name := svc.Method(i).Name
		if strings.HasPrefix(name, "Admin") {
			if _, ok := teamOnService[name]; !ok {
				t.Errorf("*domain.Service has the team operation %s: put it in domain/console, or in teamOnService with its reason", name)
			}
		}
	}
	for name := range teamOnService {
		if _, ok := svc.MethodByName(name); !ok {
			t.Errorf("teamOnService lists %s, which is not a method of *domain.Service: drop it from the list", name)
		}
		if _, ok := cons.MethodByName(name); ok {
			t.Errorf("%s is a method of both *domain.Service and *console.Console: one home", name)
		}
	}
}
