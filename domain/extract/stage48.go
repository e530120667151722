package extract

import (
	"slices"
)

// Stage as small teams write it: an invitation-only product ("It's
// invite-only for now", "nur auf Einladung", "tylko na zaproszenie") is in
// a private beta, and "still in beta" in the languages without sentence
// patterns ("Vi är fortfarande i beta", "wciąż jesteśmy w becie"). The
// invitation is weak (said of the product or of "we", or a banner); the
// beta has "we" as its subject.

// inviteOnlyRe: access by invitation only, in the languages of the sets.
var inviteOnlyRe = lazyMustCompile(`(?i)\binvite[- ]only\b|\bby invitation only\b|\binvitation[- ]only\b|` +
	`nur (?:auf|mit|per) einladung|sur invitation (?:seulement|uniquement)|uniquement sur invitation|solo (?:por|con) invitación|` +
	`solo su invito|alleen op uitnodiging|apenas (?:por|com) convite|tylko (?:na|z) zaproszeni\p{L}*|endast (?:via |med |genom )?inbjudan|` +
	`bara (?:via |med |genom )?inbjudan|kun (?:via |med |på )?invitasjon|kun (?:via |med |på )?invitation|pouze na pozvánk\p{L}*|yalnızca davet(?:iye)? ile`)

// stillBetaRe: "we are (still) in beta" in Swedish, Norwegian, Danish,
// Polish, Czech and Turkish, the speaker its subject ("i" is Swedish "in",
// so the subject is part of the pattern).
var stillBetaRe = lazyMustCompile(`(?i)(?:^|[^\p{L}])(?:vi är|vi er)(?: fortfarande| ännu| just nu| fortsatt| fortsat| stadig| ennå| endnu)? i (?:beta|betafasen|betaversion)(?:[^\p{L}]|$)|` +
	`(?:^|[^\p{L}])(?:wciąż |nadal |ciągle )?jesteśmy (?:wciąż |nadal |ciągle )?w (?:becie|wersji beta|fazie beta)(?:[^\p{L}]|$)|` +
	`(?:^|[^\p{L}])jsme (?:stále |zatím )?v (?:betě|beta verzi)(?:[^\p{L}]|$)|(?:hâlâ|halen|şu anda) beta (?:aşamasındayız|sürümündeyiz)`)

func init() {
	type pat = struct {
		slug string
		re   *lazyRegexp
		weak bool
		min  int
	}
	// after the other betas, before pre-launch
	i := slices.IndexFunc(stagePatterns, func(p pat) bool { return p.slug == "pre-launch" })
	stagePatterns = slices.Insert(stagePatterns, i, pat{"beta", stillBetaRe, false, 0}, pat{"beta", inviteOnlyRe, true, 0})
}
