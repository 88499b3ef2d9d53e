package provider

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// topicExamples is the folder of the resource's examples.
const topicExamples = "../../examples/resources/eventnotify_topic_subscriptions/"

// TestAccTopicSubscriptions_importExamples runs the resource page's three imports (the import
// block with an id, the one with an identity where the CLI has identity, and the terraform
// import command of import.sh) with the page's resource.tf, on a
// topic that holds the subscriptions of its orders_team entries: the import takes them under
// their ids, the apply only moves them to the configuration's keys, nothing is written, the
// next plan is empty, and the other team's topic is created as configured.
func TestAccTopicSubscriptions_importExamples(t *testing.T) {
	script, err := os.ReadFile(topicExamples + "import.sh")
	if err != nil {
		t.Fatal(err)
	}
	var command []string
	for _, line := range strings.Split(string(script), "\n") {
		if strings.HasPrefix(line, "terraform import ") {
			command = strings.Fields(strings.ReplaceAll(line, "my-account-id/", testAccount+"/"))[1:]
		}
	}
	if len(command) != 3 {
		t.Fatalf("import.sh holds no terraform import command of the form the test runs:\n%s", script)
	}
	for _, way := range []string{"import block", "import block with identity", "terraform import"} {
		t.Run(way, func(t *testing.T) {
			m := newTestMock(t)
			var held []mockserver.Subscription
			for _, s := range [][2]string{{"PROCESS.EXECUTION", "ERROR"}, {"ATOM.DEPLOYMENT", "INFO"}} {
				held = append(held, m.PutSubscription(testAccount, mockserver.Subscription{EventName: s[0], DestinationType: "EVENT_STREAMS",
					LogLevel: s[1], Enabled: true, EventStreamsEnvironment: guideTopicEnv, EventStreamsEnvironmentName: guideTopicName,
					EventStreamsTopic: guideTopic}))
			}
			w := newCLIWorkspace(t, m)
			w.copyFile(topicExamples+"resource.tf", "main.tf")
			switch way {
			case "import block":
				w.copyTopicGuideExample(topicExamples+"import-by-string-id.tf", "import.tf")
			case "import block with identity":
				w.require(featureResourceIdentity)
				body, err := os.ReadFile(topicExamples + "import-by-identity-block.tf")
				if err != nil {
					t.Fatal(err)
				}
				w.write("import.tf", strings.ReplaceAll(string(body), `"my-account-id"`, `"`+testAccount+`"`))
			default:
				w.mustRun(nil, append(command[:1:1], append([]string{"-input=false", "-no-color"}, command[1:]...)...)...)
			}
			w.mustRun(nil, "apply", "-auto-approve", "-input=false", "-no-color")
			if out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
				t.Fatalf("the plan after the import's apply is not empty (exit %d):\n%s", code, out)
			}
			for i := range held {
				if err := m.checkUntouched(&held[i])(nil); err != nil {
					t.Error(err)
				}
			}
			if n := len(m.Subscriptions(testAccount)); n != 4 {
				t.Errorf("the account holds %d subscriptions, want 4 (2 imported, 2 of platform_team created)", n)
			}
			if posts, patches := m.Count("POST", ""), m.Count("PATCH", ""); posts != 1 || patches != 0 {
				t.Errorf("the apply sent %d creates and %d bulk requests, want 1 create (platform_team) and none", posts, patches)
			}
			if ok, _ := w.cli.supports(featureResourceIdentity); ok {
				want := map[string]any{"account_id": testAccount, "event_streams_environment_id": guideTopicEnv,
					"event_streams_topic": guideTopic}
				got := identityInShow(t, w.mustRun(nil, "show", "-json"), "eventnotify_topic_subscriptions.orders_team")
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("the identity of orders_team is %v, want %v", got, want)
				}
			}
		})
	}
}
