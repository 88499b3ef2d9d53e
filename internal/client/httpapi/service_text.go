package httpapi

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// What the service says is data: before any of it (an error's messages, error id or raw body,
// an answer of the JWT endpoint, a bulk item's message, a catalogue description) reaches a
// diagnostic or a log, it passes through ServiceText, which escapes every character that a
// terminal would act on instead of showing, and bounds its length.

const (
	// MaxServiceTextBytes bounds one piece of service text (a message, an error id, a raw
	// body excerpt) as shown in a diagnostic, escapes included. The service's messages are a
	// sentence or two; a kilobyte shows any of them whole, and a 30 MiB message a screenful.
	MaxServiceTextBytes = 1024
	// MaxServiceMessages is how many of the messages of one answer are kept and shown; the
	// rest are counted (APIError.MessagesOmitted).
	MaxServiceMessages = 20
)

// ServiceText returns s as it may be shown in a diagnostic or a log: control characters (C0,
// DEL, C1), format characters (bidirectional overrides and isolates, direction marks,
// zero-width characters, the byte order mark) and line or paragraph separators are written
// as visible escapes (\r, \n, \t, \x1b, \u202e), and bytes that are not UTF-8 as \xNN;
// printable text, non-ASCII letters included, is unchanged. The result holds at most
// MaxServiceTextBytes bytes of text, followed by a note of how many bytes of s were cut.
func ServiceText(s string) string {
	return serviceText(s, MaxServiceTextBytes)
}

// serviceText is ServiceText with another bound (more than cutNoteSpace), for whole bodies.
func serviceText(s string, limit int) string {
	return escapeLimited([]byte(s[:min(len(s), limit+utf8.UTFMax)]), len(s), limit)
}

// ServiceTextBytes is serviceText of a body, without copying more of it than is shown.
func ServiceTextBytes(b []byte, limit int) string {
	return escapeLimited(b, len(b), limit)
}

// escapeLimited escapes head, the first bytes of a text of total bytes, into at most limit
// bytes, the note of how much was cut included. Only the first limit+utf8.UTFMax bytes of
// head are looked at: every byte shown takes at least one byte of the result.
func escapeLimited(head []byte, total, limit int) string {
	if len(head) > limit+utf8.UTFMax {
		head = head[:limit+utf8.UTFMax]
	}
	out, used := escapeService(head, limit)
	if used == total {
		return out
	}
	out, used = escapeService(head, limit-cutNoteSpace)
	return fmt.Sprintf("%s… [%d more bytes not shown]", out, total-used)
}

// cutNoteSpace is the room kept for the note of how much was cut.
const cutNoteSpace = 40

// escapeService escapes s as ServiceText says, up to limit bytes of result, and returns the
// result and the number of bytes of s it shows.
func escapeService(s []byte, limit int) (string, int) {
	var b strings.Builder
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRune(s[i:])
		var piece string
		switch {
		case r == utf8.RuneError && size == 1:
			piece = fmt.Sprintf(`\x%02x`, s[i])
		case r == '\n':
			piece = `\n`
		case r == '\r':
			piece = `\r`
		case r == '\t':
			piece = `\t`
		case r < 0x80 && unicode.IsControl(r):
			piece = fmt.Sprintf(`\x%02x`, r)
		case UnsafeRune(r) && r > 0xffff:
			piece = fmt.Sprintf(`\U%08x`, r)
		case UnsafeRune(r):
			piece = fmt.Sprintf(`\u%04x`, r)
		default:
			piece = string(s[i : i+size])
		}
		if b.Len()+len(piece) > limit {
			break
		}
		b.WriteString(piece)
		i += size
	}
	return b.String(), i
}

// UnsafeRune reports a character that a terminal acts on or does not show as itself: C0, DEL
// and C1 controls, format characters (Cf: bidirectional overrides U+202A–U+202E and isolates
// U+2066–U+2069, marks U+200E, U+200F and U+061C, zero-width characters, the byte order
// mark), and the line and paragraph separators U+2028 and U+2029.
func UnsafeRune(r rune) bool {
	return unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}

// HasUnsafeRune reports whether s holds a character that UnsafeRune names, or is not UTF-8.
func HasUnsafeRune(s string) bool {
	if !utf8.ValidString(s) {
		return true
	}
	for _, r := range s {
		if UnsafeRune(r) {
			return true
		}
	}
	return false
}

// serviceMessages returns the first MaxServiceMessages of msgs, each through ServiceText, and
// how many were left out.
func serviceMessages(msgs []string) (kept []string, omitted int) {
	if len(msgs) > MaxServiceMessages {
		omitted = len(msgs) - MaxServiceMessages
		msgs = msgs[:MaxServiceMessages]
	}
	if len(msgs) == 0 {
		return nil, omitted
	}
	kept = make([]string, len(msgs))
	for i, m := range msgs {
		kept[i] = ServiceText(m)
	}
	return kept, omitted
}
