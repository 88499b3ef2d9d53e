package provider

import (
	"errors"
	"fmt"
	"strings"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// parseTopicImportID splits the import id of eventnotify_topic_subscriptions,
// `<account_id>/<environment_id>/<topic>`. An account id never holds "/" (httpapi.CheckAccountID)
// and the resource refuses an environment id with one, so the first two "/" separate them and
// the rest, "/" included, is the topic (the service's description puts no bound on a topic's
// characters).
func parseTopicImportID(id string) (account, env, topic string, err error) {
	parts := strings.SplitN(id, "/", 3)
	if len(parts) != 3 {
		return "", "", "", errors.New(`it must have three parts separated by "/"`)
	}
	account, env, topic = parts[0], parts[1], parts[2]
	if _, err := checkTopicParts(account, env, topic); err != nil {
		return "", "", "", err
	}
	return account, env, topic, nil
}

// checkTopicParts checks the account, the environment id and the topic that name the scope of
// an eventnotify_topic_subscriptions, as its import id or its identity gives them; for the first
// that is wrong it returns the name of its attribute and why.
func checkTopicParts(account, env, topic string) (attr string, err error) {
	switch {
	case strings.TrimSpace(account) == "":
		return "account_id", errors.New("the account id is empty")
	case strings.TrimSpace(env) == "":
		return "event_streams_environment_id", errors.New("the environment id is empty")
	case strings.TrimSpace(topic) == "":
		return "event_streams_topic", errors.New("the topic is empty")
	}
	if err := httpapi.CheckAccountID(account); err != nil {
		return "account_id", errors.New(accountIDAdvice(err))
	}
	if err := checkTopicEnvironmentID(env); err != nil {
		return "event_streams_environment_id", fmt.Errorf("%w; the value must be %s", err, topicEnvironmentIDRule)
	}
	return "", nil
}

// topicEnvironmentIDRule is what checkTopicEnvironmentID asks of an environment id.
const topicEnvironmentIDRule = `an environment id without "/"`

// checkTopicEnvironmentID refuses an environment id with "/": the import id separates it from
// the topic with one.
func checkTopicEnvironmentID(s string) error {
	if strings.Contains(s, "/") {
		return fmt.Errorf("%q contains \"/\"", s)
	}
	return nil
}
