package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// unsafeSamples are characters a terminal acts on or does not show, as a hostile answer would
// carry them: each must be refused wherever it stands in a saved text field.
var unsafeSamples = []struct {
	name  string
	text  string
	runes string // U+ notation of the character named in the error
}{
	{"ESC", "ops\x1b[2Jalerts", "U+001B"},
	{"CR", "ops\ralerts", "U+000D"},
	{"LF", "ops\n  + forged", "U+000A"},
	{"OSC", "ops\x1b]8;;https://evil.example\aalerts", "U+001B"},
	{"C1 OSC", "ops\u009d8;;x\u009calerts", "U+009D"},
	{"RLO", "ops\u202estrela", "U+202E"},
	{"LINE SEPARATOR", "ops\u2028alerts", "U+2028"},
	{"NUL", "ops\x00alerts", "U+0000"},
	{"DEL", "ops\x7falerts", "U+007F"},
}

// subscriptionTextFields are the JSON names of a subscription's text fields (the string fields
// of Subscription) other than its id and account, which are checked as such.
var subscriptionTextFields = func() []string {
	var names []string
	typ := reflect.TypeFor[Subscription]()
	for i, name := range jsonNames[Subscription]() {
		if typ.Field(i).Type.Kind() == reflect.String && name != "subscriptionId" && name != "accountId" {
			names = append(names, name)
		}
	}
	return names
}()

const textTestID = "3fa85f64-5717-4562-b3fc-2c963f66afa6"

// answerWith is a listing body with one subscription whose field holds value.
func answerWith(t *testing.T, field, value string) []byte {
	t.Helper()
	sub := map[string]any{
		"subscriptionId": textTestID, "accountId": testAccount, "eventName": "ATOM.STATUS",
		"destinationType": "EVENT_STREAMS", "logLevel": "ERROR", "eventStreamsEnvironment": "env-1",
		"eventStreamsTopic": "alerts", "createdBy": testUser, "lastUpdatedUserId": testUser,
	}
	sub[field] = value
	b, err := json.Marshal(map[string]any{"subscriptions": []any{sub}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// decodeAndCheck is what every operation that returns subscriptions does with the body.
func decodeAndCheck(body []byte) ([]Subscription, error) {
	w, err := decodeSubscriptionWrapper(body)
	if err != nil {
		return nil, err
	}
	subs := w.list()
	return subs, checkAnswer(testAccount, subs, true)
}

// TestCheckAnswer_unsafeText: an answer whose text field holds a control, format or line
// separator character is refused, with the subscription and the field named, the character
// shown by its code point and never itself.
func TestCheckAnswer_unsafeText(t *testing.T) {
	t.Parallel()
	for _, field := range subscriptionTextFields {
		for _, c := range unsafeSamples {
			t.Run(field+"/"+c.name, func(t *testing.T) {
				_, err := decodeAndCheck(answerWith(t, field, c.text))
				var ute *unsafeTextError
				if !errors.As(err, &ute) {
					t.Fatalf("error %v, want the answer refused", err)
				}
				msg := err.Error()
				for _, want := range []string{`subscription "` + textTestID + `"`, "whose " + field + " ", c.runes, "Have the value corrected"} {
					if !strings.Contains(msg, want) {
						t.Errorf("error %q does not say %q", msg, want)
					}
				}
				if httpapi.HasUnsafeRune(msg) {
					t.Errorf("error %q holds the character itself", msg)
				}
			})
		}
	}
}

// TestCheckAnswer_printableText: printable text, non-ASCII letters and symbols included, is
// accepted and kept as it is.
func TestCheckAnswer_printableText(t *testing.T) {
	t.Parallel()
	for _, text := range []string{"Umgebung-é", "日本の通知", "ops 🚀 alerts", "Ærø/Œuvre – “quoted”", "a\u00a0b"} {
		for _, field := range subscriptionTextFields {
			subs, err := decodeAndCheck(answerWith(t, field, text))
			if err != nil {
				t.Fatalf("%s = %q: %v", field, text, err)
			}
			b, _ := json.Marshal(subs[0])
			var got map[string]any
			_ = json.Unmarshal(b, &got)
			if field != "logLevel" && got[field] != text {
				t.Errorf("%s = %q, want %q", field, got[field], text)
			}
		}
	}
}

// TestCheckAnswer_noID: a subscription an answer gives without an id (a create answer may) is
// named by its event.
func TestCheckAnswer_noID(t *testing.T) {
	t.Parallel()
	subs := []Subscription{{EventName: "ATOM.STATUS", CreatedBy: "a\x1b[31mb"}}
	err := checkAnswer(testAccount, subs, false)
	if err == nil || !strings.Contains(err.Error(), `without an id (event "ATOM.STATUS") whose createdBy`) {
		t.Fatalf("error %v, want it to name the event and the field", err)
	}
}

// TestDecodeCatalogue_unsafeText: a catalogue record whose name holds an unsafe character is
// refused, naming the record and the field; a description is kept with such characters
// escaped; printable names pass.
func TestDecodeCatalogue_unsafeText(t *testing.T) {
	t.Parallel()
	for _, c := range unsafeSamples {
		t.Run(c.name, func(t *testing.T) {
			body, _ := json.Marshal([]any{"ATOM.STATUS", map[string]string{"name": "EVIL." + c.text}})
			_, err := decodeCatalogue(body, eventsCatalogue)
			if err == nil || !strings.Contains(err.Error(), "record 1 (") || !strings.Contains(err.Error(), "whose name has") ||
				!strings.Contains(err.Error(), c.runes) || httpapi.HasUnsafeRune(err.Error()) {
				t.Fatalf("error %v, want record 1's name refused by code point", err)
			}
			body, _ = json.Marshal([]any{map[string]string{"name": "ATOM.STATUS", "description": "Status " + c.text}})
			entries, err := decodeCatalogue(body, eventsCatalogue)
			if err != nil {
				t.Fatal(err)
			}
			if d := entries[0].Description; httpapi.HasUnsafeRune(d) || !strings.HasPrefix(d, "Status ops") {
				t.Errorf("description %q, want it escaped", d)
			}
		})
	}
	body := []byte(`[{"name":"ÉVÉNEMENT.日本","description":"Statut modifié – 日本"}]`)
	entries, err := decodeCatalogue(body, eventsCatalogue)
	if err != nil || entries[0].Name != "ÉVÉNEMENT.日本" || entries[0].Description != "Statut modifié – 日本" {
		t.Fatalf("entries %+v, error %v: printable text must pass unchanged", entries, err)
	}
}

// TestDecodeTopicResult_unsafeText: a topic answer with an unsafe character in a field it
// reports is refused, naming the field.
func TestDecodeTopicResult_unsafeText(t *testing.T) {
	t.Parallel()
	for _, field := range []string{"name", "topic.name", "environment.id"} {
		for _, c := range unsafeSamples {
			name, topic, env := "ops-alerts", "alerts", "env-1"
			switch field {
			case "name":
				name = c.text
			case "topic.name":
				topic = c.text
			default:
				env = c.text
			}
			body, _ := json.Marshal(map[string]any{"data": map[string]any{"eventStreamsSubscriptionCreate": map[string]any{
				"name": name, "topic": map[string]any{"name": topic, "environment": map[string]any{"id": env}, "subscriptionCount": 1},
			}}})
			_, err := decodeTopicResult(body)
			if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%s has", field)) || !strings.Contains(err.Error(), c.runes) {
				t.Errorf("%s = %q: error %v, want the field refused", field, c.text, err)
			}
		}
	}
}
