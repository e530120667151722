package tools

import (
	"encoding/json"
	"regexp/syntax"
	"strconv"
)

// dropImpliedLengths leaves out a minLength or maxLength that the schema's
// anchored pattern already enforces (every string the pattern accepts is
// within it, PatternLengths): e.g. a slug's maxLength 220 beside
// ^[a-z0-9][a-z0-9-]{0,219}$, or the idempotency_key's minLength 1 beside
// ^[ -~]+$. The validation is the same; the pattern says it once.
func dropImpliedLengths(obj orderedObj) orderedObj {
	var pattern string
	for _, kv := range obj {
		if kv.key == "pattern" {
			_ = json.Unmarshal(kv.val, &pattern)
		}
	}
	if pattern == "" {
		return obj
	}
	lo, hi, ok := PatternLengths(pattern)
	if !ok {
		return obj
	}
	out := obj[:0]
	for _, kv := range obj {
		n, err := strconv.Atoi(string(kv.val))
		if err == nil && (kv.key == "minLength" && lo >= n || kv.key == "maxLength" && hi >= 0 && hi <= n) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// PatternLengths is the least and the greatest length, in code points (as
// minLength and maxLength count), of a string that the JSON Schema pattern
// p accepts; hi is -1 when there is no greatest. A pattern not anchored at
// both ends (^...$) accepts any longer string around a match: lo is then
// the least length of a match and hi is -1. ok is false when p does not
// parse or uses something not measured here.
func PatternLengths(p string) (lo, hi int, ok bool) {
	re, err := syntax.Parse(p, syntax.Perl)
	if err != nil {
		return 0, 0, false
	}
	lo, hi, ok = reLengths(re)
	if !ok {
		return 0, 0, false
	}
	subs := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		subs = re.Sub
	}
	if subs[0].Op != syntax.OpBeginText || subs[len(subs)-1].Op != syntax.OpEndText {
		hi = -1
	}
	return lo, hi, true
}

func reLengths(re *syntax.Regexp) (lo, hi int, ok bool) {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginText, syntax.OpEndText, syntax.OpBeginLine, syntax.OpEndLine,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return 0, 0, true
	case syntax.OpLiteral:
		return len(re.Rune), len(re.Rune), true
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 1, 1, true
	case syntax.OpCapture:
		return reLengths(re.Sub[0])
	case syntax.OpConcat, syntax.OpAlternate:
		for i, sub := range re.Sub {
			l, h, ok := reLengths(sub)
			if !ok {
				return 0, 0, false
			}
			switch {
			case re.Op == syntax.OpConcat:
				lo += l
				if hi >= 0 {
					hi = h + hi
				}
				if h < 0 {
					hi = -1
				}
			case i == 0:
				lo, hi = l, h
			default:
				lo = min(lo, l)
				if h < 0 || hi < 0 {
					hi = -1
				} else {
					hi = max(hi, h)
				}
			}
		}
		return lo, hi, true
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		l, h, ok := reLengths(re.Sub[0])
		if !ok {
			return 0, 0, false
		}
		rmin, rmax := 0, -1
		switch re.Op {
		case syntax.OpPlus:
			rmin = 1
		case syntax.OpQuest:
			rmax = 1
		case syntax.OpRepeat:
			rmin, rmax = re.Min, re.Max
		}
		lo = l * rmin
		if rmax < 0 || h < 0 {
			if rmax == 0 {
				return lo, 0, true
			}
			return lo, -1, true
		}
		return lo, h * rmax, true
	}
	return 0, 0, false
}
