package mockserver_test

import (
	"net/http"
	"reflect"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

func topicPath(account string) string {
	return "/rest/v1/accounts/" + account + "/eventStreams/topic/subscription"
}

func topicBody(changes map[string]any) map[string]any {
	m := map[string]any{
		"eventStreamsEnvironmentId":    "env-1",
		"eventStreamsSubscriptionName": "sub-a",
		"topicName":                    "alerts",
		"topicDescription":             "Alert events",
	}
	for k, v := range changes {
		if v == nil {
			delete(m, k)
			continue
		}
		m[k] = v
	}
	return m
}

func TestTopicValidation(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	path := topicPath(testAccount)
	const (
		env   = "eventStreamsEnvironmentId cannot be blank"
		sub   = "eventStreamsSubscriptionName cannot be blank"
		topic = "topicName cannot be blank"
	)
	tests := []struct {
		name string
		body any
		want []string
	}{
		{"no body", nil, []string{msgMissing}},
		{"invalid JSON", "{]", []string{"Malformed JSON request body"}},
		{"empty object", map[string]any{}, []string{env, sub, topic}},
		{"environment missing", topicBody(map[string]any{"eventStreamsEnvironmentId": nil}), []string{env}},
		{"environment blank", topicBody(map[string]any{"eventStreamsEnvironmentId": "   "}), []string{env}},
		{"subscription name empty", topicBody(map[string]any{"eventStreamsSubscriptionName": ""}), []string{sub}},
		{"topic name missing", topicBody(map[string]any{"topicName": nil}), []string{topic}},
		{"two blank", topicBody(map[string]any{"topicName": "", "eventStreamsEnvironmentId": ""}), []string{env, topic}},
		{"topic name not a string", topicBody(map[string]any{"topicName": 3}), []string{"Invalid value for topicName: must be a string"}},
		{"unknown member", topicBody(map[string]any{"partitions": 3}), []string{"Unknown field: partitions"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := e.with(t)
			e.do(http.MethodPost, path, token, tt.body).wantError(t, http.StatusBadRequest, "Bad Request", path, tt.want...)
		})
	}
	if n := len(e.srv.Topics(testAccount)); n != 0 {
		t.Errorf("rejected requests created %d topics", n)
	}
}

func TestTopicCreate(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	create := func(account, token string, body map[string]any) wireTopicResponse {
		t.Helper()
		r := e.do(http.MethodPost, topicPath(account), token, body)
		r.wantStatus(t, http.StatusCreated)
		var w wireTopicResponse
		decodeStrict(t, r.body, &w)
		return w
	}
	w := create(testAccount, token, topicBody(nil))
	got := w.Data.EventStreamsSubscriptionCreate
	if got.Name != "sub-a" || got.Topic.Name != "alerts" || got.Topic.Environment.ID != "env-1" || got.Topic.SubscriptionCount != 1 {
		t.Errorf("response = %+v", got)
	}
	// The same environment and topic: one more subscription on it.
	w = create(testAccount, token, topicBody(map[string]any{"eventStreamsSubscriptionName": "sub-b", "topicDescription": nil}))
	if n := w.Data.EventStreamsSubscriptionCreate.Topic.SubscriptionCount; n != 2 {
		t.Errorf("second subscriptionCount = %d, want 2", n)
	}
	// Another topic, another environment, another account: counts start at 1.
	for _, body := range []map[string]any{
		topicBody(map[string]any{"topicName": "other"}),
		topicBody(map[string]any{"eventStreamsEnvironmentId": "env-0"}),
	} {
		if n := create(testAccount, token, body).Data.EventStreamsSubscriptionCreate.Topic.SubscriptionCount; n != 1 {
			t.Errorf("new topic subscriptionCount = %d, want 1", n)
		}
	}
	other := e.jwt("acc-2")
	if n := create("acc-2", other, topicBody(nil)).Data.EventStreamsSubscriptionCreate.Topic.SubscriptionCount; n != 1 {
		t.Errorf("another account's subscriptionCount = %d, want 1", n)
	}

	want := []mockserver.Topic{
		{AccountID: testAccount, EnvironmentID: "env-0", Name: "alerts", Description: "Alert events", SubscriptionNames: []string{"sub-a"}},
		{AccountID: testAccount, EnvironmentID: "env-1", Name: "alerts", Description: "Alert events", SubscriptionNames: []string{"sub-a", "sub-b"}},
		{AccountID: testAccount, EnvironmentID: "env-1", Name: "other", Description: "Alert events", SubscriptionNames: []string{"sub-a"}},
	}
	if got := e.srv.Topics(testAccount); !reflect.DeepEqual(got, want) {
		t.Errorf("Topics = %+v\nwant     %+v", got, want)
	}
	if got := e.srv.Topics("acc-2"); len(got) != 1 {
		t.Errorf("Topics(acc-2) = %+v", got)
	}
	if got := e.srv.Topics("none"); len(got) != 0 {
		t.Errorf("Topics(none) = %+v", got)
	}
	// Topic subscriptions are not notification subscriptions.
	if n := len(e.srv.Subscriptions(testAccount)); n != 0 {
		t.Errorf("createEventStreamTopicAndSubscription stored %d subscriptions", n)
	}
}
