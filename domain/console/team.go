package console

import (
	"context"
	"encoding/json"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// The site team: members with a role, kept in the database, and the audit
// log of every change they make (docs/console.md). Non-members see no
// console at all (a 404 page); moderators see the review queues; admins see
// everything.

// Team roles.
const (
	RoleAdmin     = "admin"
	RoleModerator = "moderator"
)

// TeamRoles are the roles a member may have, most powerful first.
var TeamRoles = []string{RoleAdmin, RoleModerator}

// ActorCommandLine is the audit actor of changes made with "launchdir admin".
const ActorCommandLine = "command line"

// TeamMember is one member of the site team.
type TeamMember struct {
	Email     string
	Role      string
	GrantedBy string
	GrantedAt time.Time
}

// AuditEntry is one change by the site team.
type AuditEntry struct {
	ID     int64
	At     time.Time
	Actor  string
	Action string
	// Target names what changed, "kind:id" ("product:launch", "member:a@b.c").
	Target string
	// Before and After are the values as JSON; empty when there is none.
	Before, After json.RawMessage
}

// AuditFilter selects audit entries; empty fields match everything.
type AuditFilter struct {
	Actor, Action, Target string
	// Since and Until bound the time (Until exclusive); zero: unbounded.
	Since, Until  time.Time
	Page, PerPage int
}

// TeamStore keeps the team and its audit log.
type TeamStore interface {
	// TeamRole is email's role, "" when email is not a member.
	TeamRole(ctx context.Context, email string) (string, error)
	TeamMembers(ctx context.Context) ([]TeamMember, error)
	// SetTeamRole grants role to email (role "" removes the member) and
	// writes entry in the same transaction; it returns the role before.
	SetTeamRole(ctx context.Context, email, role string, entry AuditEntry) (before string, err error)
	WriteAudit(ctx context.Context, e AuditEntry) error
	// AuditLog returns one page of entries matching f, newest first, and how many match.
	AuditLog(ctx context.Context, f AuditFilter) ([]AuditEntry, int, error)
}

// TeamRole is email's role on the site team, "" for everyone else (and
// always "" when no TeamStore is configured).
func (s *Console) TeamRole(ctx context.Context, email string) (string, error) {
	if s.Team == nil || strings.TrimSpace(email) == "" {
		return "", nil
	}
	return s.Team.TeamRole(ctx, strings.TrimSpace(email))
}

// TeamMembers lists the site team, admins first.
func (s *Console) TeamMembers(ctx context.Context) ([]TeamMember, error) {
	t, err := s.team()
	if err != nil {
		return nil, err
	}
	return t.TeamMembers(ctx)
}

func (s *Console) team() (TeamStore, error) {
	if s.Team == nil {
		return nil, fmt.Errorf("the site team is not configured (it needs a TeamStore)")
	}
	return s.Team, nil
}

// CheckTeamEmail validates the email of a member to be: one plain address.
func CheckTeamEmail(email string) (string, error) {
	email = strings.TrimSpace(email)
	a, err := mail.ParseAddress(email)
	if email == "" || err != nil || a.Address != email || len(email) > 254 {
		return "", domain.Invalid("email", "format", "Enter one email address, such as ops@example.com; %q is not one.", email)
	}
	return strings.ToLower(email), nil
}

// GrantTeamRole makes email a member with role (admin or moderator), by
// actor; the change is in the audit log. Granting the role a member has
// already changes nothing and writes nothing.
func (s *Console) GrantTeamRole(ctx context.Context, actor, email, role string) error {
	t, err := s.team()
	if err != nil {
		return err
	}
	if email, err = CheckTeamEmail(email); err != nil {
		return err
	}
	if role != RoleAdmin && role != RoleModerator {
		return domain.Invalid("role", "enum", "A role is admin (the whole console) or moderator (the review queues); %q is neither.", role)
	}
	if cur, err := t.TeamRole(ctx, email); err != nil || cur == role {
		return err
	}
	_, err = t.SetTeamRole(ctx, email, role, s.auditEntry(actor, "team.grant", "member:"+email, nil, map[string]string{"role": role}))
	return err
}

// RevokeTeamRole removes email from the team, by actor. The last admin
// cannot be removed (nobody could then run the site): ErrLastAdmin.
func (s *Console) RevokeTeamRole(ctx context.Context, actor, email string) error {
	t, err := s.team()
	if err != nil {
		return err
	}
	email = strings.ToLower(strings.TrimSpace(email))
	members, err := t.TeamMembers(ctx)
	if err != nil {
		return err
	}
	var role string
	admins := 0
	for _, m := range members {
		if strings.EqualFold(m.Email, email) {
			role = m.Role
		}
		if m.Role == RoleAdmin {
			admins++
		}
	}
	if role == "" {
		return domain.NotFound("team member", email)
	}
	if role == RoleAdmin && admins == 1 {
		return domain.Errorf(domain.EConflict, "%s is the only admin; grant another admin first, so that someone can still run the site.", email)
	}
	_, err = t.SetTeamRole(ctx, email, "", s.auditEntry(actor, "team.revoke", "member:"+email, map[string]string{"role": role}, nil))
	return err
}

// EnsureAdmins makes each of emails an admin unless it is a member already
// (serve's --admin-emails: the first admins; a member keeps the role the team
// gave them).
func (s *Console) EnsureAdmins(ctx context.Context, emails []string) error {
	t, err := s.team()
	if err != nil {
		return err
	}
	for _, e := range emails {
		e, err := CheckTeamEmail(e)
		if err != nil {
			return fmt.Errorf("--admin-emails: %w", err)
		}
		if cur, err := t.TeamRole(ctx, e); err != nil {
			return err
		} else if cur != "" {
			continue
		}
		if _, err := t.SetTeamRole(ctx, e, RoleAdmin, s.auditEntry("--admin-emails", "team.grant", "member:"+e, nil, map[string]string{"role": RoleAdmin})); err != nil {
			return err
		}
	}
	return nil
}

// Audit writes one change by actor to the audit log; before and after are
// marshalled to JSON (nil: none).
func (s *Console) Audit(ctx context.Context, actor, action, target string, before, after any) error {
	t, err := s.team()
	if err != nil {
		return err
	}
	return t.WriteAudit(ctx, s.auditEntry(actor, action, target, before, after))
}

func (s *Console) auditEntry(actor, action, target string, before, after any) AuditEntry {
	js := func(v any) json.RawMessage {
		if v == nil {
			return nil
		}
		b, err := json.Marshal(v)
		if err != nil {
			return json.RawMessage(fmt.Sprintf("%q", fmt.Sprint(v)))
		}
		return b
	}
	return AuditEntry{At: s.now(), Actor: actor, Action: action, Target: target, Before: js(before), After: js(after)}
}

// AuditLog returns one page of the audit log, newest first, and how many entries match.
func (s *Console) AuditLog(ctx context.Context, f AuditFilter) ([]AuditEntry, int, error) {
	t, err := s.team()
	if err != nil {
		return nil, 0, err
	}
	if f.Page == 0 {
		f.Page = 1
	}
	if f.PerPage == 0 {
		f.PerPage = 50
	}
	switch {
	case f.Page < 1 || f.Page > 1000:
		return nil, 0, domain.Invalid("page", "range", "page is 1-1000; %d is not.", f.Page)
	case f.PerPage < 1 || f.PerPage > 200:
		return nil, 0, domain.Invalid("per_page", "range", "per_page is 1-200; %d is not.", f.PerPage)
	case !f.Since.IsZero() && !f.Until.IsZero() && !f.Until.After(f.Since):
		return nil, 0, domain.Invalid("until", "after_since", "until must be after since.")
	}
	for name, v := range map[string]string{"actor": f.Actor, "action": f.Action, "target": f.Target} {
		if len(v) > 254 {
			return nil, 0, domain.Invalid(name, "maxLength", "%s is at most 254 characters.", name)
		}
	}
	return t.AuditLog(ctx, f)
}
