package analyzer

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// typeText is a type as written, made one line: comments dropped,
// whitespace runs collapsed to one space, and a line break that ends a
// member of an object type written "; ". TypeScript ends a member at a line
// break when what follows cannot continue its type (`{\n overwrite?:
// boolean\n skipFonts?: boolean\n}`, the automatic semicolon of type
// members): joined with a space only, the two members would read as one
// (`{ overwrite?: boolean skipFonts?: boolean }`). String and template
// literals are kept as written.
func typeText(s string) string {
	var b strings.Builder
	var open []byte // the brackets open at this point
	last := ""      // the last token written
	space, brk := false, false
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\n' || r == '\r' || r == 0x2028 || r == 0x2029:
			space, brk = true, true
			i += n
			continue
		case unicode.IsSpace(r) || r == 0xFEFF:
			space = true
			i += n
			continue
		case strings.HasPrefix(s[i:], "//"):
			for i < len(s) && s[i] != '\n' && s[i] != '\r' {
				i++
			}
			space = true
			continue
		case strings.HasPrefix(s[i:], "/*"):
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				end = len(s) - i - 2
			}
			brk = brk || strings.ContainsAny(s[i:i+2+end], "\n\r\u2028\u2029")
			i += 2 + end + 2
			space = true
			continue
		}
		tok := typeToken(s[i:])
		i += len(tok)
		if brk && len(open) > 0 && open[len(open)-1] == '{' && !continuesAfter[last] && !(continuesBefore[tok] && !memberName(tok, s[i:])) {
			b.WriteString(";")
			last = ";"
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space, brk = false, false
		b.WriteString(tok)
		last = tok
		switch tok {
		case "{", "(", "[", "<":
			open = append(open, tok[0])
		case "}", ")", "]", ">":
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		}
	}
	return b.String()
}

// continuesAfter: a token after which a type goes on past a line break.
var continuesAfter = map[string]bool{"": true, ":": true, "|": true, "&": true, "=>": true, "?": true,
	",": true, ";": true, "{": true, "(": true, "[": true, "<": true, ".": true, "=": true, "...": true,
	"extends": true, "keyof": true, "typeof": true, "readonly": true, "infer": true, "is": true,
	"asserts": true, "unique": true, "new": true, "as": true, "-": true, "+": true}

// continuesBefore: a token that, first on its line, goes on with the type
// of the line before.
var continuesBefore = map[string]bool{"|": true, "&": true, "?": true, ":": true, "=>": true, ".": true,
	"extends": true, "is": true, "}": true, ")": true, "]": true, ">": true, ",": true, ";": true, "=": true}

// memberName reports whether word tok, followed by rest, names a member
// (`is: boolean`, `extends?(): void`) rather than goes on with a type.
func memberName(tok, rest string) bool {
	if tok != "extends" && tok != "is" {
		return false
	}
	rest = strings.TrimLeft(rest, " \t")
	return rest != "" && strings.ContainsRune(":?(<", rune(rest[0]))
}

// typeToken is the token s starts with: a string or template literal, a
// word, `=>`, `...` or one character.
func typeToken(s string) string {
	switch c := s[0]; {
	case c == '"' || c == '\'':
		for j := 1; j < len(s); j++ {
			switch s[j] {
			case '\\':
				j++
			case c:
				return s[:j+1]
			}
		}
		return s
	case c == '`':
		return s[:templateEnd(s)]
	case strings.HasPrefix(s, "=>"):
		return "=>"
	case strings.HasPrefix(s, "..."):
		return "..."
	}
	j := 0
	for j < len(s) {
		r, n := utf8.DecodeRuneInString(s[j:])
		if !(r == '_' || r == '$' || r == '#' || unicode.IsLetter(r) || unicode.IsDigit(r) || r >= 0x80 && !unicode.IsSpace(r)) {
			break
		}
		j += n
	}
	if j == 0 {
		_, j = utf8.DecodeRuneInString(s)
	}
	return s[:j]
}

// templateEnd is the length of the template literal s starts with, its
// `${...}` placeholders (nested braces, strings and templates) included.
func templateEnd(s string) int {
	for j := 1; j < len(s); j++ {
		switch {
		case s[j] == '\\':
			j++
		case s[j] == '`':
			return j + 1
		case strings.HasPrefix(s[j:], "${"):
			depth := 0
			for j += 2; j < len(s); j++ {
				switch s[j] {
				case '{':
					depth++
				case '}':
					depth--
				case '`', '"', '\'':
					j += len(typeToken(s[j:])) - 1
				}
				if depth < 0 {
					break
				}
			}
		}
	}
	return len(s)
}
