package client_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// createEventStreamTopicAndSubscription: 201 with the nested response; subscriptionCount counts the subscriptions on
// the topic.
func TestMockCreateEventStreamTopic(t *testing.T) {
	t.Parallel()
	e, c := newMockClient(t)
	steps := []struct {
		in        client.TopicInput
		wantCount int
	}{
		{client.TopicInput{EnvironmentID: "env-1", SubscriptionName: "sub-a", TopicName: "alerts", TopicDescription: "Alerts"}, 1},
		{client.TopicInput{EnvironmentID: "env-1", SubscriptionName: "sub-b", TopicName: "alerts"}, 2},
		{client.TopicInput{EnvironmentID: "env-2", SubscriptionName: "sub-c", TopicName: "alerts"}, 1},
		{client.TopicInput{EnvironmentID: "env-1", SubscriptionName: "sub-d", TopicName: "alerts"}, 3},
		{client.TopicInput{EnvironmentID: "env-1", SubscriptionName: "sub-e", TopicName: "audit"}, 1},
	}
	for i, st := range steps {
		got, err := c.CreateEventStreamTopic(ctx(t), "", st.in)
		if err != nil {
			t.Fatalf("step %d: CreateEventStreamTopic: %v", i, err)
		}
		want := client.TopicResult{
			SubscriptionName:  st.in.SubscriptionName,
			TopicName:         st.in.TopicName,
			EnvironmentID:     st.in.EnvironmentID,
			SubscriptionCount: st.wantCount,
		}
		if *got != want {
			t.Errorf("step %d: got %+v, want %+v", i, *got, want)
		}
		wantLastStatus(t, e, http.MethodPost, http.StatusCreated)
	}
	topics := e.mock.Topics(itAccount)
	if len(topics) != 3 {
		t.Fatalf("mock holds %d topics, want 3: %+v", len(topics), topics)
	}
	if tp := topics[0]; tp.EnvironmentID != "env-1" || tp.Name != "alerts" || tp.Description != "Alerts" ||
		!slices.Equal(tp.SubscriptionNames, []string{"sub-a", "sub-b", "sub-d"}) {
		t.Errorf("topic env-1/alerts = %+v", tp)
	}
	e.wantCount(http.MethodPost, mockserver.RouteTopic, len(steps))
}

// createEventStreamTopicAndSubscription, SERVICE.md rule 4: a blank required field is a 400 naming the field.
func TestMockCreateEventStreamTopicBlankFields(t *testing.T) {
	t.Parallel()
	const (
		envBlank  = "eventStreamsEnvironmentId cannot be blank"
		nameBlank = "eventStreamsSubscriptionName cannot be blank"
		topBlank  = "topicName cannot be blank"
	)
	tests := []struct {
		name string
		in   client.TopicInput
		msgs []string
	}{
		{"all blank", client.TopicInput{TopicDescription: "d"}, []string{envBlank, nameBlank, topBlank}},
		{"environment blank", client.TopicInput{SubscriptionName: "s", TopicName: "t"}, []string{envBlank}},
		{"subscription name blank", client.TopicInput{EnvironmentID: "e", TopicName: "t"}, []string{nameBlank}},
		{"topic name blank", client.TopicInput{EnvironmentID: "e", SubscriptionName: "s"}, []string{topBlank}},
		{"whitespace is blank", client.TopicInput{EnvironmentID: "  ", SubscriptionName: "s", TopicName: "\t"}, []string{envBlank, topBlank}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e, c := newMockClient(t)
			_, err := c.CreateEventStreamTopic(ctx(t), itAccount, tt.in)
			apiErr := wantAPIError(t, err, http.StatusBadRequest, tt.msgs...)
			wantErrorBody(t, apiErr, "Bad Request", "/rest/v1/accounts/"+itAccount+"/eventStreams/topic/subscription")
			if n := len(e.mock.Topics(itAccount)); n != 0 {
				t.Errorf("mock holds %d topics after a rejected request", n)
			}
			e.wantCount(http.MethodPost, mockserver.RouteTopic, 1)
		})
	}
}

// getLogLevels, listEvents and getDestinationTypes in every catalogue shape the mock offers.
func TestMockCatalogues(t *testing.T) {
	t.Parallel()
	events := []mockserver.CatalogueEntry{
		{Name: "ATOM.STATUS", Description: "Runtime status"},
		{Name: "PROCESS.EXECUTION", Description: ""},
		{Name: "ENVIRONMENT.ALERT", Description: "Alerts"},
	}
	levels := []mockserver.CatalogueEntry{{Name: "INFO", Description: "All"}, {Name: "WARNING", Description: "Warnings"}, {Name: "ERROR", Description: "Errors"}}
	types := []mockserver.CatalogueEntry{{Name: "EVENT_STREAMS", Description: "Event streams"}, {Name: "EMAIL", Description: "E-mail"}}
	shapes := []struct {
		name         string
		shape        mockserver.CatalogueShape
		descriptions bool
	}{
		{"wrapped objects", mockserver.CatalogueWrappedObjects, true},
		{"array of objects", mockserver.CatalogueArrayObjects, true},
		{"array of strings", mockserver.CatalogueArrayStrings, false},
		{"wrapped strings", mockserver.CatalogueWrappedStrings, false},
		{"eventName key", mockserver.CatalogueEventNameKey, true},
	}
	for _, sh := range shapes {
		for _, empty := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/empty=%v", sh.name, empty), func(t *testing.T) {
				t.Parallel()
				e := newMockEnv(t, mockserver.Config{})
				e.mock.SetCatalogueShape(sh.shape)
				ev, lv, ty := events, levels, types
				if empty {
					ev, lv, ty = nil, nil, nil
				}
				e.mock.SetEvents(ev)
				e.mock.SetLogLevels(lv)
				e.mock.SetDestinationTypes(ty)
				c := e.client()
				calls := []struct {
					name  string
					list  func() ([]client.CatalogueEntry, error)
					want  []mockserver.CatalogueEntry
					route string
				}{
					{"events", func() ([]client.CatalogueEntry, error) { return c.ListEvents(ctx(t)) }, ev, mockserver.RouteEvents},
					{"log levels", func() ([]client.CatalogueEntry, error) { return c.ListLogLevels(ctx(t)) }, lv, mockserver.RouteLogLevels},
					{"destination types", func() ([]client.CatalogueEntry, error) { return c.ListDestinationTypes(ctx(t)) }, ty, mockserver.RouteDestinationTypes},
				}
				for _, call := range calls {
					got, err := call.list()
					if err != nil {
						t.Fatalf("%s: %v", call.name, err)
					}
					want := make([]client.CatalogueEntry, 0, len(call.want))
					for _, w := range call.want {
						entry := client.CatalogueEntry{Name: w.Name}
						if sh.descriptions {
							entry.Description = w.Description
						}
						want = append(want, entry)
					}
					if got == nil || !slices.Equal(got, want) {
						t.Errorf("%s = %#v, want %#v", call.name, got, want)
					}
					e.wantCount(http.MethodGet, call.route, 1)
				}
				e.wantJWTFetches(1)
			})
		}
	}
}
