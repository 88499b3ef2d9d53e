package provider

import (
	"errors"
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
	switch {
	case strings.TrimSpace(account) == "":
		return "", "", "", errors.New("the account id is empty")
	case strings.TrimSpace(env) == "":
		return "", "", "", errors.New("the environment id is empty")
	case strings.TrimSpace(topic) == "":
		return "", "", "", errors.New("the topic is empty")
	}
	if err := httpapi.CheckAccountID(account); err != nil {
		return "", "", "", errors.New(accountIDAdvice(err))
	}
	return account, env, topic, nil
}
