package client

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// Text the service returns that enters the caller's state (a subscription's names, topics and
// users, a topic the service created, a catalogue's names) is printed by Terraform as it is: in
// plans, apply outputs, terraform show and terraform output, where a multi-line string is shown
// raw. A value holding ESC, CR, LF, an OSC sequence or a bidirectional override would show forged
// text there. So an answer with a control, format or line or paragraph separator character
// (httpapi.UnsafeRune) in such a field is refused, naming the subscription (or record) and the
// field, never repaired silently; the value itself is not quoted. Printable non-ASCII text (é, 日本)
// is accepted as it is. A catalogue's descriptions, which nothing configures, are kept with those
// characters escaped (ServiceText) rather than refused.

// unsafeTextError is the error of an answer that holds an unsafe character in a saved field.
type unsafeTextError struct {
	what   string // the subscription or record, as shown
	field  string // its JSON name
	r      rune
	offset int
}

// Error names the subscription or record, the field and the character, and what to do.
func (e *unsafeTextError) Error() string {
	return fmt.Sprintf("the answer holds %s whose %s has the control or invisible character %U at byte %d: "+
		"Terraform prints saved values as they are, where it would show as forged text, so the answer is refused "+
		"and nothing of it is saved. Have the value corrected in the service", e.what, e.field, e.r, e.offset)
}

// firstUnsafeRune returns the first character of s that httpapi.UnsafeRune names and its byte
// offset.
func firstUnsafeRune(s string) (rune, int, bool) {
	for i, r := range s {
		if httpapi.UnsafeRune(r) {
			return r, i, true
		}
	}
	return 0, 0, false
}

// checkSubscriptionText refuses a subscription with an unsafe character in any text field.
func checkSubscriptionText(s *Subscription) error {
	v := reflect.ValueOf(s).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		if f.Kind() != reflect.String {
			continue
		}
		if r, at, ok := firstUnsafeRune(f.String()); ok {
			name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
			return &unsafeTextError{what: subscriptionShown(s), field: name, r: r, offset: at}
		}
	}
	return nil
}

// subscriptionShown names a subscription of an answer: by its id, or by its event when the
// answer gives no id.
func subscriptionShown(s *Subscription) string {
	if s.ID == "" {
		return "a subscription without an id (event " + httpapi.Quoted(s.EventName) + ")"
	}
	return "subscription " + httpapi.Quoted(s.ID)
}

// checkTopicText refuses a topic answer with an unsafe character in a field it reports.
func checkTopicText(res *TopicResult) error {
	for _, f := range []struct{ name, value string }{
		{"eventStreamsSubscriptionCreate.name", res.SubscriptionName},
		{"topic.name", res.TopicName},
		{"topic.environment.id", res.EnvironmentID},
	} {
		if r, at, ok := firstUnsafeRune(f.value); ok {
			return &unsafeTextError{what: "the created topic " + httpapi.Quoted(res.TopicName), field: f.name, r: r, offset: at}
		}
	}
	return nil
}

// checkCatalogueText refuses a record whose name holds an unsafe character, and escapes its
// description.
func checkCatalogueText(i int, e *CatalogueEntry) error {
	if r, at, ok := firstUnsafeRune(e.Name); ok {
		return &unsafeTextError{what: fmt.Sprintf("record %d (%s)", i, httpapi.Quoted(e.Name)), field: "name", r: r, offset: at}
	}
	if httpapi.HasUnsafeRune(e.Description) {
		e.Description = httpapi.ServiceText(e.Description)
	}
	return nil
}
