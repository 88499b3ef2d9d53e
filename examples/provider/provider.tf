terraform {
  required_providers {
    eventnotify = {
      source  = "eventnotify/eventnotify"
      version = "~> 0.1.0"
    }
  }
}

# Required: the account, the service's addresses (the provider holds no
# regional addresses yet, so region alone does not reach the service), and one
# form of credentials. Credentials are best exported together with the addresses
# they are for: EVENTNOTIFY_BASE_URL and EVENTNOTIFY_AUTH_URL, with
# EVENTNOTIFY_USERNAME and EVENTNOTIFY_PASSWORD or EVENTNOTIFY_API_TOKEN, or
# EVENTNOTIFY_JWT. Credentials from the environment are never sent to an address
# named in a provider block: a block that sets base_url or auth_url sets its
# credentials too.
provider "eventnotify" {
  account_id = "my-account-id"

  # Optional tuning.
  max_retries             = 5
  max_requests_per_second = 10
  request_timeout         = "30s"
}
