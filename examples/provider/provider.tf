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
# form of credentials, best taken from the environment: EVENTNOTIFY_USERNAME
# with EVENTNOTIFY_PASSWORD or EVENTNOTIFY_API_TOKEN, or EVENTNOTIFY_JWT.
provider "eventnotify" {
  account_id = "my-account-id"
  base_url   = "https://eventnotify.example.com"
  auth_url   = "https://auth.example.com"

  # Optional tuning.
  max_retries             = 5
  max_requests_per_second = 10
  request_timeout         = "30s"
}
