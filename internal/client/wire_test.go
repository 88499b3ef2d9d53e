package client

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/testsupport"
)

// serverManaged are the members of the spec's Subscription that no input carries.
var serverManaged = specNonInputs()

// specNonInputs are the members of the spec's Subscription that are not in its
// SubscriptionCreate (testsupport.SpecSubscription).
func specNonInputs() []string {
	var names []string
	for _, m := range testsupport.SpecSubscription {
		if !m.Input {
			names = append(names, m.Name)
		}
	}
	return names
}

// jsonNames are the JSON names of the fields of the struct type T, in field order.
func jsonNames[T any]() []string {
	typ := reflect.TypeFor[T]()
	names := make([]string, typ.NumField())
	for i := range typ.NumField() {
		names[i], _, _ = strings.Cut(typ.Field(i).Tag.Get("json"), ",")
	}
	return names
}

// TestSubscriptionCreateHasNoServerFields checks the types themselves, not just one value,
// against the spec's members (testsupport.SpecSubscription, the tests' one pin on the wire
// names): SubscriptionInput has the JSON names of SubscriptionCreate, Subscription those of
// Subscription. A misspelt JSON name fails here, naming it.
func TestSubscriptionCreateHasNoServerFields(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		typ       string
		got, want []string
	}{
		{"SubscriptionInput", jsonNames[SubscriptionInput](), testsupport.SpecNames(true)},
		{"Subscription", jsonNames[Subscription](), testsupport.SpecNames(false)},
	} {
		for _, name := range tc.want {
			if !slices.Contains(tc.got, name) {
				t.Errorf("%s (subscription.go) has no field with JSON name %q, which the spec's member has", tc.typ, name)
			}
		}
		for _, name := range tc.got {
			if !slices.Contains(tc.want, name) {
				t.Errorf("%s (subscription.go) has JSON name %q, which the spec (testsupport.SpecSubscription) does not", tc.typ, name)
			}
		}
	}
}

// TestSubscriptionInputEncoding: empty optional strings and nil Enabled are omitted; the
// required fields are always sent.
func TestSubscriptionInputEncoding(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   SubscriptionInput
		want string
	}{
		{SubscriptionInput{}, `{"eventName":"","destinationType":"","logLevel":""}`},
		{SubscriptionInput{EventName: "E", DestinationType: "EMAIL", LogLevel: "ERROR", Enabled: boolPtr(true)},
			`{"eventName":"E","destinationType":"EMAIL","logLevel":"ERROR","enabled":true}`},
		{SubscriptionInput{EventName: "E", EventStreamsTopic: "t", Enabled: boolPtr(false)},
			`{"eventName":"E","destinationType":"","logLevel":"","eventStreamsTopic":"t","enabled":false}`},
	}
	for _, tc := range tests {
		b, err := json.Marshal(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tc.want {
			t.Errorf("got %s, want %s", b, tc.want)
		}
		for _, f := range serverManaged {
			if strings.Contains(string(b), f) {
				t.Errorf("%s carries %s", b, f)
			}
		}
	}
}

// TestSubscriptionDecoding covers enabled's default and tolerant numbers.
func TestSubscriptionDecoding(t *testing.T) {
	t.Parallel()
	tests := []struct {
		body    string
		want    Subscription
		wantErr bool
	}{
		{`{"subscriptionId":"a"}`, Subscription{ID: "a", Enabled: true}, false},
		{`{"subscriptionId":"a","enabled":null}`, Subscription{ID: "a", Enabled: true}, false},
		{`{"subscriptionId":"a","enabled":false}`, Subscription{ID: "a"}, false},
		{`{"subscriptionId":"a","enabled":true,"createdDate":"1700000000123","lastUpdatedDate":1.700000000456e12}`,
			Subscription{ID: "a", Enabled: true, CreatedDate: 1700000000123, LastUpdatedDate: 1700000000456}, false},
		{`{"subscriptionId":"a","createdDate":null,"lastUpdatedDate":""}`, Subscription{ID: "a", Enabled: true}, false},
		{`{"subscriptionId":"a","createdDate":"yesterday"}`, Subscription{}, true},
		{`{"subscriptionId":"a","createdDate":true}`, Subscription{}, true},
		{`{"subscriptionId":"a","enabled":"yes"}`, Subscription{}, true},
	}
	for _, tc := range tests {
		got, err := decodeSingleSubscription([]byte(tc.body))
		if tc.wantErr {
			if err == nil {
				t.Errorf("%s: no error", tc.body)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(*got, tc.want) {
			t.Errorf("%s: got %+v, %v; want %+v", tc.body, got, err, tc.want)
		}
	}
}

// TestSubscriptionListShapes: a list answer may come as the wrapper, a bare array, or a
// single subscription.
func TestSubscriptionListShapes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		body string
		ids  []string
	}{
		{`{"subscriptions":[{"subscriptionId":"a"},{"subscriptionId":"b"}]}`, []string{"a", "b"}},
		{`[{"subscriptionId":"a"}]`, []string{"a"}},
		{`{"subscription":{"subscriptionId":"a"}}`, []string{"a"}},
		{`{"subscriptionId":"a","eventName":"E"}`, []string{"a"}},
		{`{"subscriptions":[]}`, []string{}},
		{`{}`, []string{}},
		{``, []string{}},
		{`null`, []string{}},
		{`[]`, []string{}},
	}
	for _, tc := range tests {
		w, err := decodeSubscriptionWrapper([]byte(tc.body))
		if err != nil {
			t.Errorf("%s: %v", tc.body, err)
			continue
		}
		got := []string{}
		for _, s := range w.list() {
			got = append(got, s.ID)
		}
		if !reflect.DeepEqual(got, tc.ids) {
			t.Errorf("%s: ids %v, want %v", tc.body, got, tc.ids)
		}
	}
}

// malformedBodies are answers no decoder may panic on (the HTTP layer runs its own decoders over
// the same list, in httpapi/fuzz_test.go).
var malformedBodies = []string{
	"", " ", "{", "}", "[", "]", "[{", "null", "true", "42", `"str"`, "<html><body>502</body></html>",
	`{"subscriptions":{}}`, `{"subscriptions":[1,2]}`, `{"subscription":[]}`, `{"subscription":"x"}`,
	`{"paginationMetadata":"x"}`, `{"paginationMetadata":{"totalPages":"many"}}`, `{"subscriptions":[null]}`,
	`{"operationStatuses":[{"httpEquivalentCode":"x"}]}`, `{"data":null}`, `{"data":{"eventStreamsSubscriptionCreate":[]}}`,
	`{"data":{"eventStreamsSubscriptionCreate":{"topic":{"environment":"x"}}}}`, `[null,{"name":null},{"eventName":1}]`,
	`{"a":[1],"b":[2]}`, `{"a":{"b":{"c":[]}}}`, `{"error":`, `{"error":"x","messages":[1,null,{"a":1}]}`,
	"\x00\xff\xfe", `{"token":{"nested":"x"}}`, `{"subscriptionId":"a","createdDate":1e400}`,
}

// TestMalformedBodiesNoPanic runs every decoder over malformed input.
func TestMalformedBodiesNoPanic(t *testing.T) {
	t.Parallel()
	for _, body := range malformedBodies {
		runDecoders(t, []byte(body))
	}
}

// runDecoders calls every decoder; a panic fails the test.
func runDecoders(t *testing.T, b []byte) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("panic on %q: %v", b, r)
		}
	}()
	if w, err := decodeSubscriptionWrapper(b); err == nil {
		_ = w.list()
		_ = w.page(0, 100)
		_, _ = w.single()
	}
	_, _ = decodeSingleSubscription(b)
	_, _ = decodeOperationStatuses(b, nil)
	_, _ = decodeTopicResult(b)
	_, _ = decodeCatalogue(b, eventsCatalogue)
}

// FuzzDecoders fuzzes every decoder; go test runs the seeds.
func FuzzDecoders(f *testing.F) {
	for _, b := range malformedBodies {
		f.Add([]byte(b))
	}
	f.Add([]byte(fullSubscriptionJSON))
	f.Fuzz(func(t *testing.T, b []byte) {
		runDecoders(t, b)
	})
}

// TestFlexInt64 covers the accepted number forms.
func TestFlexInt64(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    int64
		wantErr bool
	}{
		{"0", 0, false}, {"-12", -12, false}, {"1700000000123", 1700000000123, false},
		{"9223372036854775807", 9223372036854775807, false}, {"-9223372036854775808", -9223372036854775808, false},
		{`"42"`, 42, false}, {`""`, 0, false}, {"null", 0, false}, {"1.5e3", 1500, false}, {"12.9", 12, false},
		{"-", 0, true}, {`"x"`, 0, true}, {"1e400", 0, true}, {"true", 0, true},
	}
	for _, tc := range tests {
		var n flexInt64
		err := n.UnmarshalJSON([]byte(tc.in))
		if (err != nil) != tc.wantErr || (!tc.wantErr && int64(n) != tc.want) {
			t.Errorf("UnmarshalJSON(%s) = %d, %v; want %d, error %t", tc.in, n, err, tc.want, tc.wantErr)
		}
	}
}
