# Import every subscription of one topic: <account_id>/<environment_id>/<topic>.
# The topic may contain "/": everything after the second "/" is the topic.
# The imported map is keyed by subscription id; write the configuration with
# keys of your choice and the next apply only renames them in state.
terraform import eventnotify_topic_subscriptions.orders_team my-account-id/6e5f4c3a-0b1d-4e2f-9a8b-7c6d5e4f3a2b/orders-alerts
